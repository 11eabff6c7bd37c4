import { MESSAGES } from '@admissions/api-contract';
import { ServerError, UnauthorizedError } from './errors';
import { notifyUnauthorized } from './session-events';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface FetchOptions {
  /**
   * Whether a 401 ends the applicant's session in the SPA (cache cleared, sent to /login). callApi
   * sets it from the endpoint's declared access (only an `applicant` route's 401 means the
   * session ended); the idle logout handles its own expiry, so it opts out.
   */
  sessionRedirect?: boolean;
}

/**
 * The one way the SPA talks to the server (docs/api.md, docs/errors.md): JSON in, JSON out, and every failure
 * turned into an error whose message can be shown to the applicant unchanged.
 */
export async function fetchJson<T>(
  uri: string,
  method: HttpMethod,
  payload?: unknown,
  options: FetchOptions = {},
): Promise<T> {
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  };
  if (payload !== undefined) init.body = JSON.stringify(payload);

  let response: Response;
  try {
    response = await fetch(uri, init);
  } catch {
    // Offline or the server is unreachable: nothing the applicant can act on but retrying.
    throw new ServerError(MESSAGES.unexpected, 0);
  }

  const body = await readJson(response);
  if (response.ok) {
    if (body === undefined) throw new ServerError(MESSAGES.unexpected, response.status);
    return body as T;
  }

  const message = readMessage(body) ?? MESSAGES.unexpected;
  if (response.status === 401) {
    if (options.sessionRedirect === true) {
      notifyUnauthorized();
      throw new UnauthorizedError(MESSAGES.sessionInvalid);
    }
    throw new UnauthorizedError(message);
  }
  throw new ServerError(message, response.status, readCode(body));
}

async function readJson(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) return undefined;
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

function readMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('message' in body)) return undefined;
  const { message } = body;
  return typeof message === 'string' && message.length > 0 ? message : undefined;
}

function readCode(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('code' in body)) return undefined;
  const { code } = body;
  return typeof code === 'string' && code.length > 0 ? code : undefined;
}
