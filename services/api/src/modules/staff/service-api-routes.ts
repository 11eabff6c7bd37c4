// The campus systems' API (issue #18): POST /service/tokens and GET /service/applications with
// `Authorization: Bearer <API key>` (created by `npm run cli -- staff api-key create`).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import type { FastifyRequest } from 'fastify';
import { ENDPOINTS, PRINT_VIEW_PATH, STAFF_MESSAGES } from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/connect';
import { findApplication, setExternalId } from '../application';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import { publicRouteLimit } from '../../platform/http/security';
import { provideAccessGuard } from '../../platform/http/access';
import { mintServiceToken } from '../service';
import { verifyApiKey, type ApiKeyScope } from './api-keys';
import { listStaffApplications, type StaffListLabels } from './staff-list';
import { recordListRead } from './list-audit';

export interface ServiceApiRouteOptions {
  config: Config;
  db: Db;
  clock: Clock;
  serviceTokenKey: Buffer;
  labels: StaffListLabels;
}

export const serviceApiRoutes: FastifyPluginAsyncTypebox<ServiceApiRouteOptions> = async (
  app,
  options,
) => {
  const { db, clock } = options;

  // The key each request authenticated with, checked by the guard of `service` access
  // (preValidation, before the query and the body are): a caller without a valid key is told 401
  // whatever it sent.
  const keys = new WeakMap<FastifyRequest, { id: string; scope: ApiKeyScope }>();
  provideAccessGuard(app, 'service', async (access, request) => {
    keys.set(request, await authenticate(request, access.scopes));
  });
  const keyOf = (request: FastifyRequest) => {
    const key = keys.get(request);
    if (!key) throw new AppError('API_KEY_INVALID', STAFF_MESSAGES.apiKeyInvalid);
    return key;
  };

  async function authenticate(request: FastifyRequest, scopes: readonly ApiKeyScope[]) {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer (\S+)$/.exec(header);
    const key = match?.[1] ? await verifyApiKey(db, match[1], clock.now()) : null;
    if (!key) throw new AppError('API_KEY_INVALID', STAFF_MESSAGES.apiKeyInvalid);
    if (!scopes.includes(key.scope)) {
      throw new AppError('API_KEY_SCOPE', STAFF_MESSAGES.apiKeyScope);
    }
    request.log.info({ apiKey: key.id }, 'api key used');
    return key;
  }

  registerEndpoint(app, ENDPOINTS.mintServiceToken, {
    config: publicRouteLimit(options.config),
    handler: async (request) => {
      const key = keyOf(request);
      // The access guard refused any other scope already; this narrows the type for the token.
      if (key.scope === 'write-ids')
        throw new AppError('API_KEY_SCOPE', STAFF_MESSAGES.apiKeyScope);
      const application = await findApplication(db, request.body.application_id);
      if (!application) throw new AppError('NOT_FOUND', STAFF_MESSAGES.notFound);
      const ttl = request.body.ttl_seconds;
      const { token, claims } = mintServiceToken(options.serviceTokenKey, {
        applicationId: application.id,
        now: clock.now(),
        // The key's scope limits what the token opens, and the token dies with the key.
        scope: key.scope,
        apiKeyId: key.id,
        ...(ttl === undefined ? {} : { ttlMs: ttl * 1000 }),
      });
      request.log.info(
        { apiKey: key.id, tokenId: claims.jti, application: application.id },
        'service token minted',
      );
      const url = new URL(PRINT_VIEW_PATH, options.config.publicUrl);
      url.searchParams.set('service_token', token);
      return { token, url: url.toString(), expires_at: new Date(claims.exp * 1000).toISOString() };
    },
  });

  registerEndpoint(app, ENDPOINTS.listServiceApplications, {
    config: publicRouteLimit(options.config),
    handler: async (request) => {
      const key = keyOf(request);
      const answer = await listStaffApplications(db, request.query, options.labels);
      await recordListRead(db, {
        apiKeyId: key.id,
        query: request.query,
        answer,
        ip: request.ip,
        at: clock.now(),
      });
      return answer;
    },
  });

  // The student system's return feed: the one thing about an application an API key may write.
  registerEndpoint(app, ENDPOINTS.setExternalId, {
    config: publicRouteLimit(options.config),
    handler: async (request) => {
      const key = keyOf(request);
      const externalId = request.body.external_id;
      const outcome = await setExternalId(db, request.params.id, externalId);
      if (outcome === 'not-found') throw new AppError('NOT_FOUND', STAFF_MESSAGES.notFound);
      if (outcome === 'taken') {
        throw new AppError(
          'EXTERNAL_ID_TAKEN',
          `The student system ID "${externalId}" already belongs to another application.`,
        );
      }
      request.log.info(
        { apiKey: key.id, application: request.params.id, outcome },
        'external id stored',
      );
      return { application_id: request.params.id, external_id: externalId };
    },
  });
};
