// The staff area's server side (issue #18): sign-in (local password + TOTP, or OIDC), the
// applications list, one application's print data and documents, its staff PDF. Every read and
// download writes one service_audit row naming the staff member. Nothing here writes applicant data.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import type { StaffApplicationResponse } from '@admissions/api-contract';
import { ENDPOINTS, MESSAGES, STAFF_MESSAGES, STAFF_ROUTES } from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/connect';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import { publicRouteLimit } from '../../platform/http/security';
import { provideAccessGuard } from '../../platform/http/access';
import type { ApplicationPdfService } from '../print';
import { createDocumentStore } from '../documents';
import { sendPdfAttachment } from '../print';
import { recordServiceRead } from '../service';
import type { StaffAccounts } from './staff-accounts';
import type { StaffExports } from './staff-exports';
import { OIDC_COOKIE, OIDC_COOKIE_PATH, OIDC_FLOW_TTL_MS, type StaffOidc } from './staff-oidc';
import { listStaffApplications, type StaffListLabels } from './staff-list';
import type { ChecklistService } from '../checklist';
import { registerStaffChecklist } from './staff-checklist';
import { registerStaffWebhooks } from './staff-webhooks';
import { recordListRead } from './list-audit';
import { listStaffRounds } from './staff-rounds';
import { createFindStaff, createRequireStaff, currentStaff, requireRole } from './require-staff';
import {
  clearStaffCookie,
  createStaffSession,
  revokeStaffSession,
  setStaffCookie,
  type StaffCookieSettings,
} from './staff-sessions';

export interface StaffRouteOptions {
  config: Config;
  db: Db;
  clock: Clock;
  accounts: StaffAccounts;
  cookies: StaffCookieSettings;
  /** null when STAFF_OIDC_ISSUER is not set. */
  oidc: StaffOidc | null;
  /** null without a job queue (an app built without one): the export routes answer 503. */
  exports: StaffExports | null;
  pdf: Pick<ApplicationPdfService, 'readServicePdf' | 'readServicePrint'>;
  labels: StaffListLabels;
  /** The checklist of an application: read by any staff member, changed by a processor. */
  checklist: ChecklistService;
  /** The institution's IANA time zone, which the staff area shows round times in. */
  timeZone: string;
}

