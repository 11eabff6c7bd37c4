// The applicant's checklist routes and the recommender's page (docs/checklist.md). The staff
// area's checklist routes are the staff module's (staff-checklist.ts), which calls this module.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CHECKLIST_UPLOAD_BODY_LIMIT, ENDPOINTS } from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import { publicRouteLimit } from '../../platform/http/security';
import type { ApplicantResolver } from '../application';
import type { ChecklistService } from './checklist-service';

export interface ChecklistRouteOptions {
  config: Config;
  service: ChecklistService;
  applicant: ApplicantResolver;
}

export const checklistRoutes: FastifyPluginAsyncTypebox<ChecklistRouteOptions> = async (
  app,
  options,
) => {
  const { service, applicant } = options;
  const limited = { config: publicRouteLimit(options.config) };
  const asApplicant = (ip: string) => ({ name: 'applicant', ip });

  registerEndpoint(app, ENDPOINTS.readChecklist, {
    handler: async (request) => service.readChecklist((await applicant(request)).applicationId),
  });

  registerEndpoint(app, ENDPOINTS.addRecommender, {
    handler: async (request) =>
      service.addRecommender(
        (await applicant(request)).applicationId,
        request.body,
        asApplicant(request.ip),
      ),
  });

  registerEndpoint(app, ENDPOINTS.updateRecommender, {
    handler: async (request) =>
      service.updateRecommender(
        (await applicant(request)).applicationId,
        request.params.id,
        request.body,
        asApplicant(request.ip),
      ),
  });

  registerEndpoint(app, ENDPOINTS.removeRecommender, {
    handler: async (request) =>
      service.removeRecommender(
        (await applicant(request)).applicationId,
        request.params.id,
        asApplicant(request.ip),
      ),
  });

  registerEndpoint(app, ENDPOINTS.remindRecommender, {
    handler: async (request) =>
      service.remindRecommender(
        (await applicant(request)).applicationId,
        request.params.id,
        asApplicant(request.ip),
      ),
  });

  registerEndpoint(app, ENDPOINTS.uploadChecklistItem, {
    bodyLimit: CHECKLIST_UPLOAD_BODY_LIMIT,
    handler: async (request) =>
      service.uploadRequestedItem(
        (await applicant(request)).applicationId,
        request.params.item,
        request.body,
      ),
  });

  registerEndpoint(app, ENDPOINTS.readRecommendation, {
    ...limited,
    handler: async (request) => service.readRecommendationPage(request.params.token, request.ip),
  });

  registerEndpoint(app, ENDPOINTS.submitRecommendation, {
    ...limited,
    bodyLimit: CHECKLIST_UPLOAD_BODY_LIMIT,
    handler: async (request) =>
      service.submitRecommendation(request.params.token, request.body, request.ip),
  });
};
