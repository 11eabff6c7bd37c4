import type { SessionSnapshot } from '../../../shared/lib/session';
import classes from './account-popover.module.css';

/** The avatar letter and the label, shared by the placeholder and the real trigger. */
export function AccountTriggerContent({ session }: { session: SessionSnapshot }) {
  return (
    <>
      <span aria-hidden="true" className={classes.avatar}>
        {session.isLoggedIn ? (session.username.charAt(0) || '?').toUpperCase() : '?'}
      </span>
      <span className={classes.triggerLabel}>Account</span>
    </>
  );
}
