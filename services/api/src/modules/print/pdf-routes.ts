import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  API_ROUTES,
  ApplicationPdfResponse,
  ErrorResponse,
  commonErrors,
} from '@admissions/api-contract';
import { currentUser, type RequireSession } from '../auth';
import type { ApplicationPdfService } from './pdf-service';
import { PdfAttachmentResponse, sendPdfAttachment } from './pdf-file-name';

export interface PdfRouteOptions {
  service: ApplicationPdfService;
  requireSession: RequireSession;
}

const DownloadLinkQuery = Type.Object(
  {
    u: Type.String({ pattern: '^[0-9a-f-]{36}$', description: 'The owner (a user id)' }),
    v: Type.String({ pattern: '^[0-9]{1,9}$', description: 'The application version' }),
    e: Type.String({ pattern: '^[0-9]{1,12}$', description: 'Expiry, seconds since the epoch' }),
    s: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'HMAC-SHA256 signature' }),
  },
  { additionalProperties: false },
);

export const pdfRoutes: FastifyPluginAsyncTypebox<PdfRouteOptions> = async (app, options) => {
  const { service, requireSession } = options;
  const tags = ['application'];

  app.get(API_ROUTES.applicationPdf, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: "Status of the applicant's application PDF; starts its generation when needed",
      description:
        'Cached per version of the application (answers, tabs, add-another counts, documents). ' +
        'The first call for a version queues a job and answers UNPROCESSED; then IN_PROGRESS, ' +
        'and COMPLETED with `url`, a same-origin link valid for 5 minutes and only with the ' +
        "owner's session. FAILED carries a message to show; a call a minute later tries again.",
      response: { 200: ApplicationPdfResponse, 401: ErrorResponse, ...commonErrors },
    },
    handler: async (request) => service.requestPdf(currentUser(request).userId),
  });

  app.get(API_ROUTES.applicationPdfFile, {
    preHandler: requireSession,
    exposeHeadRoute: false,
    schema: {
      tags,
      summary: 'Download the application PDF through the link GET /api/pdf returned',
      description:
        "401 without a session; 403 when the link's signature is wrong, it has expired, or it " +
        'belongs to another applicant; 404 when the application changed since (ask GET /api/pdf ' +
        'again).',
      querystring: DownloadLinkQuery,
      produces: ['application/pdf', 'application/json'],
      response: {
        200: PdfAttachmentResponse,
        401: ErrorResponse,
        403: ErrorResponse,
        404: ErrorResponse,
        ...commonErrors,
      },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { bytes, nameAnswers } = await service.readDownload(user.userId, request.query);
      return sendPdfAttachment(reply, bytes, nameAnswers, user.userId);
    },
  });
};
