import { ConfirmCard } from '../../../features/auth/components/confirm-card';

export function Component() {
  return (
    <>
      <title>Confirm Your Account | Undergraduate Application</title>
      <ConfirmCard />
    </>
  );
}
