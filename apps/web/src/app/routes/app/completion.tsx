import { lazy, Suspense, useState } from 'react';
import { Navigate } from 'react-router';
import { Anchor, Box, Container, Group, List, Paper, Text, Title } from '@mantine/core';
import { MESSAGES } from '@admissions/api-contract';
import { DEFAULT_ROUTE } from '../../../config/paths';
import { AccountPopover } from '../../../features/account/components/account-popover';
import { PdfDownload } from '../../../features/application-pdf/components/pdf-download';
import { Frame } from '../../../features/layout/components/frame';
import { useProfile } from '../../../features/profile/api/get-profile';
import { getPartner } from '../../../shared/lib/partner';
import { isLoggedIn } from '../../../shared/lib/session';
import { FullScreenLoader } from '../../../shared/ui/full-screen-loader';

export const NEXT_STEPS_HEADING = 'What happens next';

// Issue #29's "Apply to another round", loaded after the page. Imported here and not through the
// rounds feature's index: code this page shared with the form pages' root was merged by Rollup
// into this page's chunk, which a first visit to /about then downloaded (bundle budget).
const RoundPicker = lazy(() =>
  import('../../../features/rounds/components/round-picker').then((module) => ({
    default: module.RoundPicker,
  })),
);

// Issue #30's checklist (what has arrived, the recommenders, the office's requests), loaded after
// the page like the round picker.
const ApplicantChecklist = lazy(() =>
  import('../../../features/checklist').then((module) => ({
    default: module.ApplicantChecklist,
  })),
);

/** /completion: only makes sense once the application is submitted. */
export function Component() {
  // Decided on arrival: when a session ends, the code ending it navigates (with its message)
  // before dropping the marker, and this route must not race it with a bare redirect.
  const [arrivedLoggedIn] = useState(isLoggedIn);
  // Only a submitted application has a completion page; a visitor has none.
  if (!arrivedLoggedIn) return <Navigate to={DEFAULT_ROUTE} replace />;
  return <Completion />;
}

function Completion() {
  const profile = useProfile();
  if (!profile.data) return <FullScreenLoader />;
  const submitted = profile.data.web_status.some((entry) => entry.web_status === 'submitted');
  if (!submitted) return <Navigate to={DEFAULT_ROUTE} replace />;
  const partner = getPartner();
  // Every later login lands here, often on a shared school computer: the frame gives the
  // institution's name and the account menu with Log Out, so the page is never a dead end.
  return (
    <Frame headerActions={<AccountPopover />}>
      <Container size="sm" py="xl">
        <title>Application Submitted | Undergraduate Application</title>
        <Paper withBorder p="lg" radius="md">
          <Title order={1}>Application submitted</Title>
          <Text mt="sm">{MESSAGES.submitted}</Text>
          <Title order={2} size="h3" mt="lg">
            {NEXT_STEPS_HEADING}
          </Title>
          <List mt="xs" spacing="xs">
            <List.Item>
              The {partner.admissionsOfficeName} at {partner.schoolName} reviews your application
              and writes to you by e-mail about a decision and any documents still needed.
            </List.Item>
            <List.Item>
              Your application can no longer be changed. For questions, write to{' '}
              <Anchor href={`mailto:${partner.admissionEmail}`}>{partner.admissionEmail}</Anchor> or
              call{' '}
              <Anchor href={`tel:${partner.admissionPhone.replace(/[^\d+]/g, '')}`}>
                {partner.admissionPhone}
              </Anchor>
              .
            </List.Item>
          </List>
          <Text mt="md">Keep a copy of what you sent for your records.</Text>
          <Group mt="sm">
            <PdfDownload />
          </Group>
        </Paper>
        <Box mt="lg">
          <Suspense fallback={null}>
            <ApplicantChecklist place="completion" />
          </Suspense>
        </Box>
        {/* Issue #29: "Apply to another round", once the rounds have answered. */}
        <Box mt="lg">
          <Suspense fallback={null}>
            <RoundPicker />
          </Suspense>
        </Box>
      </Container>
    </Frame>
  );
}
