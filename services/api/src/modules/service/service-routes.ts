// Staff (service-token) routes: read-only, one applicant per token, every read audited.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import type { FastifyRequest } from 'fastify';
import { ENDPOINTS, SERVICE_MESSAGES } from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/connect';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import { publicRouteLimit } from '../../platform/http/security';
import { provideAccessGuard } from '../../platform/http/access';
import type { ApplicationPdfService } from '../print';
import { sendPdfAttachment } from '../print';
import { recordServiceRead } from './service-audit';
import {
  verifyServiceToken,
  type ServiceTokenClaims,
  type ServiceTokenScope,
} from './service-tokens';

export interface ServiceRouteOptions {
  config: Config;
  db: Db;
  clock: Clock;
  serviceTokenKey: Buffer;
  pdf: Pick<ApplicationPdfService, 'readServicePdf' | 'readServicePrint'>;
  /**
   * Whether the API key that minted a token is still live (the staff module owns the keys): a
   * revoked key's tokens stop at once.
   */
  isApiKeyLive: (id: string) => Promise<boolean>;
}

export const serviceRoutes: FastifyPluginAsyncTypebox<ServiceRouteOptions> = async (
  app,
  options,
) => {
  const { db, clock } = options;

  /**
   * The token's claims when it is valid, its API key (if any) not revoked and its scope one of
   * `scopes`; 401 for a bad, expired or revoked token, 403 for a scope that does not allow this.
   */
  async function authenticate(
    request: FastifyRequest,
    token: string,
    scopes: readonly ServiceTokenScope[],
  ): Promise<ServiceTokenClaims> {
    const check = verifyServiceToken(options.serviceTokenKey, token, clock.now());
    if (!check.ok) {
      request.log.info({ reason: check.reason }, 'service token refused');
      throw check.reason === 'expired'
        ? new AppError('SERVICE_TOKEN_EXPIRED', SERVICE_MESSAGES.tokenExpired)
        : new AppError('SERVICE_TOKEN_INVALID', SERVICE_MESSAGES.tokenInvalid);
    }
    const { claims } = check;
    if (claims.kid !== undefined && !(await options.isApiKeyLive(claims.kid))) {
      request.log.info({ apiKey: claims.kid }, 'service token of a revoked API key refused');
      throw new AppError('SERVICE_TOKEN_INVALID', SERVICE_MESSAGES.tokenInvalid);
    }
    if (!scopes.includes(claims.scope)) {
      throw new AppError('SERVICE_TOKEN_SCOPE', SERVICE_MESSAGES.tokenScope);
    }
    return claims;
  }
  // The routes of `service-token` access (endpoint-access.ts). A request without a token is left
  // to the query's schema (400), as before the guard was declared.
  const claimsOf = new WeakMap<FastifyRequest, ServiceTokenClaims>();
  provideAccessGuard(app, 'service-token', async (access, request) => {
    const token = (request.query as { service_token?: unknown }).service_token;
    if (typeof token !== 'string') return;
    claimsOf.set(request, await authenticate(request, token, access.scopes));
  });
  const tokenClaims = (request: FastifyRequest): ServiceTokenClaims => {
    const claims = claimsOf.get(request);
    if (!claims) throw new AppError('SERVICE_TOKEN_INVALID', SERVICE_MESSAGES.tokenInvalid);
    return claims;
  };
  // The account was deleted after the token was minted.
  const accountGone = () => new AppError('SERVICE_TOKEN_INVALID', SERVICE_MESSAGES.tokenInvalid);

  const common = {
    config: publicRouteLimit(options.config),
    // HEAD would run the read (and audit it) for nothing; only GET reads.
    exposeHeadRoute: false,
  };

  registerEndpoint(app, ENDPOINTS.readServicePrint, {
    ...common,
    handler: async (request) => {
      const claims = tokenClaims(request);
      const read = await options.pdf.readServicePrint(claims.sub);
      if (!read) throw accountGone();
      await recordServiceRead(db, {
        tokenId: claims.jti,
        applicationId: claims.sub,
        ...(claims.kid === undefined ? {} : { apiKeyId: claims.kid }),
        action: 'print-view',
        shown: read.shown,
        ip: request.ip,
        at: clock.now(),
      });
      return read.print;
    },
  });

  registerEndpoint(app, ENDPOINTS.downloadServicePdf, {
    ...common,
    handler: async (request, reply) => {
      const claims = tokenClaims(request);
      const rendered = await options.pdf.readServicePdf(claims.sub);
      if (!rendered) throw accountGone();
      await recordServiceRead(db, {
        tokenId: claims.jti,
        applicationId: claims.sub,
        ...(claims.kid === undefined ? {} : { apiKeyId: claims.kid }),
        action: 'pdf',
        shown: rendered.shown,
        ip: request.ip,
        at: clock.now(),
      });
      return sendPdfAttachment(reply, rendered.bytes, rendered.nameAnswers, claims.sub);
    },
  });
};
