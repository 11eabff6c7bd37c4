import { ForgotCard } from '../../../features/auth/components/forgot-card';

export function Component() {
  return (
    <>
      <title>Forgot Password | Undergraduate Application</title>
      <ForgotCard />
    </>
  );
}
