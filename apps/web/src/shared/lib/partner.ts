import { DEFAULT_PARTNER, type PartnerConfig } from '@admissions/form';
import { callApi } from '../api/call-api';

// The deployment's institution details (names, limits, alert dates) come from the server once,
// before the first render, so labels and limits match what the server enforces. Configuration
// never changes while the page is open, so a module value is enough.
let active: PartnerConfig = DEFAULT_PARTNER;

export function getPartner(): PartnerConfig {
  return active;
}

/** Loads the configuration; the built-in default stays when it cannot be read. */
export async function loadPartner(): Promise<void> {
  try {
    active = await callApi('GET /public/partner');
  } catch {
    active = DEFAULT_PARTNER;
  }
}
