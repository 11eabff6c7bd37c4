// The server side of the endpoint contract: a handler registered from ENDPOINTS gets its request
// typed from the endpoint and must answer the endpoint's response type. The `@ts-expect-error`
// lines are the test (npm run typecheck fails if any of them compiles); the runtime part checks
// that the route Fastify builds is the one declared.
import Fastify from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ENDPOINTS,
  ERROR_CODES,
  ErrorResponse,
  type AnswerPatch,
  type TabsBody,
} from '@admissions/api-contract';
import {
  buildEndpointResponses,
  registerEndpoint,
  type EndpointApp,
} from '../src/platform/http/register-endpoint';
import { provideAccessGuard, registerAccessControl } from '../src/platform/http/access';
import { AppError } from '../src/platform/lib/app-error';

// Never called: compiled only.
export function wrongUsesDoNotCompile(app: EndpointApp): void {
  registerEndpoint(app, ENDPOINTS.saveAnswers, {
    // @ts-expect-error PUT /api/answer answers { message }, not a list
    handler: async (request) => {
      expectTypeOf(request.body).toEqualTypeOf<AnswerPatch>();
      return [request.body];
    },
  });
  registerEndpoint(app, ENDPOINTS.chooseTab, {
    handler: async (request) => {
      expectTypeOf(request.body).toEqualTypeOf<TabsBody>();
      // @ts-expect-error the body is { tab_id, chosen_tab }: there is no `tab`
      return { message: request.body.tab };
    },
  });
  registerEndpoint(app, ENDPOINTS.readConversion, {
    // @ts-expect-error the status is one of CONVERSION_STATUSES
    handler: async (request) => {
      return { status: 'DONE', message: request.params.key };
    },
  });
  // @ts-expect-error PUT /api/answer is a PUT
  const method: 'POST' = ENDPOINTS.saveAnswers.method;
  void method;
  // @ts-expect-error an error code outside ERROR_CODES
  void new AppError('NO_SUCH_CODE', 'message');
  // @ts-expect-error the status comes from the table, not from the call
  void new AppError(401, 'SESSION_INVALID', 'message');
  // @ts-expect-error a code without a message of its own needs one
  void new AppError('LOGIN_FAILED');
  // @ts-expect-error SESSION_INVALID is a 401 and nothing else
  void new AppError('SESSION_INVALID', undefined, { status: 403 });
}

describe('registerEndpoint', () => {
  it('registers the declared method and path, and answers through the declared schemas', async () => {
    const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
    registerAccessControl(app);
    // Every caller passes here: this test is about the schemas (access-matrix.test.ts is about access).
    provideAccessGuard(app, 'applicant', async () => {});
    registerEndpoint(app, ENDPOINTS.chooseTab, {
      handler: async (request) => ({ message: `chose ${request.body.chosen_tab}` }),
    });
    await app.ready();
    expect(app.hasRoute({ method: 'PUT', url: '/api/tabs' })).toBe(true);
    expect(app.hasRoute({ method: 'POST', url: '/api/tabs' })).toBe(false);
    const ok = await app.inject({
      method: 'PUT',
      url: '/api/tabs',
      payload: { tab_id: 'a', chosen_tab: 'b' },
    });
    expect(ok.json()).toEqual({ message: 'chose b' });
    const refused = await app.inject({ method: 'PUT', url: '/api/tabs', payload: { tab: 'a' } });
    expect(refused.statusCode).toBe(400);
    await app.close();
  });

  it('will not start with a route whose declared access no module guards', async () => {
    const app = Fastify().withTypeProvider<TypeBoxTypeProvider>();
    registerAccessControl(app);
    registerEndpoint(app, ENDPOINTS.chooseTab, {
      handler: async () => ({ message: 'never' }),
    });
    await expect(app.ready()).rejects.toThrow('no guard for routes of applicant access');
  });

  it('will not register a route without declared access', async () => {
    const app = Fastify();
    registerAccessControl(app);
    expect(() => app.get('/undeclared', async () => ({}))).toThrow(
      'GET /undeclared declares no access',
    );
    await app.close();
  });

  it("documents each error code's status with the error body, and submit's 422 with its errors", () => {
    const responses = buildEndpointResponses(ENDPOINTS.submit);
    expect(Object.keys(responses).map(Number).sort()).toEqual(
      [
        200,
        ...new Set(ENDPOINTS.submit.errors.map((code) => ERROR_CODES[code].status as number)),
      ].sort(),
    );
    expect(responses[401]).toBe(ErrorResponse);
    expect(responses[422]).toBe(ENDPOINTS.submit.errorBodies[422]);
  });

  it('gives an AppError the status and message of its code', () => {
    const error = new AppError('SESSION_INVALID');
    expect([error.statusCode, error.code, error.message]).toEqual([
      401,
      'SESSION_INVALID',
      ERROR_CODES.SESSION_INVALID.message,
    ]);
    expect(new AppError('UPLOAD_USED', undefined, { status: 403 }).statusCode).toBe(403);
  });
});
