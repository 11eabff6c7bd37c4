// /recommend/:token (issue #30): the recommender's page, in the institution's frame. No session,
// no idle time-out: the link is the credential. A bundle of its own, fetched only by this link.
import { Container } from '@mantine/core';
import { useParams } from 'react-router';
import { Frame } from '../../features/layout/components/frame';
import { RecommendationPage } from '../../features/recommendation';

export function Component() {
  const { token = '' } = useParams();
  return (
    <Frame>
      <Container size="sm" py="xl">
        <RecommendationPage token={token} />
      </Container>
    </Frame>
  );
}
