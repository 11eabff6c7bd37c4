import type { FastifySchemaCompiler } from 'fastify';
import { SerializerSelector, type Options } from '@fastify/fast-json-stringify-compiler';

/**
 * A route's schema compiled at its first request instead of at start-up. Fastify compiles every
 * route's body/query/params validators and response serializers while it gets ready — about
 * 60 routes, some with the definition's 170 answer keys — which was the largest part of a start
 * (bench/startup-bench.ts). Each applicant-facing route is called within seconds of a start, so
 * the compile moves to that first request (milliseconds, once) and a start no longer waits for
 * routes nobody calls (OpenAPI, staff, service).
 */
export function compileValidatorLazily<T>(
  compile: FastifySchemaCompiler<T>,
): FastifySchemaCompiler<T> {
  return (routeSchema) => {
    let validate: ReturnType<FastifySchemaCompiler<T>> | undefined;
    // Fastify reads a failed check's reasons from the function it was given: copy them over.
    const check = Object.assign(
      (data: unknown) => {
        validate ??= compile(routeSchema);
        const result = validate(data);
        check.errors = (validate as { errors?: unknown }).errors;
        return result;
      },
      { errors: undefined as unknown },
    );
    return check as ReturnType<FastifySchemaCompiler<T>>;
  };
}

function compileSerializerLazily<Route>(
  compile: (route: Route) => (data: unknown) => string,
): (route: Route) => (data: unknown) => string {
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => {
      serialize ??= compile(route);
      return serialize(data);
    };
  };
}

/** Fastify's own response serializers (fast-json-stringify), each built at its first use. */
export const lazySerializerController = {
  compilersFactory: {
    buildSerializer: (externalSchemas: unknown, options?: Options) =>
      compileSerializerLazily(SerializerSelector()(externalSchemas, options)),
  },
};
