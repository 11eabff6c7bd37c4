import { SignupCard } from '../../../features/auth/components/signup-card';

export function Component() {
  return (
    <>
      <title>Sign Up | Undergraduate Application</title>
      <SignupCard />
    </>
  );
}
