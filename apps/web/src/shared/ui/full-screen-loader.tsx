import { Loader } from '@mantine/core';
import { LOADING_SIZES } from '../../config/theme';
import classes from './full-screen-loader.module.css';

/** Covers everything (maximum z-index) while the base profile loads (docs/screens-and-routes.md). */
export function FullScreenLoader({ label = 'Loading your application' }: { label?: string }) {
  return (
    <div className={classes.overlay} role="progressbar" aria-busy="true" aria-label={label}>
      <Loader size={LOADING_SIZES.m} color="brown" />
    </div>
  );
}
