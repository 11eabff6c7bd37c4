import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  API_ROUTES,
  ConversionStatusResponse,
  DOCUMENT_MESSAGES,
  DocumentAnswersResponse,
  DocumentKeyParams,
  ErrorResponse,
  MessageResponse,
  PresignedUrlBody,
  PresignedUrlResponse,
  StartConversionBody,
  commonErrors,
} from '@admissions/api-contract';
import { currentUser, type RequireSession } from '../auth';
import type { DocumentService } from './document-service';

export interface DocumentRouteOptions {
  service: DocumentService;
  requireSession: RequireSession;
}

const sessionErrors = { 401: ErrorResponse, ...commonErrors };
const mutationErrors = { ...sessionErrors, 404: ErrorResponse, 409: ErrorResponse };

export const documentRoutes: FastifyPluginAsyncTypebox<DocumentRouteOptions> = async (
  app,
  { service, requireSession },
) => {
  const tags = ['documents'];

  app.post(API_ROUTES.presignedUrl, {
    preHandler: requireSession,
    schema: {
      tags,
      summary:
        'An upload link for one file question: that key only, 1 B–1 MB, 10 minutes, one upload; 429 past 3 uploads or 5 MB in flight',
      body: PresignedUrlBody,
      response: { 200: PresignedUrlResponse, ...mutationErrors },
    },
    handler: async (request) =>
      service.createUploadUrl(currentUser(request).userId, request.body.answer_key),
  });

  app.post(API_ROUTES.documentConversion, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Convert an uploaded file to PDF (poll GET for the result)',
      params: DocumentKeyParams,
      body: StartConversionBody,
      response: { 200: ConversionStatusResponse, ...mutationErrors },
    },
    handler: async (request) =>
      service.startConversion(
        currentUser(request).userId,
        request.params.key,
        request.body.file_key,
        request.body.file_name,
      ),
  });

  app.get(API_ROUTES.documentConversion, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Conversion status: COMPLETED, FAILED, IN_PROGRESS, UNPROCESSED or NOT_ANSWERED',
      params: DocumentKeyParams,
      response: { 200: ConversionStatusResponse, ...sessionErrors },
    },
    handler: async (request) => service.readStatus(currentUser(request).userId, request.params.key),
  });

  app.delete(API_ROUTES.documentConversion, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Forget the conversion (after a failure); a converted document stays',
      params: DocumentKeyParams,
      response: { 200: MessageResponse, ...mutationErrors },
    },
    handler: async (request) => {
      await service.deleteConversion(currentUser(request).userId, request.params.key);
      return { message: DOCUMENT_MESSAGES.deleted };
    },
  });

  app.get(API_ROUTES.documentAnswers, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Converted documents per file question: file name and size',
      response: { 200: DocumentAnswersResponse, ...sessionErrors },
    },
    handler: async (request) => service.readDocumentAnswers(currentUser(request).userId),
  });

  app.delete(API_ROUTES.documentAnswer, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Delete the document of a file question and clear its answer',
      params: DocumentKeyParams,
      response: { 200: MessageResponse, ...mutationErrors },
    },
    handler: async (request) => {
      await service.deleteDocument(currentUser(request).userId, request.params.key);
      return { message: DOCUMENT_MESSAGES.deleted };
    },
  });
};
