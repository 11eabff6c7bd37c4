import { Link } from 'react-router';
import { Anchor, Paper, Text, Title } from '@mantine/core';
import { PATHS } from '../../../config/paths';
import { buildCarriedState } from '../../../shared/lib/auth-location-state';
import { useAnswersSelector, useStatusSelector } from '../state/application-context';

export const BANNER_TEXTS = {
  firstTitle: "You're in! Now, let's get started...",
  firstBody:
    'Take it one step at a time: everything you enter is saved to your account as you go, and you can come back whenever you like.',
  returningTitle: "We're glad to see you again",
  returningBody: 'Your saved information lets you pick up right where you left off.',
  anonymousTitle: 'Welcome to your application',
  anonymousBody: 'Already started an application?',
} as const;

/**
 * docs/product.md: shown if the application is submitted, or the visitor is not logged in, or has not
 * yet changed page.
 */
export function WelcomeBanner() {
  const snapshot = useStatusSelector((view) => view.snapshot);
  // Only what the banner shows: the name it greets by, and (anonymous) the answers its link
  // carries to /login. A logged-in applicant's other keystrokes leave it alone.
  const name = useAnswersSelector(
    (view) => (view.answers.preferred_name ?? '').trim() || (view.answers.first_name ?? '').trim(),
  );
  const carried = useAnswersSelector((view) => (snapshot.is_logged_in ? undefined : view.answers));
  const show =
    snapshot.web_status === 'submitted' || !snapshot.is_logged_in || !snapshot.has_changed_page;
  if (!show || snapshot.is_service_user) return null;

  let title: string;
  let body: React.ReactNode;
  if (!snapshot.is_logged_in) {
    title = BANNER_TEXTS.anonymousTitle;
    body = (
      <>
        {BANNER_TEXTS.anonymousBody}{' '}
        <Anchor component={Link} to={PATHS.login} state={buildCarriedState({ ...carried })}>
          Log in
        </Anchor>{' '}
        to continue it.
      </>
    );
  } else if (snapshot.num_logins > 1) {
    title = name ? `${BANNER_TEXTS.returningTitle}, ${name}!` : `${BANNER_TEXTS.returningTitle}!`;
    body = BANNER_TEXTS.returningBody;
  } else {
    title = BANNER_TEXTS.firstTitle;
    body = BANNER_TEXTS.firstBody;
  }
  return (
    <Paper
      component="section"
      aria-labelledby="welcome-title"
      data-testid="welcome-banner"
      withBorder
      p="md"
      mb="md"
      bg="brown.0"
    >
      <Title order={2} id="welcome-title" size="h3">
        {title}
      </Title>
      <Text mt={4}>{body}</Text>
    </Paper>
  );
}
