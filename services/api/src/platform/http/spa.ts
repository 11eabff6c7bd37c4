import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { MESSAGES } from '@admissions/api-contract';
import { AppError, sendAppError } from '../lib/app-error';
import { isApiPath } from './security';
import { registerPublicPlugin, registerRoute } from './access';

/**
 * Serves the built SPA from the same origin as the API. Unknown GETs that want HTML get
 * index.html (history fallback); unknown API paths get a JSON 404.
 */
export async function registerSpa(app: FastifyInstance, webDist: string): Promise<void> {
  const hasBuild = existsSync(path.join(webDist, 'index.html'));
  if (hasBuild) {
    await registerPublicPlugin(app, () =>
      app.register(fastifyStatic, {
        root: webDist,
        // One route for every file (a route per file meant globbing the build and ~300 routes at
        // start); a file that is not there falls through to the not-found handler below.
        wildcard: true,
        index: false,
        // The build writes .br and .gz beside each text asset (apps/web/build-tools): sent as they
        // are to browsers that accept them, so nothing is compressed per request.
        preCompressed: true,
        // Our own Cache-Control below, not send's default max-age=0.
        cacheControl: false,
        setHeaders(res, filePath) {
          // The same URL answers in brotli, gzip or plain: shared caches must keep them apart.
          res.setHeader('vary', 'Accept-Encoding');
          // Vite fingerprints everything under assets/; the HTML must always be revalidated.
          res.setHeader(
            'cache-control',
            filePath.includes(`${path.sep}assets${path.sep}`)
              ? 'public, max-age=31536000, immutable'
              : 'no-cache',
          );
        },
      }),
    );
  }

  if (hasBuild) {
    // The root is a directory to the static plugin, which (with no index file configured) refuses
    // it, and that refusal reached the browser as a 500: the address the ready line prints is the
    // SPA's page like any other path without a file.
    registerRoute(
      app,
      { kind: 'public' },
      {
        method: 'GET',
        url: '/',
        schema: { hide: true },
        handler: (_request, reply) =>
          reply.header('cache-control', 'no-cache').sendFile('index.html'),
      },
    );
  }

  app.setNotFoundHandler((request, reply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !isApiPath(request.url) &&
      !request.url.startsWith('/docs');
    if (wantsPage && hasBuild) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    if (wantsPage) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web application has not been built yet. Run "npm run build" and restart.');
    }
    return sendAppError(reply, new AppError('NOT_FOUND', MESSAGES.notFound));
  });
}
