import { ApplicationPage } from '../../../features/application/components/application-page';

export function Component() {
  return (
    <>
      <title>Final Steps | Undergraduate Application</title>
      <ApplicationPage pageId="final-steps" />
    </>
  );
}
