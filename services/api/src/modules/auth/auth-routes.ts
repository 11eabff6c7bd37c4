import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  API_ROUTES,
  ConfirmBody,
  ErrorResponse,
  LoginBody,
  MESSAGES,
  MessageResponse,
  ResetPasswordBody,
  SignupBody,
  UsernameBody,
  commonErrors,
} from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import { publicRouteLimit } from '../../platform/http/security';
import type { Clock } from '../../platform/lib/clock';
import type { AuthService } from './auth-service';
import type { RequireSession } from './require-session';
import {
  clearLoginCookies,
  clearSignupCookie,
  readSignupToken,
  setLoginCookies,
  setSignupCookie,
  type CookieSettings,
} from './session-cookies';
import { revokeSession } from './sessions';
import type { Db } from '../../platform/db/connect';

export interface AuthRouteOptions {
  config: Config;
  auth: AuthService;
  db: Db;
  clock: Clock;
  cookies: CookieSettings;
  requireSession: RequireSession;
}

export const authRoutes: FastifyPluginAsyncTypebox<AuthRouteOptions> = async (app, options) => {
  const { auth, cookies, config, db, clock, requireSession } = options;
  const limited = publicRouteLimit(config);
  const tags = ['accounts'];

  app.post(API_ROUTES.signup, {
    config: limited,
    schema: {
      tags,
      summary:
        'Create an account; e-mails a confirmation code and sets the sign-up cookie the confirmation reads',
      body: SignupBody,
      response: { 200: MessageResponse, ...commonErrors },
    },
    handler: async (request, reply) => {
      const { message, signupToken } = await auth.signup(request.body);
      // Set on every answer, whatever the address: it tells nothing about the account.
      setSignupCookie(reply, cookies, signupToken);
      return { message };
    },
  });

  app.post(API_ROUTES.confirm, {
    config: limited,
    schema: {
      tags,
      summary:
        "Confirm an account with the e-mailed 6-digit code; the account takes the password of this browser's sign-up",
      body: ConfirmBody,
      response: { 200: MessageResponse, ...commonErrors },
    },
    handler: async (request, reply) => {
      const message = await auth.confirm(request.body, readSignupToken(request, cookies));
      clearSignupCookie(reply, cookies);
      return { message };
    },
  });

  app.post(API_ROUTES.resendConfirm, {
    config: limited,
    schema: {
      tags,
      summary:
        'E-mail the confirmation code again (the live one; a new one when it is used up or expired)',
      body: UsernameBody,
      response: { 200: MessageResponse, ...commonErrors },
    },
    handler: async (request) => ({ message: await auth.resendConfirmation(request.body) }),
  });

  app.post(API_ROUTES.login, {
    config: limited,
    schema: {
      tags,
      summary: 'Log in; sets the session cookie and the login marker cookie',
      body: LoginBody,
      response: { 200: MessageResponse, 401: ErrorResponse, 403: ErrorResponse, ...commonErrors },
    },
    handler: async (request, reply) => {
      const { token, email } = await auth.login(request.body);
      setLoginCookies(reply, cookies, token, email);
      return { message: MESSAGES.loginSucceeded };
    },
  });

  app.post(API_ROUTES.forgotPassword, {
    config: limited,
    schema: {
      tags,
      summary: 'E-mail a password reset link',
      body: UsernameBody,
      response: { 200: MessageResponse, ...commonErrors },
    },
    handler: async (request) => ({ message: await auth.forgotPassword(request.body) }),
  });

  app.post(API_ROUTES.resetPassword, {
    config: limited,
    schema: {
      tags,
      summary: 'Set a new password with the e-mailed reset id; ends every session',
      body: ResetPasswordBody,
      response: { 200: MessageResponse, ...commonErrors },
    },
    handler: async (request) => ({ message: await auth.resetPassword(request.body) }),
  });

  app.get(API_ROUTES.logout, {
    preHandler: requireSession,
    schema: {
      tags,
      summary: 'Log out: ends the session on the server and clears the cookies',
      response: { 200: MessageResponse, 401: ErrorResponse, ...commonErrors },
    },
    handler: async (request, reply) => {
      if (request.sessionUser)
        await revokeSession(db, request.sessionUser.sessionIdHash, clock.now());
      clearLoginCookies(reply, cookies);
      return { message: MESSAGES.loggedOut };
    },
  });
};
