// The staff area's server side (issue #18): sign-in (local password + TOTP, or OIDC), the
// applications list, one application's print data and documents, its staff PDF. Every read and
// download writes one service_audit row naming the staff member. Nothing here writes applicant data.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ErrorResponse,
  MESSAGES,
  MessageResponse,
  STAFF_MESSAGES,
  STAFF_ROUTES,
  STAFF_EXPORT_ROUTES,
  StaffApplicationParams,
  StaffExportBody,
  StaffExportListResponse,
  StaffExportResponse,
  StaffApplicationResponse,
  StaffMethodsResponse,
  STAFF_EXPORT_RETENTION_DAYS,
  StaffListQuery,
  StaffListResponse,
  StaffLoginBody,
  StaffLoginResponse,
  StaffMeResponse,
  StaffSetupBody,
  StaffTotpBody,
  commonErrors,
} from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/connect';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import { publicRouteLimit } from '../../platform/http/security';
import type { ApplicationPdfService } from '../print';
import { createDocumentStore } from '../documents';
import { PdfAttachmentResponse, sendPdfAttachment } from '../print';
import { recordServiceRead } from '../service';
import type { StaffAccounts } from './staff-accounts';
import type { StaffExports } from './staff-exports';
import { OIDC_COOKIE, OIDC_COOKIE_PATH, OIDC_FLOW_TTL_MS, type StaffOidc } from './staff-oidc';
import { listStaffApplications, type StaffListLabels } from './staff-list';
import { createRequireStaff, currentStaff, requireRole } from './require-staff';
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
}

const authErrors = { 401: ErrorResponse, 403: ErrorResponse, ...commonErrors };

