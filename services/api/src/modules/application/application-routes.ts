import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import { ENDPOINTS, MESSAGES } from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import { currentUser } from '../auth';
import { publicRouteLimit } from '../../platform/http/security';
import { sendJsonText } from '../../platform/http/json-text';
import { readReceiptTime } from '../../platform/http/receipt-time';
import type { Clock } from '../../platform/lib/clock';
import type { ApplicationService } from './application-service';
import type { ApplicantResolver } from './current-application';

export interface ApplicationRouteOptions {
  config: Config;
  clock: Clock;
  service: ApplicationService;
  applicant: ApplicantResolver;
}

export const applicationRoutes: FastifyPluginAsyncTypebox<ApplicationRouteOptions> = async (
  app,
  options,
) => {
  const { service, config, applicant } = options;
  const saved = { message: MESSAGES.saved };

  registerEndpoint(app, ENDPOINTS.readApplications, {
    handler: async (request) => service.listApplications(currentUser(request).userId),
  });

  registerEndpoint(app, ENDPOINTS.chooseApplication, {
    handler: async (request) =>
      service.chooseApplication(
        currentUser(request).userId,
        readReceiptTime(request, options.clock),
        request.body,
      ),
  });

  registerEndpoint(app, ENDPOINTS.readProfile, {
    handler: async (request, reply) => {
      const body = await service.readProfileJson(await applicant(request));
      return sendJsonText(reply, body);
    },
  });

  registerEndpoint(app, ENDPOINTS.saveAnswers, {
    handler: async (request) => {
      // Resolved inside the save's one statement; the resolver runs only if it wrote nothing.
      await service.saveAnswers(
        {
          userId: currentUser(request).userId,
          receivedAt: readReceiptTime(request, options.clock),
          resolve: () => applicant(request),
        },
        request.body,
      );
      return { message: MESSAGES.answersSaved };
    },
  });

  registerEndpoint(app, ENDPOINTS.saveLastPage, {
    handler: async (request) => {
      await service.saveLastPage(await applicant(request), request.body.last_page);
      return saved;
    },
  });

  registerEndpoint(app, ENDPOINTS.advanceWebStatus, {
    handler: async (request) => {
      await service.advanceWebStatus(await applicant(request), request.body.web_status);
      return saved;
    },
  });

  registerEndpoint(app, ENDPOINTS.saveValidations, {
    handler: async (request) => {
      await service.saveValidations(await applicant(request), request.body);
      return saved;
    },
  });

  registerEndpoint(app, ENDPOINTS.submit, {
    handler: async (request) => {
      await service.submit(await applicant(request));
      return { message: MESSAGES.submitted };
    },
  });

  registerEndpoint(app, ENDPOINTS.readAddAnother, {
    handler: async (request) => service.readAddAnother(await applicant(request)),
  });

  registerEndpoint(app, ENDPOINTS.saveAddAnother, {
    handler: async (request) => {
      const { button_id, num_components } = request.body;
      await service.saveAddAnother(await applicant(request), button_id, num_components);
      return saved;
    },
  });

  registerEndpoint(app, ENDPOINTS.readTabs, {
    handler: async (request) => service.readTabs(await applicant(request)),
  });

  registerEndpoint(app, ENDPOINTS.chooseTab, {
    handler: async (request) => {
      const { tab_id, chosen_tab } = request.body;
      await service.chooseTab(await applicant(request), tab_id, chosen_tab);
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
