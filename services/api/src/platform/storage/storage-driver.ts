import { randomBytes } from 'node:crypto';
import { MAX_FILE_SIZE_BYTES } from '@admissions/form';

/** What the browser needs to upload one file: POST `fields` then the file, as multipart, to `url`. */
export interface PresignedPost {
  url: string;
  fields: Record<string, string>;
}

export interface UploadPolicy {
  minBytes: number;
  maxBytes: number;
  expiresInSeconds: number;
}

/** Every upload link: 1 byte to 1 MB (docs/validation.md), valid for at most 10 minutes. */
export const UPLOAD_POLICY: UploadPolicy = {
  minBytes: 1,
  maxBytes: MAX_FILE_SIZE_BYTES,
  expiresInSeconds: 600,
};

export type StoragePrefix = 'uploads/' | 'documents/' | 'applications/';

export interface StoredObject {
  key: string;
  modifiedAt: Date;
}

export class StoredObjectTooLargeError extends Error {
  constructor(readonly key: string) {
    super(`stored object ${key} is larger than allowed`);
    this.name = 'StoredObjectTooLargeError';
  }
}

/**
 * Where uploaded files and converted PDFs live. Local disk by default (the API serves the
 * presigned-POST endpoint itself), or any S3-compatible store.
 */
export interface StorageDriver {
  readonly kind: 'local' | 's3';
  presignPost(key: string, policy: UploadPolicy): Promise<PresignedPost>;
  /** The object's bytes, null when it does not exist; StoredObjectTooLargeError past maxBytes. */
  read(key: string, maxBytes: number): Promise<Uint8Array | null>;
  write(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every object under a prefix (`uploads/`, `documents/`), with when it was last written. */
  list(prefix: StoragePrefix): AsyncIterable<StoredObject>;
  close(): Promise<void>;
}

// Keys are built only here, from the session's user id, a known question key and randomness, so a
// key names its owner and question and can never climb out of the storage root.
const KEY_PATTERN =
  /^(uploads|documents|applications)\/[0-9a-f-]{36}\/[a-z0-9_]{1,100}\/[A-Za-z0-9_-]{22,64}(\.pdf|\.png)?$/;

export function isValidStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function createUploadKey(userId: string, answerKey: string): string {
  return `uploads/${userId}/${answerKey}/${randomBytes(18).toString('base64url')}`;
}

export function createDocumentKey(userId: string, answerKey: string): string {
  return `documents/${userId}/${answerKey}/${randomBytes(18).toString('base64url')}.pdf`;
}

/** A converted document's first-page thumbnail, stored beside its PDF under the same name. */
export function createThumbnailKey(pdfKey: string): string {
  return pdfKey.replace(/\.pdf$/, '.png');
}

/** A generated application PDF (`audience` is applicant or service). */
export function createApplicationPdfKey(userId: string, audience: string): string {
  return `applications/${userId}/${audience}/${randomBytes(18).toString('base64url')}.pdf`;
}

/** The owner and question a key was issued for (null when it is not one of ours). */
export function parseStorageKey(key: string): { userId: string; answerKey: string } | null {
  if (!isValidStorageKey(key)) return null;
  const [, userId, answerKey] = key.split('/');
  return userId && answerKey ? { userId, answerKey } : null;
}
