// The institution's configuration, read once before the first render (src/shared/lib/partner.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_ROUTES } from '@admissions/api-contract';
import { DEFAULT_PARTNER } from '@admissions/form';
import { getPartner, loadPartner } from '../src/shared/lib/partner';
import { stubFetch } from './support/fetch-stub';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the institution’s configuration', () => {
  it('is read with the very request index.html preloads, so the browser sends it once', async () => {
    const { calls } = stubFetch({
      [`GET ${API_ROUTES.partner}`]: { body: { ...DEFAULT_PARTNER, schoolName: 'Ridge College' } },
    });
    await loadPartner();
    expect(getPartner().schoolName).toBe('Ridge College');
    // A preload (as=fetch, crossorigin) serves a fetch() with the same credentials and no request
    // headers of its own; JSON's Accept or Content-Type would have the browser fetch it again.
    expect(calls).toEqual([
      expect.objectContaining({ method: 'GET', credentials: 'same-origin', headers: {} }),
    ]);
  });

  it('stays the built-in default when the server cannot give it', async () => {
    stubFetch({ [`GET ${API_ROUTES.partner}`]: { status: 503, body: { message: 'Unavailable' } } });
    await loadPartner();
    expect(getPartner()).toEqual(DEFAULT_PARTNER);
  });
});
