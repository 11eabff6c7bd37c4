// The client side of the endpoint contract: callApi's route must be one of ENDPOINTS, its input
// and answer are typed from that endpoint. The `@ts-expect-error` lines are the type test (npm
// run typecheck fails if any of them compiles); the runtime part checks the request it sends.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { MessageResponse, ProfileResponse, TabsResponse } from '@admissions/api-contract';
import { callApi } from '../src/shared/api/call-api';
import { stubFetch } from './support/fetch-stub';

// Never called: compiled only.
export async function wrongCallsDoNotCompile(): Promise<void> {
  // @ts-expect-error PUT /api/answer: there is no POST
  await callApi('POST /api/answer', { body: { first_name: 'Ann' } });
  // @ts-expect-error the last page is one of the page paths
  await callApi('PUT /api/last-page', { body: { last_page: '/nowhere' } });
  // @ts-expect-error the body is { tab_id, chosen_tab }
  await callApi('PUT /api/tabs', { body: { tab: 'a' } });
  // @ts-expect-error the conversion's path names its file question
  await callApi('GET /api/pdf/document-answer/:key');
  // @ts-expect-error GET /api/profile takes no body
  await callApi('GET /api/profile', { body: {} });
  // @ts-expect-error a file download is a link, not a JSON call
  await callApi('GET /api/pdf/file', { query: { u: '', v: '', e: '', s: '' } });
  // @ts-expect-error GET /api/tabs answers the chosen tabs, not a profile
  const profile: ProfileResponse = await callApi('GET /api/tabs');
  void profile;
  expectTypeOf(callApi('GET /api/tabs')).resolves.toEqualTypeOf<TabsResponse>();
  expectTypeOf(callApi('POST /api/submit')).resolves.toEqualTypeOf<MessageResponse>();
}

describe('callApi', () => {
  it('sends the endpoint’s method to its path, parameters encoded, and returns the answer', async () => {
    const { calls } = stubFetch({
      'DELETE /api/pdf/document-answer/a%20b_doc': { body: { message: 'Your file was deleted.' } },
      'GET /lookup/find': { body: [] },
    });
    await expect(
      callApi('DELETE /api/pdf/document-answer/:key', { params: { key: 'a b_doc' } }),
    ).resolves.toEqual({ message: 'Your file was deleted.' });
    await callApi(
      'GET /lookup/find',
      { query: { text: 'x', category: 'hs_ceeb', max_results: 5, id: undefined } },
      { sessionRedirect: false },
    );
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'DELETE /api/pdf/document-answer/a%20b_doc',
      'GET /lookup/find?text=x&category=hs_ceeb&max_results=5',
    ]);
    expect(calls[0]?.body).toBeUndefined();
  });

  it('sends the body as JSON', async () => {
    const { calls } = stubFetch({});
    await callApi('PUT /api/answer', { body: { first_name: 'Ann' } });
    expect(calls[0]).toMatchObject({ method: 'PUT', body: { first_name: 'Ann' } });
  });
});
