import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import {
  ENDPOINTS,
  isLookupCategory,
  LOOKUP_MAX_RESULTS,
  LOOKUP_MESSAGES,
  MESSAGES,
} from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import { AppError } from '../../platform/lib/app-error';
import type { LookupService } from './lookup-service';

export interface LookupRouteOptions {
  config: Config;
  service: LookupService;
}

/**
 * GET /lookup/find (docs/api.md "Lookup"): public, because anonymous visitors fill the form too. A
 * failed search answers an empty list (the SPA then offers "Use: …"), never an error to handle.
 */
export const lookupRoutes: FastifyPluginAsyncTypebox<LookupRouteOptions> = async (app, options) => {
  const { config, service } = options;

  registerEndpoint(app, ENDPOINTS.lookupFind, {
    // Typed-as-you-go: its own per-IP budget, higher than the other public routes'.
    config: { rateLimit: { max: config.lookupRateLimit, timeWindow: 60_000 } },
    handler: async (request) => {
      const { category, text, id, max_results: maxResults } = request.query;
      if (!isLookupCategory(category)) {
        throw new AppError('UNKNOWN_CATEGORY', LOOKUP_MESSAGES.unknownCategory);
      }
      if ((id === undefined) === (text === undefined)) {
        throw new AppError('INVALID_REQUEST', LOOKUP_MESSAGES.textOrId);
      }
      if (id !== undefined) {
        let record;
        try {
          record = await service.fetch(category, id);
        } catch (error) {
          request.log.error({ err: error, category }, 'lookup fetch failed');
          throw new AppError('UNAVAILABLE', MESSAGES.unavailable, {
            headers: { 'retry-after': '5' },
          });
        }
        if (!record) throw new AppError('NOT_FOUND', LOOKUP_MESSAGES.notFound);
        return record;
      }
      const limit = Math.min(maxResults ?? LOOKUP_MAX_RESULTS, LOOKUP_MAX_RESULTS);
      try {
        return await service.search(category, text ?? '', limit);
      } catch (error) {
        request.log.error({ err: error, category }, 'lookup search failed');
        return [];
      }
    },
  });
};
