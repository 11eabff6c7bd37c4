import { PagePlaceholder } from '../../../features/profile/components/page-placeholder';
import { useApplicationContext } from './application-root';

export function Component() {
  const { profile } = useApplicationContext();
  return (
    <>
      <title>Your Academics | Undergraduate Application</title>
      <PagePlaceholder title="Your Academics" profile={profile} />
    </>
  );
}
