// Staff (service-token) routes: read-only, one applicant per token, every read audited.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  API_ROUTES,
  ErrorResponse,
  SERVICE_MESSAGES,
  ServicePrintResponse,
  ServiceTokenQuery,
  commonErrors,
} from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/connect';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import { publicRouteLimit } from '../../platform/http/security';
import type { ApplicationPdfService } from '../print';
import { PdfAttachmentResponse, sendPdfAttachment } from '../print';
import { recordServiceRead } from './service-audit';
import { verifyServiceToken, type ServiceTokenClaims } from './service-tokens';

export interface ServiceRouteOptions {
  config: Config;
  db: Db;
  clock: Clock;
  serviceTokenKey: Buffer;
  pdf: Pick<ApplicationPdfService, 'readServicePdf' | 'readServicePrint'>;
}

const tokenErrors = { 401: ErrorResponse, 403: ErrorResponse, ...commonErrors };

export const serviceRoutes: FastifyPluginAsyncTypebox<ServiceRouteOptions> = async (
  app,
  options,
) => {
  const { db, clock } = options;
  const tags = ['service'];

  /** The token's claims; 401 for anything else. */
  function authenticate(request: FastifyRequest, token: string): ServiceTokenClaims {
    const check = verifyServiceToken(options.serviceTokenKey, token, clock.now());
    if (!check.ok) {
      request.log.info({ reason: check.reason }, 'service token refused');
      throw check.reason === 'expired'
        ? new AppError('SERVICE_TOKEN_EXPIRED', SERVICE_MESSAGES.tokenExpired)
        : new AppError('SERVICE_TOKEN_INVALID', SERVICE_MESSAGES.tokenInvalid);
    }
    return check.claims;
  }
  // The account was deleted after the token was minted.
  const accountGone = () => new AppError('SERVICE_TOKEN_INVALID', SERVICE_MESSAGES.tokenInvalid);

  const common = {
    config: publicRouteLimit(options.config),
    // HEAD would run the read (and audit it) for nothing; only GET reads.
    exposeHeadRoute: false,
  };

  app.get(API_ROUTES.servicePrint, {
    ...common,
    schema: {
      tags,
      summary: "Staff print view: one applicant's answers, add-another counts, documents and tabs",
      description:
        'Read-only, with a service token minted by `npm run cli -- service-token`. The sealed ' +
        'answers (SSN, alien registration number) are returned masked. Each successful read ' +
        'writes one service_audit row (token id, applicant, keys shown, never values). 401: ' +
        'invalid, tampered or expired token; 403: any method but GET.',
      querystring: ServiceTokenQuery,
      response: { 200: ServicePrintResponse, ...tokenErrors },
    },
    handler: async (request) => {
      const claims = authenticate(request, request.query.service_token);
      const read = await options.pdf.readServicePrint(claims.sub);
      if (!read) throw accountGone();
      await recordServiceRead(db, {
        tokenId: claims.jti,
        userId: claims.sub,
        action: 'print-view',
        shown: read.shown,
        ip: request.ip,
        at: clock.now(),
      });
      return read.print;
    },
  });

  app.get(API_ROUTES.servicePdf, {
    ...common,
    schema: {
      tags,
      summary: "Staff download of the applicant's application PDF (answers, then documents)",
      description:
        'The same document the applicant downloads, laid out from the staff view. Read-only ' +
        'and audited like the print view. 401: invalid, tampered or expired token; 403: any ' +
        'method but GET; 503 when the PDF cannot be produced right now.',
      querystring: ServiceTokenQuery,
      produces: ['application/pdf', 'application/json'],
      response: {
        200: PdfAttachmentResponse,
        ...tokenErrors,
      },
    },
    handler: async (request, reply) => {
      const claims = authenticate(request, request.query.service_token);
      const rendered = await options.pdf.readServicePdf(claims.sub);
      if (!rendered) throw accountGone();
      await recordServiceRead(db, {
        tokenId: claims.jti,
        userId: claims.sub,
        action: 'pdf',
        shown: rendered.shown,
        ip: request.ip,
        at: clock.now(),
      });
      return sendPdfAttachment(reply, rendered.bytes, rendered.nameAnswers, claims.sub);
    },
  });
};
