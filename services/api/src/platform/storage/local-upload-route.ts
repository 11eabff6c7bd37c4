// The local driver's stand-in for S3's POST endpoint: multipart, fields first, the file last,
// streamed to disk with a hard byte limit; the signed policy decides what may be uploaded, and
// the database that a link uploads once.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse, commonErrors } from '@admissions/api-contract';
import { AppError, isAppError } from '../lib/app-error';
import type { LocalStorage, PolicyProblem } from './local-storage';
import type { UploadMessages, UploadPolicy } from './storage-driver';
import { registerRoute } from '../http/access';

class TooLarge extends Error {}

const problemMessage = (problem: PolicyProblem, messages: UploadMessages): string =>
  problem === 'expired' ? messages.expired : messages.refused;

/** The database's record of which links have been used (document_uploads). */
export interface UploadReceipts {
  /**
   * 'claimed' for the first upload to a live link, never again (atomic); 'released' for a link a
   * newer one replaced or whose file was refused; 'used' otherwise.
   */
  claim(key: string): Promise<'claimed' | 'used' | 'released'>;
  record(key: string, bytes: number): Promise<void>;
  /** An upload that stored nothing releases its link: it no longer counts as in progress. */
  release(key: string): Promise<void>;
}

export const localUploadRoute: FastifyPluginAsyncTypebox<{
  storage: LocalStorage;
  receipts: UploadReceipts;
  /** The path the store's presigned posts name (createStorage's uploadUrl). */
  path: string;
  /** The owning module's limits (the signed policy repeats them per link) and wording. */
  policy: UploadPolicy;
  messages: UploadMessages;
}> = async (app, { storage, receipts, path: uploadPath, policy: uploadPolicy, messages }) => {
  // Registered in this plugin only: every other route keeps accepting JSON alone.
  await app.register(multipart, {
    limits: {
      fields: 8,
      fieldSize: 4096,
      files: 1,
      parts: 9,
      fileSize: uploadPolicy.maxBytes,
      headerPairs: 20,
    },
  });

  // Public: the signed upload policy of the form is the credential (checked below).
  registerRoute(
    app,
    { kind: 'public' },
    {
      method: 'POST',
      url: uploadPath,
      bodyLimit: uploadPolicy.maxBytes + 64 * 1024,
      // Not under an API prefix of http/security.ts, but an API answer all the same (docs/design-decisions.md, 11).
      onSend: async (_request, reply) => {
        reply.header('cache-control', 'no-store');
      },
      schema: {
        tags: ['documents'],
        summary: 'Presigned-POST upload endpoint of the local storage driver (S3-compatible form)',
        consumes: ['multipart/form-data'],
        response: {
          204: { type: 'null' },
          403: ErrorResponse,
          413: ErrorResponse,
          ...commonErrors,
        },
      },
      handler: async (request, reply) => {
        if (!request.isMultipart()) {
          throw new AppError('NOT_MULTIPART', messages.refused);
        }
        const fields: Record<string, string> = {};
        let stored = false;
        try {
          stored = await receive();
        } catch (error) {
          // busboy and @fastify/multipart throw plain errors for a form that is not well-formed
          // multipart (no boundary, a broken header, the end missing) or breaks a part limit: the
          // client's fault (400, or 413 for size), not ours. Disk errors (errno set) stay 500s.
          // Found by the security fuzz suite.
          if (isAppError(error) || typeof (error as { errno?: unknown }).errno === 'number') {
            throw error;
          }
          request.log.info({ err: error }, 'upload form refused');
          const status = (error as { statusCode?: number }).statusCode;
          throw status === 413
            ? new AppError('UPLOAD_TOO_LARGE', messages.tooLarge)
            : new AppError('UPLOAD_FORM', messages.refused);
        }
        if (!stored) throw new AppError('UPLOAD_NO_FILE', messages.empty);
        return reply.code(204).send();

        async function receive(): Promise<boolean> {
          for await (const part of request.parts()) {
            if (part.type === 'field') {
              if (typeof part.value === 'string') fields[part.fieldname] = part.value;
              continue;
            }
            if (part.fieldname !== 'file' || stored) {
              part.file.resume();
              throw new AppError('UPLOAD_FORM', messages.refused);
            }
            // As with S3, the policy fields come before the file and are checked before it is read.
            const verdict = storage.verifyPolicy(fields);
            if ('problem' in verdict) {
              part.file.resume();
              throw new AppError('UPLOAD_POLICY', problemMessage(verdict.problem, messages));
            }
            const { policy } = verdict;
            // Once per link, decided before a byte is stored (S3 cannot say this; see README).
            const claim = await receipts.claim(policy.key);
            if (claim !== 'claimed') {
              part.file.resume();
              const message = claim === 'released' ? messages.released : messages.used;
              throw new AppError('UPLOAD_USED', message, { status: 403 });
            }
            const temp = path.join(await storage.tempDir(), randomBytes(12).toString('hex'));
            let bytes = 0;
            const counter = new Transform({
              transform(chunk: Buffer, _encoding, callback) {
                bytes += chunk.length;
                if (bytes > policy.maxBytes) callback(new TooLarge());
                else callback(null, chunk);
              },
            });
            try {
              await pipeline(
                part.file,
                counter,
                createWriteStream(temp, { flags: 'wx', mode: 0o600 }),
              );
              if (part.file.truncated) throw new TooLarge();
              if (bytes < policy.minBytes) {
                throw new AppError('UPLOAD_EMPTY', messages.empty);
              }
              await storage.commitUpload(policy.key, temp);
              await receipts.record(policy.key, bytes);
              stored = true;
            } catch (error) {
              await rm(temp, { force: true });
              await receipts.release(policy.key);
              const code = (error as { code?: string }).code;
              if (error instanceof TooLarge || code === 'FST_REQ_FILE_TOO_LARGE') {
                throw new AppError('UPLOAD_TOO_LARGE', messages.tooLarge);
              }
              throw error;
            }
          }
          return stored;
        }
      },
    },
  );
};
