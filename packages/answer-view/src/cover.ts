// What the PDF's cover and the print view's heading say about the application, decided once.
import type { ApplicationCover } from './view-model';

/** The line above the applicant's name on the cover and in the print view. */
export const COVER_HEADING = 'Undergraduate Application';

/** "November 20, 2026, 15:04 UTC": in UTC, so every reader sees the same moment. */
export function formatCoverTimestamp(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = date.toLocaleDateString('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
  const time = date.toLocaleTimeString('en-GB', {
    timeZone: 'UTC',
    hour: '2-digit',
    minute: '2-digit',
  });
  return `${day}, ${time} UTC`;
}

/**
 * The cover's facts in order: application id, round and student system ID (when given), e-mail
 * (when known), submitted, generated.
 */
export function listCoverLines(cover: ApplicationCover): { label: string; value: string }[] {
  return [
    { label: 'Application ID', value: cover.applicationId },
    ...(cover.round ? [{ label: 'Round', value: cover.round }] : []),
    ...(cover.externalId ? [{ label: 'Student system ID', value: cover.externalId }] : []),
    ...(cover.email ? [{ label: 'Email', value: cover.email }] : []),
    {
      label: 'Submitted',
      value: cover.submittedAt ? formatCoverTimestamp(cover.submittedAt) : 'Not submitted',
    },
    { label: 'Generated', value: formatCoverTimestamp(cover.generatedAt) },
  ];
}
