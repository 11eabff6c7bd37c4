import { NavLink, useLocation } from 'react-router';
import { APPLICATION_DEFINITION } from '@admissions/form';
import { useApplicationActions, useStatusSelector } from '../state/application-context';
import classes from './step-nav.module.css';

/** The three steps (docs/screens-and-routes.md): links replace the history entry; the current one is active. */
export function StepNav() {
  const actions = useApplicationActions();
  const { is_service_user: isServiceUser, is_logged_in: isLoggedIn } = useStatusSelector(
    (view) => view.snapshot,
  );
  const { pathname } = useLocation();
  if (isServiceUser) return null;
  return (
    <nav aria-label="Application steps" className={classes.nav}>
      <ol className={classes.list}>
        {APPLICATION_DEFINITION.pages.map((page) => {
          const to = `/${page.id}`;
          return (
            <li key={page.id} className={classes.item}>
              <NavLink
                to={to}
                replace
                className={({ isActive }) =>
                  isActive ? `${classes.link} ${classes.active}` : classes.link
                }
                onClick={(event) => {
                  // Saving, validating and the anonymous detour decide where the click leads.
                  event.preventDefault();
                  if (pathname !== to || !isLoggedIn) void actions.goToPage(to);
                }}
              >
                <span className={classes.step}>Step {page.step}</span>
                <span>{page.title}</span>
              </NavLink>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
