import { ApplicationPage } from '../../../features/application/components/application-page';

export function Component() {
  return (
    <>
      <title>About You | Undergraduate Application</title>
      <ApplicationPage pageId="about" />
    </>
  );
}
