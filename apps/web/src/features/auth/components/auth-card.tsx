import type { FormEvent, ReactNode } from 'react';
import { Anchor, Card, Divider, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { buildCarriedState } from '../../../shared/lib/auth-location-state';
import classes from './auth-card.module.css';

export interface AuthCardFooter {
  question: string;
  linkLabel: string;
  to: string;
}

interface AuthCardProps {
  title: string;
  onSubmit: () => void;
  footer: AuthCardFooter;
  /** Answers typed before the visitor had an account; every link carries them on. */
  answers: Record<string, string> | undefined;
  notice?: ReactNode;
  children: ReactNode;
}

/** The frame every auth screen shares: header, one form, and a question linking elsewhere. */
export function AuthCard({ title, onSubmit, footer, answers, notice, children }: AuthCardProps) {
  const headingId = `auth-card-${title.toLowerCase().replace(/\W+/g, '-')}`;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };

  return (
    <Card
      component="section"
      withBorder
      shadow="sm"
      radius="md"
      padding="lg"
      className={classes.card}
      aria-labelledby={headingId}
    >
      <Card.Section className={classes.header}>
        <Title order={1} id={headingId} className={classes.title}>
          {title}
        </Title>
      </Card.Section>
      <Stack gap="md" mt="md">
        {notice}
        <form noValidate onSubmit={handleSubmit} aria-labelledby={headingId}>
          <Stack gap="md">{children}</Stack>
        </form>
        <Divider />
        <Text size="sm" ta="center">
          {footer.question}{' '}
          <Anchor component={Link} to={footer.to} state={buildCarriedState(answers)} fw={700}>
            {footer.linkLabel}
          </Anchor>
        </Text>
      </Stack>
    </Card>
  );
}
