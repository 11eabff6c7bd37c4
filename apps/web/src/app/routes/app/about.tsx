import { PagePlaceholder } from '../../../features/profile/components/page-placeholder';
import { useApplicationContext } from './application-root';

export function Component() {
  const { profile } = useApplicationContext();
  return (
    <>
      <title>About You | Undergraduate Application</title>
      <PagePlaceholder title="About You" profile={profile} />
    </>
  );
}
