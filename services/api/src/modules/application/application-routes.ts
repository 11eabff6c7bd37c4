import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import { ENDPOINTS, MESSAGES } from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import { currentUser } from '../auth';
import { publicRouteLimit } from '../../platform/http/security';
import { sendJsonText } from '../../platform/http/json-text';
import type { ApplicationService } from './application-service';

export interface ApplicationRouteOptions {
  config: Config;
  service: ApplicationService;
}

export const applicationRoutes: FastifyPluginAsyncTypebox<ApplicationRouteOptions> = async (
  app,
  options,
) => {
  const { service, config } = options;
  const saved = { message: MESSAGES.saved };

  registerEndpoint(app, ENDPOINTS.readProfile, {
    handler: async (request, reply) => {
      const body = await service.readProfileJson(currentUser(request).userId);
      return sendJsonText(reply, body);
    },
  });

  registerEndpoint(app, ENDPOINTS.saveAnswers, {
    handler: async (request) => {
      await service.saveAnswers(currentUser(request).userId, request.body);
      return { message: MESSAGES.answersSaved };
    },
  });

  registerEndpoint(app, ENDPOINTS.saveLastPage, {
    handler: async (request) => {
      await service.saveLastPage(currentUser(request).userId, request.body.last_page);
      return saved;
    },
  });

  registerEndpoint(app, ENDPOINTS.advanceWebStatus, {
    handler: async (request) => {
      await service.advanceWebStatus(currentUser(request).userId, request.body.web_status);
      return saved;
    },
  });

  registerEndpoint(app, ENDPOINTS.saveValidations, {
    handler: async (request) => {
      await service.saveValidations(currentUser(request).userId, request.body);
      return saved;
    },
  });

  registerEndpoint(app, ENDPOINTS.submit, {
    handler: async (request) => {
      const user = currentUser(request);
      await service.submit(user.userId, user.email);
      return { message: MESSAGES.submitted };
    },
  });

  registerEndpoint(app, ENDPOINTS.readAddAnother, {
    handler: async (request) => service.readAddAnother(currentUser(request).userId),
  });

  registerEndpoint(app, ENDPOINTS.saveAddAnother, {
    handler: async (request) => {
      const { button_id, num_components } = request.body;
      await service.saveAddAnother(currentUser(request).userId, button_id, num_components);
      return saved;
    },
  });

  registerEndpoint(app, ENDPOINTS.readTabs, {
    handler: async (request) => service.readTabs(currentUser(request).userId),
  });

  registerEndpoint(app, ENDPOINTS.chooseTab, {
    handler: async (request) => {
      const { tab_id, chosen_tab } = request.body;
      await service.chooseTab(currentUser(request).userId, tab_id, chosen_tab);
      return saved;
    },
  });

  registerEndpoint(app, ENDPOINTS.readTemporaryAnswers, {
    config: publicRouteLimit(config),
    handler: async (request) => ({
      answer: await service.readTemporaryAnswers(request.query.token),
    }),
  });
};
