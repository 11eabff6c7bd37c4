import { createContext, useContext } from 'react';

export interface IdleConfig {
  /** Inactivity after which a logged-in applicant is logged out (docs/limits.md). */
  timeoutMs: number;
  /** How long before the time-out the "Still working?" dialog appears. */
  warningMs: number;
  /** How often the clock is checked; also catches a laptop waking from sleep. */
  tickMs: number;
}

export const DEFAULT_IDLE_CONFIG: IdleConfig = {
  timeoutMs: 900000,
  warningMs: 60000,
  tickMs: 1000,
};

// A context rather than constants so tests (and a future e2e hook) can shorten the clock.
export const IdleConfigContext = createContext<IdleConfig>(DEFAULT_IDLE_CONFIG);

export function useIdleConfig(): IdleConfig {
  return useContext(IdleConfigContext);
}
