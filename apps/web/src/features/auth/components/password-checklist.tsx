import { List, Text, VisuallyHidden } from '@mantine/core';
import { checkPassword } from '@admissions/form';
import classes from './password-checklist.module.css';

/**
 * The live requirements list (docs/screens-and-routes.md), built from the same rules the server enforces. It is
 * rendered as the password input's description, so it is announced with the input.
 */
export function PasswordChecklist({ password }: { password: string }) {
  // An empty field meets nothing yet: "No spaces at the beginning or end" is vacuously true of
  // '' and would show a green tick before anything was typed.
  const checks = checkPassword(password).map((check) =>
    password === '' ? { ...check, met: false } : check,
  );
  return (
    <div className={classes.checklist} data-testid="password-checklist">
      <Text size="sm" fw={700} c="brown.9" component="div">
        Your password must have:
      </Text>
      <List size="sm" spacing={2} listStyleType="none" className={classes.list}>
        {checks.map((check) => (
          <List.Item
            key={check.id}
            data-rule={check.id}
            data-met={check.met}
            className={check.met ? classes.met : classes.unmet}
          >
            <span aria-hidden="true" className={classes.mark}>
              {check.met ? '✓' : '✗'}
            </span>
            {check.label}
            <VisuallyHidden>{check.met ? ' (met)' : ' (not met)'}</VisuallyHidden>
          </List.Item>
        ))}
      </List>
    </div>
  );
}
