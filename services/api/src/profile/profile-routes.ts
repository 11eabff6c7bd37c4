import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { asc, eq } from 'drizzle-orm';
import { API_ROUTES, ErrorResponse, ProfileResponse, commonErrors } from '@admissions/api-contract';
import type { Db } from '../db/connect';
import { applications, successfulLogins } from '../db/schema';
import { currentUser, type RequireSession } from '../auth/require-session';

export interface ProfileRouteOptions {
  db: Db;
  requireSession: RequireSession;
}

export const profileRoutes: FastifyPluginAsyncTypebox<ProfileRouteOptions> = async (
  app,
  options,
) => {
  const { db, requireSession } = options;

  app.get(API_ROUTES.profile, {
    preHandler: requireSession,
    schema: {
      tags: ['application'],
      summary: "The applicant's saved answers, logins and progress",
      response: { 200: ProfileResponse, 401: ErrorResponse, ...commonErrors },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const [application] = await db
        .select()
        .from(applications)
        .where(eq(applications.userId, user.userId))
        .limit(1);
      const logins = await db
        .select({ at: successfulLogins.at })
        .from(successfulLogins)
        .where(eq(successfulLogins.userId, user.userId))
        .orderBy(asc(successfulLogins.at));
      return {
        answer: application?.answer ?? {},
        document_answer: {},
        username: user.email,
        last_page: application?.lastPage ?? null,
        successful_login: logins.map((l) => l.at.toISOString()),
        web_status: (application?.webStatus ?? []).map((web_status) => ({ web_status })),
      };
    },
  });
};
