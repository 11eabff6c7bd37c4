// One route of the HTTP API from its declaration in @admissions/api-contract's ENDPOINTS: the
// method, path, schemas, tags and summary come from there, and the error responses from the
// endpoint's codes (their statuses from ERROR_CODES), so a module only says how it answers.
import type { TSchema } from '@sinclair/typebox';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ERROR_CODES,
  ErrorResponse,
  type BodySchema,
  type Endpoint,
  type ParamsSchema,
  type QuerySchema,
} from '@admissions/api-contract';
import { createAccessCheck } from './access';

export type EndpointApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** The Fastify schema of an endpoint, as the type provider reads it: only the success answer. */
export interface EndpointSchema<E> extends FastifySchema {
  params: ParamsSchema<E>;
  querystring: QuerySchema<E>;
  body: BodySchema<E>;
  response: E extends { readonly response: infer R } ? R : never;
}

/** The handler of an endpoint: request and answer typed from its schemas. */
export type EndpointHandler<E> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  EndpointSchema<E>,
  TypeBoxTypeProvider,
  FastifyBaseLogger
>;

/**
 * How a module answers an endpoint. Who may call it is not an option: the endpoint's declared
 * access (endpoint-access.ts) attaches its guard.
 */
export type EndpointOptions<E> = Pick<
  RouteShorthandOptions,
  'config' | 'exposeHeadRoute' | 'bodyLimit' | 'onSend'
> & { handler: EndpointHandler<E> };

/** The response schemas: the success answer, then one error body per status of its codes. */
export function buildEndpointResponses(endpoint: Endpoint): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const [status, schema] of Object.entries(endpoint.response)) {
    if (schema) responses[Number(status)] = schema;
  }
  // A code's own status only: its other ones are the storage upload's and Fastify's refusal of
  // a body, which no endpoint's declaration is about.
  for (const code of endpoint.errors) {
    const { status } = ERROR_CODES[code];
    responses[status] ??= endpoint.errorBodies?.[status] ?? ErrorResponse;
  }
  return responses;
}

export function registerEndpoint<const E extends Endpoint>(
  app: EndpointApp,
  endpoint: E,
  options: EndpointOptions<E>,
): void {
  const { handler, ...rest } = options;
  // The guard is the route's `preValidation` hook (there is no preHandler here): it runs before
  // the query and the body are checked against their schemas, so a caller who may not use the
  // route is told so (401, 403) and learns nothing of what the route would have accepted.
  const check = createAccessCheck(app, endpoint.access);
  app.route({
    ...rest,
    config: { ...rest.config, access: endpoint.access },
    ...(check ? { preValidation: check } : {}),
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      tags: [...endpoint.tags],
      summary: endpoint.summary,
      ...(endpoint.description ? { description: endpoint.description } : {}),
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.produces ? { produces: [...endpoint.produces] } : {}),
      ...(endpoint.security ? { security: endpoint.security.map((s) => ({ ...s })) } : {}),
      response: buildEndpointResponses(endpoint),
    } as FastifySchema,
    handler: handler as RouteHandlerMethod,
  });
}
