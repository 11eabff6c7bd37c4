import { createDeferredModule, useDeferredModule } from '../../../shared/lib/deferred-module';
import { useSession, type SessionSnapshot } from '../../../shared/lib/session';
import { AccountTriggerContent } from './account-trigger';
import classes from './account-popover.module.css';

// The popover machinery (floating positioning, focus trap) is a sizeable part of Mantine; it
// loads once the page has painted instead of before it (asked for during the first render, its
// four files counted against the first paint on a slow connection). Until then the header shows
// the same button face, inert, so nothing moves when the real one replaces it.
const accountMenu = createDeferredModule(() => import('./account-menu'));

/** docs/screens-and-routes.md "Account popover": who is logged in and how to leave, or how to get in. */
export function AccountPopover() {
  const session = useSession();
  if (session.isServiceUser) return null;
  return <DeferredAccountMenu session={session} />;
}

function DeferredAccountMenu({ session }: { session: SessionSnapshot }) {
  const menu = useDeferredModule(accountMenu);
  if (!menu) {
    return (
      <span className={classes.trigger} aria-hidden="true">
        <AccountTriggerContent session={session} />
      </span>
    );
  }
  return <menu.AccountMenu />;
}
