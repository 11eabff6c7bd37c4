import { Button, Container, Stack, Text, Title } from '@mantine/core';

export const ERROR_SCREEN_TITLE = 'Something went wrong.';
export const ERROR_SCREEN_TEXT =
  'The issue that caused you to see this has been logged. We will get it fixed as soon as possible.';

/** The generic screen behind every error boundary (docs/screens-and-routes.md). */
export function ErrorScreen() {
  return (
    <Container size="sm" py="xl">
      <Stack gap="md" role="alert">
        <Title order={1}>{ERROR_SCREEN_TITLE}</Title>
        <Text>{ERROR_SCREEN_TEXT}</Text>
        <div>
          <Button component="a" href="/about">
            Return to your application
          </Button>
        </div>
      </Stack>
    </Container>
  );
}
