import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  API_ROUTES,
  AddAnotherBody,
  AddAnotherResponse,
  AnswerPatch,
  ErrorResponse,
  LastPageBody,
  MESSAGES,
  MessageResponse,
  ProfileResponse,
  SubmitErrorResponse,
  TabsBody,
  TabsResponse,
  TemporaryAnswersQuery,
  TemporaryAnswersResponse,
  ValidationsBody,
  WebStatusBody,
  commonErrors,
} from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import { currentUser, type RequireSession } from '../auth';
import { publicRouteLimit } from '../../platform/http/security';
import { sendJsonText } from '../../platform/http/json-text';
import type { ApplicationService } from './application-service';

export interface ApplicationRouteOptions {
  config: Config;
  service: ApplicationService;
  requireSession: RequireSession;
}

const sessionErrors = { 401: ErrorResponse, ...commonErrors };
const mutationErrors = { ...sessionErrors, 409: ErrorResponse };

export const applicationRoutes: FastifyPluginAsyncTypebox<ApplicationRouteOptions> = async (
  app,
  options,
) => {
  const { service, requireSession, config } = options;
  const tags = ['application'];
  const saved = { message: MESSAGES.saved };

  app.get(API_ROUTES.profile, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: "The applicant's saved answers, logins and progress",
      response: { 200: ProfileResponse, ...sessionErrors },
    },
    handler: async (request, reply) => {
      const body = await service.readProfileJson(currentUser(request).userId);
      return sendJsonText(reply, body);
    },
  });

  app.put(API_ROUTES.answer, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Merge answers into the saved application (atomic; unknown keys refused)',
      body: AnswerPatch,
      response: { 200: MessageResponse, ...mutationErrors },
    },
    handler: async (request) => {
      await service.saveAnswers(currentUser(request).userId, request.body);
      return { message: MESSAGES.answersSaved };
    },
  });

  app.put(API_ROUTES.lastPage, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Remember the page the applicant is on',
      body: LastPageBody,
      response: { 200: MessageResponse, ...mutationErrors },
    },
    handler: async (request) => {
      await service.saveLastPage(currentUser(request).userId, request.body.last_page);
      return saved;
    },
  });

  app.post(API_ROUTES.webStatus, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Advance the web status (idempotent, forward-only)',
      body: WebStatusBody,
      response: { 200: MessageResponse, ...mutationErrors },
    },
    handler: async (request) => {
      await service.advanceWebStatus(currentUser(request).userId, request.body.web_status);
      return saved;
    },
  });

  app.post(API_ROUTES.validations, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Store the latest error map shown to the applicant',
      body: ValidationsBody,
      response: { 200: MessageResponse, ...mutationErrors },
    },
    handler: async (request) => {
      await service.saveValidations(currentUser(request).userId, request.body);
      return saved;
    },
  });

  app.post(API_ROUTES.submit, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Validate on the server and freeze the application',
      response: { 200: MessageResponse, 422: SubmitErrorResponse, ...mutationErrors },
    },
    handler: async (request) => {
      const user = currentUser(request);
      await service.submit(user.userId, user.email);
      return { message: MESSAGES.submitted };
    },
  });

  app.get(API_ROUTES.addAnother, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Blocks shown per add-another button',
      response: { 200: AddAnotherResponse, ...sessionErrors },
    },
    handler: async (request) => service.readAddAnother(currentUser(request).userId),
  });

  app.put(API_ROUTES.addAnother, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Set the number of blocks of an add-another button (1 to its maximum)',
      body: AddAnotherBody,
      response: { 200: MessageResponse, ...mutationErrors },
    },
    handler: async (request) => {
      const { button_id, num_components } = request.body;
      await service.saveAddAnother(currentUser(request).userId, button_id, num_components);
      return saved;
    },
  });

  app.get(API_ROUTES.tabs, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Chosen tab per tab group',
      response: { 200: TabsResponse, ...sessionErrors },
    },
    handler: async (request) => service.readTabs(currentUser(request).userId),
  });

  app.put(API_ROUTES.tabs, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Choose a tab; clears the answers of the tab left',
      body: TabsBody,
      response: { 200: MessageResponse, ...mutationErrors },
    },
    handler: async (request) => {
      const { tab_id, chosen_tab } = request.body;
      await service.chooseTab(currentUser(request).userId, tab_id, chosen_tab);
      return saved;
    },
  });

  app.get(API_ROUTES.temporaryAnswers, {
    config: publicRouteLimit(config),
    schema: {
      tags,
      summary: 'A prefilled answer set for an anonymous visitor (from a prefill link)',
      querystring: TemporaryAnswersQuery,
      response: { 200: TemporaryAnswersResponse, 404: ErrorResponse, ...commonErrors },
    },
    handler: async (request) => ({
      answer: await service.readTemporaryAnswers(request.query.token),
    }),
  });
};
