import type { ReactNode } from 'react';
import { Header } from './header';
import { DateAlert } from './date-alert';
import { Footer } from './footer';
import classes from './frame.module.css';

/** Header, main content, footer: shared by the auth screens and the application pages. */
export function Frame({
  headerActions,
  children,
}: {
  headerActions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={classes.frame}>
      <a href="#main-content" className={classes.skipLink}>
        Skip to main content
      </a>
      <Header actions={headerActions} />
      <main id="main-content" tabIndex={-1} className={classes.main}>
        <DateAlert />
        {children}
      </main>
      <Footer />
    </div>
  );
}
