import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ENDPOINTS, MESSAGES } from '@admissions/api-contract';
import type { Config } from '../../platform/config';
import { publicRouteLimit } from '../../platform/http/security';
import { registerEndpoint } from '../../platform/http/register-endpoint';
import type { Clock } from '../../platform/lib/clock';
import type { AuthService } from './auth-service';
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
}

export const authRoutes: FastifyPluginAsyncTypebox<AuthRouteOptions> = async (app, options) => {
  const { auth, cookies, config, db, clock } = options;
  const limited = publicRouteLimit(config);

  registerEndpoint(app, ENDPOINTS.signup, {
    config: limited,
    handler: async (request, reply) => {
      const { message, signupToken } = await auth.signup(request.body);
      // Set on every answer, whatever the address: it tells nothing about the account.
      setSignupCookie(reply, cookies, signupToken);
      return { message };
    },
  });

  registerEndpoint(app, ENDPOINTS.confirm, {
    config: limited,
    handler: async (request, reply) => {
      const message = await auth.confirm(request.body, readSignupToken(request, cookies));
      clearSignupCookie(reply, cookies);
      return { message };
    },
  });

  registerEndpoint(app, ENDPOINTS.resendConfirm, {
    config: limited,
    handler: async (request) => ({ message: await auth.resendConfirmation(request.body) }),
  });

  registerEndpoint(app, ENDPOINTS.login, {
    config: limited,
    handler: async (request, reply) => {
      const { token, email } = await auth.login(request.body);
      setLoginCookies(reply, cookies, token, email);
      return { message: MESSAGES.loginSucceeded };
    },
  });

  registerEndpoint(app, ENDPOINTS.forgotPassword, {
    config: limited,
    handler: async (request) => ({ message: await auth.forgotPassword(request.body) }),
  });

  registerEndpoint(app, ENDPOINTS.resetPassword, {
    config: limited,
    handler: async (request) => ({ message: await auth.resetPassword(request.body) }),
  });

  registerEndpoint(app, ENDPOINTS.logout, {
    handler: async (request, reply) => {
      if (request.sessionUser)
        await revokeSession(db, request.sessionUser.sessionIdHash, clock.now());
      clearLoginCookies(reply, cookies);
      return { message: MESSAGES.loggedOut };
    },
  });
};
