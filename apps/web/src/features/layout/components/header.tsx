import type { ReactNode } from 'react';
import { Group, Text, Title } from '@mantine/core';
import { DEFAULT_PARTNER } from '@admissions/form';
import classes from './header.module.css';

/** The top band; the app passes the account popover in, since features do not import each other. */
export function Header({ actions }: { actions?: ReactNode }) {
  return (
    <header className={classes.header}>
      <Group justify="space-between" wrap="nowrap" className={classes.inner}>
        <div>
          <Text component="p" size="sm" className={classes.school}>
            {DEFAULT_PARTNER.schoolName}
          </Text>
          <Title order={2} className={classes.title}>
            Undergraduate Application
          </Title>
        </div>
        {actions}
      </Group>
    </header>
  );
}
