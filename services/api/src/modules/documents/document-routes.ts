import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import { DOCUMENT_MESSAGES, ENDPOINTS } from '@admissions/api-contract';
import type { ApplicantResolver } from '../application';
import type { DocumentService } from './document-service';

export interface DocumentRouteOptions {
  service: DocumentService;
  /** The applicant's current application (the application module's resolver). */
  applicant: ApplicantResolver;
}

export const documentRoutes: FastifyPluginAsyncTypebox<DocumentRouteOptions> = async (
  app,
  { service, applicant },
) => {
  registerEndpoint(app, ENDPOINTS.createUploadUrl, {
    handler: async (request) =>
      service.createUploadUrl(await applicant(request), request.body.answer_key),
  });

  registerEndpoint(app, ENDPOINTS.startConversion, {
    handler: async (request) =>
      service.startConversion(
        await applicant(request),
        request.params.key,
        request.body.file_key,
        request.body.file_name,
      ),
  });

  registerEndpoint(app, ENDPOINTS.readConversion, {
    handler: async (request) =>
      service.readStatus((await applicant(request)).applicationId, request.params.key),
  });

  registerEndpoint(app, ENDPOINTS.forgetConversion, {
    handler: async (request) => {
      await service.deleteConversion(await applicant(request), request.params.key);
      return { message: DOCUMENT_MESSAGES.deleted };
    },
  });

  registerEndpoint(app, ENDPOINTS.readDocumentAnswers, {
    handler: async (request) =>
      service.readDocumentAnswers((await applicant(request)).applicationId),
  });

  registerEndpoint(app, ENDPOINTS.readDocumentThumbnail, {
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const png = await service.readThumbnail(
        (await applicant(request)).applicationId,
        request.params.key,
      );
      // The API's hook adds no-store and nosniff: the picture is the applicant's alone.
      return reply.type('image/png').send(Buffer.from(png));
    },
  });

  registerEndpoint(app, ENDPOINTS.deleteDocument, {
    handler: async (request) => {
      await service.deleteDocument(await applicant(request), request.params.key);
      return { message: DOCUMENT_MESSAGES.deleted };
    },
  });
};
