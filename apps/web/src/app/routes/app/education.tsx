import { ApplicationPage } from '../../../features/application/components/application-page';

export function Component() {
  return (
    <>
      <title>Your Academics | Undergraduate Application</title>
      <ApplicationPage pageId="education" />
    </>
  );
}
