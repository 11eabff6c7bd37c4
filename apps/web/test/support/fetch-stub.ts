import { vi } from 'vitest';
import type { ChecklistResponse } from '@admissions/api-contract';

export interface StubResponse {
  status?: number;
  body?: unknown;
  /** Defaults to application/json; set to text/html to imitate a proxy error page. */
  contentType?: string;
  /** Runs when the request is answered, e.g. to set the login marker cookie like the server. */
  effect?: () => void;
}

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
  credentials: RequestCredentials | undefined;
}

/** A checklist with nothing asked for: what a test about something else sees. */
export const EMPTY_CHECKLIST: ChecklistResponse = {
  submitted: false,
  complete: true,
  ferpa_waived: null,
  items: [],
  recommenders: [],
  limits: { counselor: 1, teacher: 2, other: 1 },
};

type Handler = StubResponse | ((call: RecordedCall) => StubResponse | Promise<StubResponse>);

/**
 * The application's bookkeeping calls answer like an empty, fresh application unless a test
 * stubs them itself; tests about other things need not list them.
 */
const APPLICATION_DEFAULTS: Record<string, Handler> = {
  'GET /api/add-another': { body: {} },
  'GET /api/tabs': { body: {} },
  'POST /api/web-status': { body: { message: 'Saved.' } },
  'PUT /api/last-page': { body: { message: 'Saved.' } },
  'PUT /api/answer': { body: { message: 'Your answers were saved.' } },
  'POST /api/validations': { body: { message: 'Saved.' } },
  'GET /api/document-answer': { body: {} },
  // Issue #29: no admission rounds (no deadline banner, no picker) unless a test gives some.
  'GET /api/applications': () => ({
    body: {
      time_zone: 'America/Chicago',
      server_time: new Date().toISOString(),
      current: null,
      applications: [],
      rounds: [],
    },
  }),
  // Issue #30: Final Steps and the completion page show the checklist; nothing on it yet.
  'GET /api/checklist': { body: EMPTY_CHECKLIST },
  // The completion page's PDF copy: still being made unless a test says otherwise.
  'GET /api/pdf': { body: { status: 'IN_PROGRESS', url: '', message: 'Generating' } },
};

/** Defaults for calls whose path ends in a key (`/api/pdf/document-answer/:key`). */
const PREFIX_DEFAULTS: [string, Handler][] = [
  ['GET /api/pdf/document-answer/', { body: { status: 'NOT_ANSWERED', message: '' } }],
];

/**
 * Stubs fetch at the network boundary: handlers keyed "METHOD /path". Unknown calls fail the
 * test loudly instead of hanging.
 */
export function stubFetch(ownHandlers: Record<string, Handler>) {
  const handlers = { ...APPLICATION_DEFAULTS, ...ownHandlers };
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    const call: RecordedCall = {
      method,
      url,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      credentials: init.credentials,
    };
    calls.push(call);
    const route = `${method} ${new URL(url, 'http://localhost').pathname}`;
    const handler =
      handlers[route] ?? PREFIX_DEFAULTS.find(([prefix]) => route.startsWith(prefix))?.[1];
    if (!handler) throw new Error(`Unexpected request in test: ${method} ${url}`);
    const answer = typeof handler === 'function' ? await handler(call) : handler;
    answer.effect?.();
    const contentType = answer.contentType ?? 'application/json; charset=utf-8';
    const payload =
      answer.body === undefined
        ? ''
        : typeof answer.body === 'string'
          ? answer.body
          : JSON.stringify(answer.body);
    return new Response(payload, {
      status: answer.status ?? 200,
      headers: { 'content-type': contentType },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export const MARKER_COOKIE = 'CognitoIdentityServiceProvider.test-client.LastAuthUser';

export function setLoginMarker(username = 'student@example.edu'): void {
  document.cookie = `${MARKER_COOKIE}=${encodeURIComponent(username)}; Path=/`;
}
