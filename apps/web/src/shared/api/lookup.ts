import {
  API_ROUTES,
  LOOKUP_MAX_RESULTS,
  type LookupCategory,
  type LookupItem,
  type LookupRecord,
} from '@admissions/api-contract';
import { fetchJson } from './fetch-handler';

/** docs/api.md Lookup: search as the applicant types. Failures are silent: an empty list. */
export async function fetchLookupItems(
  category: LookupCategory,
  text: string,
  signal?: AbortSignal,
): Promise<LookupItem[]> {
  const query = new URLSearchParams({
    text: text.slice(0, 200),
    category,
    max_results: String(LOOKUP_MAX_RESULTS),
  });
  try {
    signal?.throwIfAborted();
    const items = await fetchJson<LookupItem[]>(
      `${API_ROUTES.lookupFind}?${query}`,
      'GET',
      undefined,
      {
        sessionRedirect: false,
      },
    );
    return Array.isArray(items) ? items : [];
  } catch {
    return [];
  }
}

/** The record behind a picked item, or null when it cannot be had (the caller keeps the label). */
export async function fetchLookupRecord(
  category: LookupCategory,
  id: string,
): Promise<LookupRecord | null> {
  const query = new URLSearchParams({ id, category });
  try {
    return await fetchJson<LookupRecord>(`${API_ROUTES.lookupFind}?${query}`, 'GET', undefined, {
      sessionRedirect: false,
    });
  } catch {
    return null;
  }
}
