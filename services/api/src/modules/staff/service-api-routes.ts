// The campus systems' API (issue #18): POST /service/tokens and GET /service/applications with
// `Authorization: Bearer <API key>` (created by `npm run cli -- staff api-key create`).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  ErrorResponse,
  PRINT_VIEW_PATH,
  STAFF_MESSAGES,
  STAFF_ROUTES,
  ServiceTokenBody,
  ServiceTokenResponse,
  StaffListQuery,
  StaffListResponse,
  commonErrors,
} from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/connect';
import { findAccountById } from '../auth';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import { publicRouteLimit } from '../../platform/http/security';
import { mintServiceToken } from '../service';
import { verifyApiKey, type ApiKeyScope } from './api-keys';
import { listStaffApplications, type StaffListLabels } from './staff-list';

export interface ServiceApiRouteOptions {
  config: Config;
  db: Db;
  clock: Clock;
  serviceTokenKey: Buffer;
  labels: StaffListLabels;
}

const keyErrors = { 401: ErrorResponse, 403: ErrorResponse, ...commonErrors };
const security = [{ apiKey: [] }];

export const serviceApiRoutes: FastifyPluginAsyncTypebox<ServiceApiRouteOptions> = async (
  app,
  options,
) => {
  const { db, clock } = options;
  const tags = ['service'];

  async function authenticate(request: FastifyRequest, scopes: ApiKeyScope[]) {
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

  app.post(STAFF_ROUTES.serviceTokens, {
    config: publicRouteLimit(options.config),
    schema: {
      tags,
      security,
      summary: 'Mints a print-view token (read-only, one applicant) for a campus system',
      description:
        'API key scope read or export. The token opens GET /service/tmp-pdf and /service/pdf ' +
        'for this applicant only, until it expires (default 15 minutes, at most 24 hours); ' +
        'each read is audited with the token id. 401 missing, invalid or revoked key; 404 unknown applicant.',
      body: ServiceTokenBody,
      response: { 200: ServiceTokenResponse, 404: ErrorResponse, ...keyErrors },
    },
    handler: async (request) => {
      const key = await authenticate(request, ['read', 'export']);
      const user = await findAccountById(db, request.body.application_id);
      if (!user) throw new AppError('NOT_FOUND', STAFF_MESSAGES.notFound);
      const ttl = request.body.ttl_seconds;
      const { token, claims } = mintServiceToken(options.serviceTokenKey, {
        userId: user.id,
        now: clock.now(),
        ...(ttl === undefined ? {} : { ttlMs: ttl * 1000 }),
      });
      request.log.info(
        { apiKey: key.id, tokenId: claims.jti, applicant: user.id },
        'service token minted',
      );
      const url = new URL(PRINT_VIEW_PATH, options.config.publicUrl);
      url.searchParams.set('service_token', token);
      return { token, url: url.toString(), expires_at: new Date(claims.exp * 1000).toISOString() };
    },
  });

  app.get(STAFF_ROUTES.serviceApplications, {
    config: publicRouteLimit(options.config),
    schema: {
      tags,
      security,
      summary: 'The applications list (as the staff area shows it) for a campus system',
      description: 'API key scope read or export. 401 missing, invalid or revoked key.',
      querystring: StaffListQuery,
      response: { 200: StaffListResponse, ...keyErrors },
    },
    handler: async (request) => {
      await authenticate(request, ['read', 'export']);
      return listStaffApplications(db, request.query, options.labels);
    },
  });
};