export const staffRoutes: FastifyPluginAsyncTypebox<StaffRouteOptions> = async (app, options) => {
  const { db, clock, cookies, accounts } = options;
  const tags = ['staff'];
  const requireStaff = createRequireStaff(db, clock, cookies);
  const requirePending = createRequireStaff(db, clock, cookies, 'totp');
  app.decorateRequest('staffUser', null);
  // Staff answers name applicants: never cached anywhere.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const limited = { config: publicRouteLimit(options.config) };

  app.get(STAFF_ROUTES.oidcStart, {
    ...limited,
    exposeHeadRoute: false,
    schema: {
      tags,
      summary: "Staff sign-in through the institution's identity provider (OpenID Connect)",
      description:
        'Redirects to the provider (authorization code with PKCE, state and nonce, kept in a ' +
        'sealed 10-minute cookie). 404 when no provider is configured.',
      response: { 302: Type.Null(), 404: ErrorResponse, ...commonErrors },
    },
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

  app.get(STAFF_ROUTES.oidcCallback, {
    ...limited,
    exposeHeadRoute: false,
    schema: {
      tags,
      summary: "The identity provider's redirect back: verifies it and starts a staff session",
      description:
        'Redirects to /staff with the session cookie, or to /staff?sign_in_error=refused (not an ' +
        'allowed domain or group, or disabled) or =failed (anything that did not verify).',
      querystring: Type.Object({}, { additionalProperties: true }),
      response: { 302: Type.Null(), 404: ErrorResponse, ...commonErrors },
    },
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

  app.get(STAFF_ROUTES.methods, {
    schema: {
      tags,
      summary: 'The sign-in methods the staff sign-in page offers',
      response: { 200: StaffMethodsResponse, ...commonErrors },
    },
    handler: async () => ({ oidc: options.oidc !== null }),
  });

  app.post(STAFF_ROUTES.login, {
    ...limited,
    schema: {
      tags,
      summary: 'Local staff sign-in, step 1: e-mail and password',
      description:
        'Sets a short pending session (cookie staff_sid) for the TOTP step. On the first ' +
        'sign-in the answer carries the TOTP secret and otpauth:// URI to enrol. 401 wrong ' +
        'e-mail or password; 429 locked out (as applicants: from the fifth failure).',
      body: StaffLoginBody,
      response: { 200: StaffLoginResponse, ...authErrors },
    },
    handler: async (request, reply) => {
      const { token, enrol } = await accounts.login(request.body);
      setStaffCookie(reply, cookies, token);
      return enrol ? { next: 'totp-enrol' as const, enrol } : { next: 'totp' as const };
    },
  });

  app.post(STAFF_ROUTES.totp, {
    ...limited,
    preHandler: requirePending,
    schema: {
      tags,
      summary: 'Local staff sign-in, step 2: the TOTP code (confirms the enrolment the first time)',
      body: StaffTotpBody,
      response: { 200: StaffMeResponse, ...authErrors },
    },
    handler: async (request, reply) => {
      const pending = currentStaff(request);
      const token = await accounts.verifyTotp(pending.staffId, request.body.code.trim());
      // A new session id for the signed-in state: the pending one is dead.
      await revokeStaffSession(db, pending.sessionIdHash, clock.now());
      setStaffCookie(reply, cookies, token);
      return { email: pending.email, role: pending.role };
    },
  });

  app.post(STAFF_ROUTES.setup, {
    ...limited,
    schema: {
      tags,
      summary: 'Sets a local staff password from the one-time link printed by `staff add`',
      body: StaffSetupBody,
      response: { 200: MessageResponse, ...authErrors },
    },
    handler: async (request) => {
      await accounts.setup(request.body);
      return { message: STAFF_MESSAGES.setupDone };
    },
  });

  app.post(STAFF_ROUTES.logout, {
    schema: { tags, summary: 'Ends the staff session', response: { 200: MessageResponse } },
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

  app.get(STAFF_ROUTES.me, {
    preHandler: requireStaff,
    schema: {
      tags,
      summary: 'The signed-in staff member',
      response: { 200: StaffMeResponse, ...authErrors },
    },
    handler: async (request) => {
      const user = currentStaff(request);
      return { email: user.email, role: user.role };
    },
  });

  app.get(STAFF_ROUTES.applications, {
    preHandler: requireStaff,
    schema: {
      tags,
      summary: 'Applications: search (name or e-mail, accent-insensitive), filter, sort, page',
      querystring: StaffListQuery,
      response: { 200: StaffListResponse, ...authErrors },
    },
    handler: async (request) => listStaffApplications(db, request.query, options.labels),
  });

  app.get(STAFF_ROUTES.application, {
    preHandler: requireStaff,
    exposeHeadRoute: false,
    schema: {
      tags,
      summary: "One application: the print view's data, its documents and conversion status",
      description: 'Writes one service_audit row naming the staff member. 404 unknown id.',
      params: StaffApplicationParams,
      response: { 200: StaffApplicationResponse, 404: ErrorResponse, ...authErrors },
    },
    handler: async (request) => {
      const user = currentStaff(request);
      const userId = request.params.id;
      const read = await options.pdf.readServicePrint(userId);
      if (!read) throw new AppError('NOT_FOUND', STAFF_MESSAGES.notFound);
      const conversions = await createDocumentStore(db).listConversions(userId);
      await recordServiceRead(db, {
        tokenId: `staff:${randomBytes(9).toString('base64url')}`,
        userId,
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
        pdf_url: STAFF_ROUTES.applicationPdf.replace(':id', userId),
      };
    },
  });

  app.get(STAFF_ROUTES.applicationPdf, {
    preHandler: requireStaff,
    exposeHeadRoute: false,
    schema: {
      tags,
      summary: 'The staff PDF of one application (as GET /service/pdf)',
      description: 'Writes one service_audit row naming the staff member. 404 unknown id.',
      params: StaffApplicationParams,
      produces: ['application/pdf', 'application/json'],
      response: { 200: PdfAttachmentResponse, 404: ErrorResponse, ...authErrors },
    },
    handler: async (request, reply) => {
      const user = currentStaff(request);
      const rendered = await options.pdf.readServicePdf(request.params.id);
      if (!rendered) throw new AppError('NOT_FOUND', STAFF_MESSAGES.notFound);
      await recordServiceRead(db, {
        tokenId: `staff:${randomBytes(9).toString('base64url')}`,
        userId: request.params.id,
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
  const ExportParams = StaffApplicationParams;

  app.post(STAFF_EXPORT_ROUTES.exports, {
    preHandler: requireStaff,
    schema: {
      tags,
      summary: 'Starts an export of the selection (exporter role): the pg-boss export job',
      description:
        "Only what changed since this exporter's last export is rendered unless `force`. " +
        '403 for readers; 409 while another export of this exporter runs.',
      body: StaffExportBody,
      response: { 202: StaffExportResponse, 409: ErrorResponse, ...authErrors },
    },
    handler: async (request, reply) => {
      const user = requireRole(request, 'exporter');
      const started = await exportsOf().start(user.staffId, request.body);
      return reply.code(202).send(started);
    },
  });

  app.get(STAFF_EXPORT_ROUTES.exports, {
    preHandler: requireStaff,
    schema: {
      tags,
      summary: "The exporter's 20 latest exports, newest first",
      response: { 200: StaffExportListResponse, ...authErrors },
    },
    handler: async (request) => {
      const user = requireRole(request, 'exporter');
      return { exports: await exportsOf().list(user.staffId) };
    },
  });

  app.get(STAFF_EXPORT_ROUTES.export, {
    preHandler: requireStaff,
    schema: {
      tags,
      summary: "An export's progress (its exporter only)",
      params: ExportParams,
      response: { 200: StaffExportResponse, 404: ErrorResponse, ...authErrors },
    },
    handler: async (request) => {
      const user = requireRole(request, 'exporter');
      return exportsOf().status(user.staffId, request.params.id);
    },
  });

  app.get(STAFF_EXPORT_ROUTES.exportDownload, {
    preHandler: requireStaff,
    exposeHeadRoute: false,
    schema: {
      tags,
      summary: 'The finished export: the zip (PDFs, index.csv, index.json) or the combined PDF',
      description:
        'Writes one service_audit row per application in the file, naming the exporter. 410 ' +
        `once deleted (${STAFF_EXPORT_RETENTION_DAYS} days after it finished).`,
      params: ExportParams,
      produces: ['application/zip', 'application/pdf', 'application/json'],
      response: {
        200: Type.Unsafe<NodeJS.ReadableStream>({ type: 'string', format: 'binary' }),
        404: ErrorResponse,
        409: ErrorResponse,
        410: ErrorResponse,
        ...authErrors,
      },
    },
    handler: async (request, reply) => {
      const user = requireRole(request, 'exporter');
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
