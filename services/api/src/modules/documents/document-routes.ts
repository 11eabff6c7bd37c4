import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import { DOCUMENT_MESSAGES, ENDPOINTS } from '@admissions/api-contract';
import { currentUser } from '../auth';
import type { DocumentService } from './document-service';

export interface DocumentRouteOptions {
  service: DocumentService;
}

export const documentRoutes: FastifyPluginAsyncTypebox<DocumentRouteOptions> = async (
  app,
  { service },
) => {
  registerEndpoint(app, ENDPOINTS.createUploadUrl, {
    handler: async (request) =>
      service.createUploadUrl(currentUser(request).userId, request.body.answer_key),
  });

  registerEndpoint(app, ENDPOINTS.startConversion, {
    handler: async (request) =>
      service.startConversion(
        currentUser(request).userId,
        request.params.key,
        request.body.file_key,
        request.body.file_name,
      ),
  });

  registerEndpoint(app, ENDPOINTS.readConversion, {
    handler: async (request) => service.readStatus(currentUser(request).userId, request.params.key),
  });

  registerEndpoint(app, ENDPOINTS.forgetConversion, {
    handler: async (request) => {
      await service.deleteConversion(currentUser(request).userId, request.params.key);
      return { message: DOCUMENT_MESSAGES.deleted };
    },
  });

  registerEndpoint(app, ENDPOINTS.readDocumentAnswers, {
    handler: async (request) => service.readDocumentAnswers(currentUser(request).userId),
  });

  registerEndpoint(app, ENDPOINTS.readDocumentThumbnail, {
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const png = await service.readThumbnail(currentUser(request).userId, request.params.key);
      // The API's hook adds no-store and nosniff: the picture is the applicant's alone.
      return reply.type('image/png').send(Buffer.from(png));
    },
  });

  registerEndpoint(app, ENDPOINTS.deleteDocument, {
    handler: async (request) => {
      await service.deleteDocument(currentUser(request).userId, request.params.key);
      return { message: DOCUMENT_MESSAGES.deleted };
    },
  });
};
