import type { ReactNode } from 'react';
import { Group, Text, Title } from '@mantine/core';
import classes from './header.module.css';
import { getPartner } from '../../../shared/lib/partner';

/** The top band; the app passes the account popover in, since features do not import each other. */
export function Header({ actions }: { actions?: ReactNode }) {
  return (
    <header className={classes.header}>
      <Group justify="space-between" wrap="nowrap" className={classes.inner}>
        <div>
          <Text component="p" size="sm" className={classes.school}>
            {getPartner().schoolName}
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
