import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import { ENDPOINTS } from '@admissions/api-contract';
import { currentUser } from '../auth';
import type { ApplicantResolver } from '../application';
import type { ApplicationPdfService } from './pdf-service';
import { sendPdfAttachment } from './pdf-file-name';

export interface PdfRouteOptions {
  service: ApplicationPdfService;
  /** The applicant's current application (the application module's resolver). */
  applicant: ApplicantResolver;
}

export const pdfRoutes: FastifyPluginAsyncTypebox<PdfRouteOptions> = async (app, options) => {
  const { service, applicant } = options;

  registerEndpoint(app, ENDPOINTS.requestApplicationPdf, {
    handler: async (request) => service.requestPdf((await applicant(request)).applicationId),
  });

  registerEndpoint(app, ENDPOINTS.downloadApplicationPdf, {
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      // The link names its application: any of the session's applicant's, not only the current.
      const { bytes, nameAnswers, applicationId } = await service.readDownload(
        currentUser(request).userId,
        request.query,
      );
      return sendPdfAttachment(reply, bytes, nameAnswers, applicationId);
    },
  });
};
