import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** 256-bit opaque token (sessions, reset ids), URL-safe. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A 6-digit code from the CSPRNG, zero-padded. */
export function generateCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/** High-entropy tokens are stored only as their SHA-256, so a database leak grants nothing. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Low-entropy secrets (6-digit codes) are keyed, so a leaked table cannot be brute-forced offline. */
export function hmac(secret: Buffer, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex');
}

export function safeEqualHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface Secrets {
  /** HMAC key for codes. */
  hmacKey: Buffer;
  /** AES-256-GCM key for data at rest (queued e-mails now; SSN later). */
  encryptionKey: Buffer;
  /** HMAC-SHA256 key that signs staff service tokens (docs/design-decisions.md, 9). */
  serviceTokenKey: Buffer;
  /** HMAC-SHA256 key that signs the short-lived application PDF download links. */
  downloadLinkKey: Buffer;
}

function deriveSecrets(master: Buffer): Secrets {
  const derive = (label: string) => createHmac('sha256', master).update(label).digest();
  // One key per purpose, so a signature made for one can never be replayed as another.
  return {
    hmacKey: derive('hmac-v1'),
    encryptionKey: derive('aes-gcm-v1'),
    serviceTokenKey: derive('service-token-v1'),
    downloadLinkKey: derive('pdf-link-v1'),
  };
}

/**
 * The configured SECRET_KEY, or the embedded default's key file under DATA_DIR, created once
 * with 0600 permissions.
 */
export async function loadSecrets(secretKey: string | null, dataDir: string): Promise<Secrets> {
  if (secretKey) return deriveSecrets(Buffer.from(secretKey, 'utf8'));
  const file = path.join(dataDir, 'secret.key');
  try {
    return deriveSecrets(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const master = randomBytes(32);
  await writeFile(file, master.toString('base64'), { mode: 0o600, flag: 'wx' }).catch(
    async (error: NodeJS.ErrnoException) => {
      // Another process created it first: use theirs.
      if (error.code !== 'EEXIST') throw error;
    },
  );
  await chmod(file, 0o600);
  return deriveSecrets(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64'));
}

export function seal(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

export function unseal(key: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
