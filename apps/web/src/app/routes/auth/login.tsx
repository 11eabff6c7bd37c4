import { LoginCard } from '../../../features/auth/components/login-card';

export function Component() {
  return (
    <>
      <title>Log In | Undergraduate Application</title>
      <LoginCard />
    </>
  );
}
