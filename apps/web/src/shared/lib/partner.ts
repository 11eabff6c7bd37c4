import { DEFAULT_PARTNER, type PartnerConfig } from '@admissions/form';
import type { JsonRoute } from '../api/call-api';

// The deployment's institution details (names, limits, alert dates) come from the server once,
// before the first render, so labels and limits match what the server enforces. Configuration
// never changes while the page is open, so a module value is enough.
let active: PartnerConfig = DEFAULT_PARTNER;

export function getPartner(): PartnerConfig {
  return active;
}

/**
 * Loads the configuration; the built-in default stays when it cannot be read. index.html asks for
 * it while the scripts download (`<link rel="preload" as="fetch" crossorigin>`), and the browser
 * hands that response to this request only when the two are alike: same mode and credentials, no
 * headers of its own (fetchJson's Accept and Content-Type would make it a second request, one
 * round trip after the scripts, which the first render waits for).
 */
export async function loadPartner(): Promise<void> {
  try {
    const route = 'GET /public/partner' satisfies JsonRoute;
    const response = await fetch(route.slice('GET '.length), { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`${route}: ${response.status}`);
    active = (await response.json()) as PartnerConfig;
  } catch {
    active = DEFAULT_PARTNER;
  }
}
