// What an endpoint is: its route ("METHOD /path"), its schemas, its success answer and the error
// codes it can answer with; and the types both sides read from one (request, response, input).
import type { Static, TSchema } from '@sinclair/typebox';
import type { ErrorCode } from './error-codes';
import { ENDPOINT_ACCESS, accessErrors, type Access, type AccessErrors } from './endpoint-access';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type RouteMethod<R extends string> = R extends `${infer M extends HttpMethod} ${string}`
  ? M
  : never;
export type RoutePath<R extends string> = R extends `${HttpMethod} ${infer P}` ? P : never;

/** The success statuses an endpoint answers with (302: a redirect, 204: no body). */
export type SuccessStatus = 200 | 201 | 202 | 204 | 302;

export interface EndpointSpec {
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description?: string;
  /** Path parameters (`:key` in the route). */
  readonly params?: TSchema;
  readonly query?: TSchema;
  readonly body?: TSchema;
  /** The success answer: one status and its schema (FileResponse for a file). */
  readonly response: { readonly [S in SuccessStatus]?: TSchema };
  /**
   * Every code it can answer with but its access refusals (added from endpoint-access.ts); the
   * status of each comes from ERROR_CODES.
   */
  readonly errors: readonly ErrorCode[];
  /** An error status whose body is more than ErrorResponse (submit's 422 carries `errors`). */
  readonly errorBodies?: { readonly [status: number]: TSchema };
  /** Media types of the answer when it is not only JSON (a file, with JSON errors). */
  readonly produces?: readonly string[];
  /** OpenAPI security requirement (the campus API key). */
  readonly security?: readonly { readonly [scheme: string]: readonly string[] }[];
}

/** Any endpoint; each of ENDPOINTS has its own literal route, method and path. */
export type Endpoint = EndpointSpec & {
  /** Who may call it (endpoint-access.ts): the server's guard and 401/403 answers come from it. */
  readonly access: Access;
  readonly route: string;
  readonly method: HttpMethod;
  readonly path: string;
};

export function routeMethod<R extends string>(route: R): RouteMethod<R> {
  return route.slice(0, route.indexOf(' ')) as RouteMethod<R>;
}

export function routePath<R extends string>(route: R): RoutePath<R> {
  return route.slice(route.indexOf(' ') + 1) as RoutePath<R>;
}

type AccessibleRoute = keyof typeof ENDPOINT_ACCESS;

/**
 * One endpoint: the route from endpoint-routes.ts, with its method and path split out, its
 * access from endpoint-access.ts, and the refusals of that access added to its errors.
 */
export function defineEndpoint<const R extends AccessibleRoute, const S extends EndpointSpec>(
  route: R,
  spec: S,
): Omit<S, 'errors'> & {
  readonly errors: readonly (
    S['errors'][number] | AccessErrors<(typeof ENDPOINT_ACCESS)[R]>[number]
  )[];
  readonly access: (typeof ENDPOINT_ACCESS)[R];
  readonly route: R;
  readonly method: RouteMethod<R>;
  readonly path: RoutePath<R>;
} {
  const access = ENDPOINT_ACCESS[route];
  return {
    ...spec,
    errors: [...accessErrors(access), ...spec.errors],
    access,
    route,
    method: routeMethod(route),
    path: routePath(route),
  };
}

type SchemaAt<E, K extends 'params' | 'query' | 'body'> = E extends {
  readonly [P in K]: infer T extends TSchema;
}
  ? T
  : undefined;

/** The schemas of an endpoint's input (undefined where it has none). */
export type ParamsSchema<E> = SchemaAt<E, 'params'>;
export type QuerySchema<E> = SchemaAt<E, 'query'>;
export type BodySchema<E> = SchemaAt<E, 'body'>;

/** The schema of the success answer. */
export type ResponseSchema<E> = E extends { readonly response: infer Rs }
  ? Rs[keyof Rs] extends infer T extends TSchema
    ? T
    : never
  : never;

/** What a successful call answers. */
export type EndpointResponse<E> = Static<ResponseSchema<E>>;

type Field<K extends string, S> = S extends TSchema
  ? { [P in K]: Static<S> }
  : { [P in K]?: never };

/** What a caller gives: `params`, `query` and `body`, each only where the endpoint has it. */
export type EndpointInput<E> = Field<'params', ParamsSchema<E>> &
  Field<'query', QuerySchema<E>> &
  Field<'body', BodySchema<E>>;
