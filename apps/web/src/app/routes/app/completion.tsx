import { useState } from 'react';
import { Navigate } from 'react-router';
import { Container, Group, Paper, Text, Title } from '@mantine/core';
import { MESSAGES } from '@admissions/api-contract';
import { DEFAULT_ROUTE } from '../../../config/paths';
import { PdfDownload } from '../../../features/application-pdf/components/pdf-download';
import { useProfile } from '../../../features/profile/api/get-profile';
import { isLoggedIn } from '../../../shared/lib/session';
import { FullScreenLoader } from '../../../shared/ui/full-screen-loader';

/** /completion has no frame (SPEC §2) and only makes sense once the application is submitted. */
export function Component() {
  // Decided on arrival: when a session ends, the code ending it navigates (with its message)
  // before dropping the marker, and this route must not race it with a bare redirect.
  const [arrivedLoggedIn] = useState(isLoggedIn);
  // SPEC §2: only a submitted application has a completion page; a visitor has none.
  if (!arrivedLoggedIn) return <Navigate to={DEFAULT_ROUTE} replace />;
  return <Completion />;
}

function Completion() {
  const profile = useProfile();
  if (!profile.data) return <FullScreenLoader />;
  const submitted = profile.data.web_status.some((entry) => entry.web_status === 'submitted');
  if (!submitted) return <Navigate to={DEFAULT_ROUTE} replace />;
  return (
    <Container size="sm" py="xl">
      <title>Application Submitted | Undergraduate Application</title>
      <Paper withBorder p="lg" radius="md">
        <Title order={1}>Application submitted</Title>
        <Text mt="sm">{MESSAGES.submitted}</Text>
        <Text mt="md">Keep a copy of what you sent for your records.</Text>
        <Group mt="sm">
          <PdfDownload />
        </Group>
      </Paper>
    </Container>
  );
}
