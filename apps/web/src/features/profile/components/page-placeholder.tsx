import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ProfileResponse } from '@admissions/api-contract';

/**
 * Stands in for a form page until the application pages exist (issue 4); it shows that the
 * profile loaded for the logged-in applicant.
 */
export function PagePlaceholder({ title, profile }: { title: string; profile: ProfileResponse }) {
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="sm">
        <Title order={1}>{title}</Title>
        <Text>
          You are logged in as <strong data-testid="profile-username">{profile.username}</strong>.
        </Text>
        <Text c="dimmed" size="sm">
          This part of the application is coming soon.
        </Text>
      </Stack>
    </Paper>
  );
}
