import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import { ENDPOINTS } from '@admissions/api-contract';
import { currentUser } from '../auth';
import type { ApplicationPdfService } from './pdf-service';
import { sendPdfAttachment } from './pdf-file-name';

export interface PdfRouteOptions {
  service: ApplicationPdfService;
}

export const pdfRoutes: FastifyPluginAsyncTypebox<PdfRouteOptions> = async (app, options) => {
  const { service } = options;

  registerEndpoint(app, ENDPOINTS.requestApplicationPdf, {
    handler: async (request) => service.requestPdf(currentUser(request).userId),
  });

  registerEndpoint(app, ENDPOINTS.downloadApplicationPdf, {
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { bytes, nameAnswers } = await service.readDownload(user.userId, request.query);
      return sendPdfAttachment(reply, bytes, nameAnswers, user.userId);
    },
  });
};
