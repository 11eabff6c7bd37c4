// The SPA's one typed client of the HTTP API. A call names its endpoint by route —
// `callApi(ENDPOINT_ROUTES.saveAnswers, { body })` — and its input and answer are typed from
// that endpoint in @admissions/api-contract's ENDPOINTS, so a wrong method (no such route), a
// wrong body or a wrong answer type does not compile. Only the types of ENDPOINTS are imported:
// the route itself is the one string the bundle carries ("PUT /api/answer"), no schema.
import { isApplicantRoute } from '@admissions/api-contract';
import type {
  EndpointInput,
  EndpointOf,
  EndpointResponse,
  EndpointRoute,
} from '@admissions/api-contract';
import { fetchJson, type FetchOptions, type HttpMethod } from './fetch-handler';

/** The routes a fetch can call: JSON answers (a file download or a redirect is a link). */
export type JsonRoute = {
  [R in EndpointRoute]: EndpointOf<R> extends { produces: readonly string[] }
    ? never
    : EndpointOf<R> extends { response: { 302: unknown } }
      ? never
      : R;
}[EndpointRoute];

export type CallInput<R extends JsonRoute> = EndpointInput<EndpointOf<R>>;
export type CallResponse<R extends JsonRoute> = EndpointResponse<EndpointOf<R>>;

export type CallArgs<R extends JsonRoute> =
  Record<string, never> extends CallInput<R>
    ? [input?: CallInput<R>, options?: FetchOptions]
    : [input: CallInput<R>, options?: FetchOptions];

/** The path with `:name` parameters filled in (encoded) and the query appended. */
export function buildEndpointUri(
  path: string,
  params?: Record<string, string>,
  query?: Record<string, unknown>,
): string {
  let uri = params
    ? path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
    : path;
  if (query) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) search.set(key, String(value));
    }
    const text = search.toString();
    if (text) uri += `?${text}`;
  }
  return uri;
}

/**
 * One call (docs/api.md): errors as fetchJson turns them out (the server's message). A 401 ends
 * the applicant's session only on a route of `applicant` access (endpoint-access.ts): elsewhere
 * it is a refused sign-in or another kind of session, left to the caller.
 */
export function callApi<R extends JsonRoute>(
  route: R,
  ...[input, options]: CallArgs<R>
): Promise<CallResponse<R>> {
  const space = route.indexOf(' ');
  const { params, query, body } = (input ?? {}) as {
    params?: Record<string, string>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  const uri = buildEndpointUri(route.slice(space + 1), params, query);
  const sessionRedirect = options?.sessionRedirect ?? isApplicantRoute(route);
  return fetchJson<CallResponse<R>>(uri, route.slice(0, space) as HttpMethod, body, {
    ...options,
    sessionRedirect,
  });
}
