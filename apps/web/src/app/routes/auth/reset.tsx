import { ResetCard } from '../../../features/auth/components/reset-card';

export function Component() {
  return (
    <>
      <title>Reset Password | Undergraduate Application</title>
      <ResetCard />
    </>
  );
}