export const staffRoutes: FastifyPluginAsyncTypebox<StaffRouteOptions> = async (app, options) => {
  const { db, clock, cookies, accounts } = options;
  const requireStaff = createRequireStaff(db, clock, cookies);
  const requirePending = createRequireStaff(db, clock, cookies, 'totp');
  const findStaff = createFindStaff(db, clock, cookies);
  // The routes of `staff` access (endpoint-access.ts). With the session, before the body is
  // validated: a reader is told 403, not the body's format.
  provideAccessGuard(app, 'staff', async (access, request, reply) => {
    await (access.stage === 'totp' ? requirePending : requireStaff)(request, reply);
    requireRole(request, access.role);
  });
  app.decorateRequest('staffUser', null);
  // Staff answers name applicants: never cached anywhere.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const limited = { config: publicRouteLimit(options.config) };
  registerStaffChecklist(app, { db, clock, checklist: options.checklist });
  registerStaffWebhooks(app, db);

  registerEndpoint(app, ENDPOINTS.startStaffOidc, {
    ...limited,
    exposeHeadRoute: false,
    handler: async (_request, reply) => {
      if (!options.oidc)
        throw new AppError('OIDC_NOT_CONFIGURED', STAFF_MESSAGES.oidcNotConfigured);
      let started;
      try {
        started = await options.oidc.start();
      } catch (error) {
        reply.log.warn({ err: error }, 'identity provider unreachable');
        throw new AppError('OIDC_UNAVAILABLE', STAFF_MESSAGES.oidcFailed, {
          headers: { 'retry-after': '5' },
        });
      }
      // Lax, not Strict: the provider sends the browser back with a cross-site top-level GET.
      reply.setCookie(OIDC_COOKIE, started.cookie, {
        httpOnly: true,
        sameSite: 'lax',
        secure: cookies.secure,
        path: OIDC_COOKIE_PATH,
        maxAge: OIDC_FLOW_TTL_MS / 1000,
      });
      return reply.redirect(started.url, 302);
    },
  });

  registerEndpoint(app, ENDPOINTS.finishStaffOidc, {
    ...limited,
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      if (!options.oidc)
        throw new AppError('OIDC_NOT_CONFIGURED', STAFF_MESSAGES.oidcNotConfigured);
      const current = new URL(request.url, options.config.publicUrl);
      const outcome = await options.oidc.finish(current, request.cookies[OIDC_COOKIE]);
      // The flow works once, whatever the outcome.
      reply.clearCookie(OIDC_COOKIE, {
        path: OIDC_COOKIE_PATH,
        secure: cookies.secure,
        httpOnly: true,
        sameSite: 'lax',
      });
      if (!outcome.ok) {
        request.log.info({ reason: outcome.reason }, 'staff OIDC sign-in refused');
        return reply.redirect(`${STAFF_ROUTES.home}?sign_in_error=${outcome.reason}`, 302);
      }
      const token = await createStaffSession(db, outcome.staffId, 'full', clock.now());
      setStaffCookie(reply, cookies, token);
      return reply.redirect(STAFF_ROUTES.home, 302);
    },
  });

  registerEndpoint(app, ENDPOINTS.readStaffMethods, {
    handler: async () => ({ oidc: options.oidc !== null }),
  });

  registerEndpoint(app, ENDPOINTS.readStaffSession, {
    handler: async (request, reply) => {
      const user = await findStaff(request, reply);
      return user
        ? { signed_in: true as const, email: user.email, role: user.role }
        : { signed_in: false as const };
    },
  });

  registerEndpoint(app, ENDPOINTS.staffLogin, {
    ...limited,
    handler: async (request, reply) => {
      const { token, enrol } = await accounts.login(request.body);
      setStaffCookie(reply, cookies, token);
      return enrol ? { next: 'totp-enrol' as const, enrol } : { next: 'totp' as const };
    },
  });

  registerEndpoint(app, ENDPOINTS.staffTotp, {
    ...limited,
    handler: async (request, reply) => {
      const pending = currentStaff(request);
      // A new session id for the signed-in state: the right code uses the pending one up.
      const token = await accounts.verifyTotp(
        pending.staffId,
        request.body.code.trim(),
        pending.sessionIdHash,
      );
      setStaffCookie(reply, cookies, token);
      return { email: pending.email, role: pending.role };
    },
  });

  registerEndpoint(app, ENDPOINTS.staffSetup, {
    ...limited,
    handler: async (request) => {
      await accounts.setup(request.body);
      return { message: STAFF_MESSAGES.setupDone };
    },
  });

  registerEndpoint(app, ENDPOINTS.staffLogout, {
    handler: async (request, reply) => {
      try {
        await requireStaff(request, reply);
        await revokeStaffSession(db, currentStaff(request).sessionIdHash, clock.now());
      } catch {
        // Signing out without a live session is still signed out.
      }
      clearStaffCookie(reply, cookies);
      return { message: 'Signed out.' };
    },
  });

  registerEndpoint(app, ENDPOINTS.readStaffMe, {
    handler: async (request) => {
      const user = currentStaff(request);
      return { email: user.email, role: user.role };
    },
  });

  registerEndpoint(app, ENDPOINTS.listStaffApplications, {
    handler: async (request) => {
      const user = currentStaff(request);
      const answer = await listStaffApplications(db, request.query, options.labels);
      await recordListRead(db, {
        staff: { id: user.staffId, email: user.email },
        query: request.query,
        answer,
        ip: request.ip,
        at: clock.now(),
      });
      return answer;
    },
  });

  // Rounds and counts name no applicant: no audit row.
  registerEndpoint(app, ENDPOINTS.listStaffRounds, {
    handler: async () => listStaffRounds(db, options.timeZone, clock.now()),
  });

  registerEndpoint(app, ENDPOINTS.readStaffApplication, {
    exposeHeadRoute: false,
    handler: async (request) => {
      const user = currentStaff(request);
      const applicationId = request.params.id;
      const read = await options.pdf.readServicePrint(applicationId);
      if (!read) throw new AppError('NOT_FOUND', STAFF_MESSAGES.notFound);
      const conversions = await createDocumentStore(db).listConversions(applicationId);
      await recordServiceRead(db, {
        tokenId: `staff:${randomBytes(9).toString('base64url')}`,
        applicationId,
        action: 'print-view',
        shown: read.shown,
        ip: request.ip,
        at: clock.now(),
        staff: { id: user.staffId, email: user.email },
      });
      return {
        print: read.print,
        documents: conversions
          .map((c) => ({
            answer_key: c.answerKey,
            file_name: c.fileName,
            status: c.status as StaffApplicationResponse['documents'][number]['status'],
            message: c.message,
          }))
          .sort((a, b) => a.answer_key.localeCompare(b.answer_key)),
        pdf_url: STAFF_ROUTES.applicationPdf.replace(':id', applicationId),
      };
    },
  });

  registerEndpoint(app, ENDPOINTS.downloadStaffApplicationPdf, {
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const user = currentStaff(request);
      const rendered = await options.pdf.readServicePdf(request.params.id);
      if (!rendered) throw new AppError('NOT_FOUND', STAFF_MESSAGES.notFound);
      await recordServiceRead(db, {
        tokenId: `staff:${randomBytes(9).toString('base64url')}`,
        applicationId: request.params.id,
        action: 'pdf',
        shown: rendered.shown,
        ip: request.ip,
        at: clock.now(),
        staff: { id: user.staffId, email: user.email },
      });
      return sendPdfAttachment(reply, rendered.bytes, rendered.nameAnswers, request.params.id);
    },
  });

  const exportsOf = (): StaffExports => {
    if (!options.exports) throw new AppError('UNAVAILABLE', MESSAGES.unavailable);
    return options.exports;
  };

  registerEndpoint(app, ENDPOINTS.startStaffExport, {
    handler: async (request, reply) => {
      const user = currentStaff(request);
      const started = await exportsOf().start(
        { id: user.staffId, email: user.email },
        request.body,
      );
      return reply.code(202).send(started);
    },
  });

  registerEndpoint(app, ENDPOINTS.listStaffExports, {
    handler: async (request) => {
      const user = currentStaff(request);
      return { exports: await exportsOf().list(user.staffId) };
    },
  });

  registerEndpoint(app, ENDPOINTS.readStaffExport, {
    handler: async (request) => {
      const user = currentStaff(request);
      return exportsOf().status(user.staffId, request.params.id);
    },
  });

  registerEndpoint(app, ENDPOINTS.downloadStaffExport, {
    exposeHeadRoute: false,
    handler: async (request, reply) => {
      const user = currentStaff(request);
      const file = await exportsOf().file(
        { id: user.staffId, email: user.email },
        request.params.id,
        request.ip,
      );
      reply.header('content-type', file.type);
      reply.header('content-disposition', `attachment; filename="${file.name}"`);
      return reply.send(createReadStream(file.path));
    },
  });
};
