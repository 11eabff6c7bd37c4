import {
  LOOKUP_MAX_RESULTS,
  type LookupCategory,
  type LookupItem,
  type LookupRecord,
} from '@admissions/api-contract';
import { callApi } from './call-api';

/** docs/api.md Lookup: search as the applicant types. Failures are silent: an empty list. */
export async function fetchLookupItems(
  category: LookupCategory,
  text: string,
  signal?: AbortSignal,
): Promise<LookupItem[]> {
  const query = { text: text.slice(0, 200), category, max_results: LOOKUP_MAX_RESULTS };
  try {
    signal?.throwIfAborted();
    const items = await callApi('GET /lookup/find', { query });
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
  try {
    const record = await callApi('GET /lookup/find', { query: { id, category } });
    // A fetch by id answers one record; a list would be a search's answer.
    return Array.isArray(record) ? null : record;
  } catch {
    return null;
  }
}
