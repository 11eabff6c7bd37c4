// Local-disk storage under DATA_DIR/blobs. The API itself plays the part of S3's POST endpoint
// (local-upload-route.ts), so uploads carry a signed policy exactly like a presigned POST.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../lib/clock';
import {
  isValidStorageKey,
  StoredObjectTooLargeError,
  type StorageDriver,
  type StoredObject,
  type UploadPolicy,
} from './storage-driver';

// Applicants' files: readable by this service's user only, whatever the umask.
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/** The signed part of a local presigned POST. */
export interface LocalPolicy {
  key: string;
  minBytes: number;
  maxBytes: number;
  /** Issued and expiry times, epoch seconds. */
  iat: number;
  exp: number;
}

export type PolicyProblem = 'signature' | 'expired' | 'key' | 'malformed';

export interface LocalStorage extends StorageDriver {
  readonly kind: 'local';
  readonly root: string;
  /** Checks the policy and signature fields of an upload against the key it is for. */
  verifyPolicy(
    fields: Record<string, string>,
  ): { policy: LocalPolicy } | { problem: PolicyProblem };
  /** Stores an upload that was streamed to `tempFile` (renamed into place). */
  commitUpload(key: string, tempFile: string): Promise<void>;
  tempDir(): Promise<string>;
}

export function createLocalStorage(options: {
  dataDir: string;
  signingKey: Buffer;
  clock: Clock;
  /** Where localUploadRoute listens (boot registers both); a store opened without it presigns nothing. */
  uploadUrl?: string | undefined;
}): LocalStorage {
  const root = path.join(options.dataDir, 'blobs');
  const key = createHmac('sha256', options.signingKey).update('storage-policy-v1').digest();
  const sign = (policy: string) => createHmac('sha256', key).update(policy).digest('base64url');
  const fileOf = (storageKey: string) => {
    if (!isValidStorageKey(storageKey)) throw new Error('invalid storage key');
    return path.join(root, storageKey);
  };

  return {
    kind: 'local',
    root,
    async presignPost(storageKey: string, policy: UploadPolicy) {
      if (options.uploadUrl === undefined) throw new Error('this store has no upload route');
      const now = Math.floor(options.clock.now().getTime() / 1000);
      const signed: LocalPolicy = {
        key: storageKey,
        minBytes: policy.minBytes,
        maxBytes: policy.maxBytes,
        iat: now,
        exp: now + policy.expiresInSeconds,
      };
      const encoded = Buffer.from(JSON.stringify(signed)).toString('base64url');
      return {
        url: options.uploadUrl,
        fields: { key: storageKey, policy: encoded, signature: sign(encoded) },
      };
    },
    verifyPolicy(fields) {
      const { key: fieldKey, policy: encoded, signature } = fields;
      if (!fieldKey || !encoded || !signature) return { problem: 'malformed' };
      const expected = Buffer.from(sign(encoded));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        return { problem: 'signature' };
      }
      let policy: LocalPolicy;
      try {
        policy = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as LocalPolicy;
      } catch {
        return { problem: 'malformed' };
      }
      const now = options.clock.now().getTime() / 1000;
      // Never longer than 10 minutes, whatever the policy says.
      if (!(now < policy.exp) || policy.exp - policy.iat > 600) return { problem: 'expired' };
      if (policy.key !== fieldKey || !isValidStorageKey(policy.key)) return { problem: 'key' };
      return { policy };
    },
    async commitUpload(storageKey, tempFile) {
      const file = fileOf(storageKey);
      await mkdir(path.dirname(file), { recursive: true, mode: DIR_MODE });
      await chmod(tempFile, FILE_MODE);
      await rename(tempFile, file);
    },
    async tempDir() {
      const dir = path.join(root, 'tmp');
      await mkdir(dir, { recursive: true, mode: DIR_MODE });
      return dir;
    },
    async read(storageKey, maxBytes) {
      const file = fileOf(storageKey);
      try {
        const info = await stat(file);
        if (info.size > maxBytes) throw new StoredObjectTooLargeError(storageKey);
        return await readFile(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async write(storageKey, bytes) {
      const file = fileOf(storageKey);
      await mkdir(path.dirname(file), { recursive: true, mode: DIR_MODE });
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, bytes, { mode: FILE_MODE });
      await rename(temp, file);
    },
    async delete(storageKey) {
      await rm(fileOf(storageKey), { force: true });
    },
    list(prefix) {
      return listFiles(root, prefix);
    },
    async close() {},
  };
}

/** Files under root/prefix as storage keys; a half-written `.tmp` file is not an object yet. */
async function* listFiles(root: string, prefix: string): AsyncGenerator<StoredObject> {
  const pending = [path.join(root, prefix)];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        pending.push(full);
        continue;
      }
      const key = path.relative(root, full).split(path.sep).join('/');
      if (!entry.isFile() || !isValidStorageKey(key)) continue;
      try {
        yield { key, modifiedAt: (await stat(full)).mtime };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }
}
