import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@admissions/api-contract';
import { ServerError, UnauthorizedError } from '../src/shared/api/errors';
import { callApi } from '../src/shared/api/call-api';
import { fetchJson } from '../src/shared/api/fetch-handler';
import { setUnauthorizedHandler } from '../src/shared/api/session-events';
import { stubFetch } from './support/fetch-stub';

describe('fetchJson', () => {
  const onUnauthorized = vi.fn();
  let disconnect = () => {};
  afterEach(() => {
    disconnect();
    onUnauthorized.mockReset();
  });
  const connect = () => {
    disconnect = setUnauthorizedHandler(onUnauthorized);
  };

  it('sends JSON with same-origin credentials and returns the body', async () => {
    const { calls } = stubFetch({ 'PUT /api/answer': { body: { message: 'saved' } } });
    await expect(fetchJson('/api/answer', 'PUT', { first_name: 'Ann' })).resolves.toEqual({
      message: 'saved',
    });
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      body: { first_name: 'Ann' },
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
    });
  });

  it('refuses a response that is not JSON', async () => {
    stubFetch({ 'GET /api/profile': { body: '<html>proxy</html>', contentType: 'text/html' } });
    await expect(fetchJson('/api/profile', 'GET')).rejects.toThrow(MESSAGES.unexpected);
  });

  it('uses the server message, or the generic one, for other failures', async () => {
    stubFetch({
      'POST /public/signup': { status: 400, body: { message: 'Bad input.' } },
      'POST /public/login': { status: 502, body: 'Bad gateway', contentType: 'text/plain' },
      'POST /public/confirm': { status: 500, body: {} },
    });
    const bad = fetchJson('/public/signup', 'POST', {});
    await expect(bad).rejects.toBeInstanceOf(ServerError);
    await expect(bad).rejects.toMatchObject({ message: 'Bad input.', status: 400 });
    await expect(fetchJson('/public/login', 'POST', {})).rejects.toThrow(MESSAGES.unexpected);
    await expect(fetchJson('/public/confirm', 'POST', {})).rejects.toThrow(MESSAGES.unexpected);
  });

  it('turns an unreachable server into the generic message', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(fetchJson('/api/profile', 'GET')).rejects.toThrow(MESSAGES.unexpected);
  });

  it('ends the session on a 401 from a route of applicant access', async () => {
    connect();
    stubFetch({ 'GET /api/profile': { status: 401, body: { message: 'Unauthorized' } } });
    const call = callApi('GET /api/profile');
    await expect(call).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(call).rejects.toThrow(MESSAGES.sessionInvalid);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('leaves a refused login (401 on a public route) to the card that asked', async () => {
    connect();
    stubFetch({ 'POST /public/login': { status: 401, body: { message: MESSAGES.loginFailed } } });
    const call = callApi('POST /public/login', { body: { username: 'a@b.c', password: 'x' } });
    await expect(call).rejects.toThrow(MESSAGES.loginFailed);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('leaves a 401 of a staff or service-token route to its caller, whatever the path', async () => {
    connect();
    const staffMessage = 'Your staff session has ended.';
    stubFetch({
      'GET /staff/api/me': { status: 401, body: { message: staffMessage } },
      'GET /service/tmp-pdf': { status: 401, body: { message: 'expired' } },
    });
    await expect(callApi('GET /staff/api/me')).rejects.toThrow(staffMessage);
    await expect(
      callApi('GET /service/tmp-pdf', { query: { service_token: 't' } }),
    ).rejects.toThrow('expired');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
