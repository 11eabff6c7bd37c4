import { PagePlaceholder } from '../../../features/profile/components/page-placeholder';
import { useApplicationContext } from './application-root';

export function Component() {
  const { profile } = useApplicationContext();
  return (
    <>
      <title>Final Steps | Undergraduate Application</title>
      <PagePlaceholder title="Final Steps" profile={profile} />
    </>
  );
}
