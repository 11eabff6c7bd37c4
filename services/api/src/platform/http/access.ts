// Every route declares who may call it (@admissions/api-contract's Access): a contract endpoint
// through its entry in endpoint-access.ts, any other route (the metrics, the local upload form,
// the SPA's files, the API docs) through registerRoute or registerPublicPlugin here. A route
// registered without one makes the app fail to start. The guards that check an access are the
// modules' (auth, staff, service), handed over by boot, so platform/ names no feature.
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RouteOptions,
} from 'fastify';
import type { Access, AccessKind } from '@admissions/api-contract';

/** Refuses the request (by throwing its 401/403) unless it may call a route of `access`. */
export type AccessGuard<A extends Access = Access> = (
  access: A,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<void>;

type AccessGuards = { [K in AccessKind]?: AccessGuard<Extract<Access, { kind: K }>> };

interface AccessControl {
  guards: AccessGuards;
  /** The access given to the routes a third-party plugin registers while it loads. */
  ambient: Access | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (set by registerEndpoint, registerRoute, registerPublicPlugin). */
    access?: Access;
  }
  interface FastifyInstance {
    accessControl: AccessControl;
  }
}

/**
 * Before any route: refuses a route without declared access as it is registered, and at ready
 * a declared access that no module guards.
 */
export function registerAccessControl(app: FastifyInstance): void {
  const control: AccessControl = { guards: {}, ambient: null };
  app.decorate('accessControl', control);
  const kinds = new Set<AccessKind>();
  app.addHook('onRoute', (route: RouteOptions) => {
    const access = route.config?.access ?? control.ambient;
    if (!access) {
      throw new Error(`${String(route.method)} ${route.url} declares no access`);
    }
    route.config = { ...route.config, access };
    kinds.add(access.kind);
  });
  app.addHook('onReady', async () => {
    for (const kind of kinds) {
      if (kind !== 'public' && !control.guards[kind]) {
        throw new Error(`no guard for routes of ${kind} access`);
      }
    }
  });
}

/** A module hands over the check of one kind of access (boot calls it before listening). */
export function provideAccessGuard<K extends AccessKind>(
  app: FastifyInstance,
  kind: K,
  guard: AccessGuard<Extract<Access, { kind: K }>>,
): void {
  (app.accessControl.guards as Record<K, typeof guard>)[kind] = guard;
}

/** The preValidation hook of a route of `access`: before the query and the body are checked. */
export function createAccessCheck(
  app: FastifyInstance,
  access: Access,
): ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | undefined {
  if (access.kind === 'public') return undefined;
  if (!app.hasDecorator('accessControl')) {
    throw new Error(`a route of ${access.kind} access on an app without registerAccessControl`);
  }
  const { guards } = app.accessControl;
  return async (request, reply) => {
    const guard = guards[access.kind] as AccessGuard | undefined;
    if (!guard) throw new Error(`no guard for routes of ${access.kind} access`);
    await guard(access, request, reply);
  };
}

/** A route outside the endpoint contract, with its access declared like an endpoint's. */
export function registerRoute(
  app: FastifyInstance,
  access: Access,
  route: Omit<RouteOptions, 'preValidation' | 'config'> & { config?: object },
): void {
  const check = createAccessCheck(app, access);
  app.route({
    ...route,
    config: { ...route.config, access },
    ...(check ? { preValidation: check } : {}),
  } as RouteOptions);
}

/** A plugin whose routes anyone may call (static files, the API docs UI), registered now. */
export async function registerPublicPlugin(
  app: FastifyInstance,
  register: () => PromiseLike<unknown>,
): Promise<void> {
  app.accessControl.ambient = { kind: 'public' };
  try {
    await register();
  } finally {
    app.accessControl.ambient = null;
  }
}

/**
 * @fastify/swagger's `transform`: each documented operation states its route's access as
 * `x-access`, so a client reads who may call it from the OpenAPI document too.
 */
export function documentAccess({
  schema,
  url,
  route,
}: {
  schema: FastifySchema;
  url: string;
  route: { config?: { access?: Access } };
}): { schema: FastifySchema; url: string } {
  const access = route.config?.access;
  // A route without a schema (a static file) stays undocumented: no schema is made for it.
  if (!schema || !access) return { url, schema };
  return { url, schema: { ...schema, 'x-access': access } as FastifySchema };
}
