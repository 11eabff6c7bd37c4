import { Paper, Text, VisuallyHidden } from '@mantine/core';
import {
  describeDeadline,
  describeRoundPhase,
  describeTimeLeft,
  findApplication,
  findNextBannerChange,
  findRound,
  formatCountdown,
  isSubmitted,
  type ApplicationsView,
} from '../lib/round-clock';
import { useServerNow } from '../lib/use-server-now';

/**
 * The current application's deadline, from a day before its round closes until it does, with a
 * countdown the last hour (docs/screens-and-routes.md). The mm:ss changes every second and is
 * not a live region; a screen reader hears a sentence of whole minutes, at most once a minute.
 */
export function DeadlineBanner({ view }: { view: ApplicationsView }) {
  const round = findRound(view, view.current);
  const now = useServerNow(view, (at) => (round ? findNextBannerChange(round, at) : undefined));
  if (!round || isSubmitted(findApplication(view, view.current))) return null;
  const phase = describeRoundPhase(round, now);
  if (phase !== 'banner' && phase !== 'countdown') return null;
  const left = Date.parse(round.closes_at) - now;
  return (
    <Paper
      component="section"
      aria-label="Application deadline"
      data-testid="deadline-banner"
      data-phase={phase}
      withBorder
      p="md"
      mb="md"
      bg="amber.0"
    >
      <Text fw={700}>{describeDeadline(round, view.time_zone)}</Text>
      {phase === 'countdown' && (
        <Text mt={4}>
          Time left: <strong data-testid="deadline-countdown">{formatCountdown(left)}</strong>
        </Text>
      )}
      <VisuallyHidden role="status" aria-live="polite" data-testid="deadline-announcement">
        {phase === 'countdown' ? describeTimeLeft(left, round.name) : ''}
      </VisuallyHidden>
    </Paper>
  );
}
