// Where the documents module keeps its objects in storage, and the policy of an upload link.
// Keys are built only here, from the application's id, a known question key and randomness, so a
// key names its application and question (platform/storage checks only that a key stays in its
// root). Keys from before rounds name the applicant's id, which is their application's id: the
// rows keep the full key, so they read as before.
import { randomBytes } from 'node:crypto';
import { API_ROUTES, DOCUMENT_MESSAGES } from '@admissions/api-contract';
import { MAX_FILE_SIZE_BYTES, MESSAGES as FORM_MESSAGES } from '@admissions/form';
import type { UploadMessages, UploadPolicy } from '../../platform/storage/storage-driver';

/** Uploaded files as the applicant sent them, and the PDFs they were converted to. */
export const UPLOAD_PREFIX = 'uploads/';
export const DOCUMENT_PREFIX = 'documents/';

/** Every upload link: 1 byte to 1 MB (docs/validation.md), valid for at most 10 minutes. */
export const UPLOAD_POLICY: UploadPolicy = {
  minBytes: 1,
  maxBytes: MAX_FILE_SIZE_BYTES,
  expiresInSeconds: 600,
};

/** What the local upload endpoint answers when it refuses a file (docs/validation.md wording). */
export const UPLOAD_MESSAGES: UploadMessages = {
  refused: DOCUMENT_MESSAGES.uploadRefused,
  expired: DOCUMENT_MESSAGES.uploadExpired,
  used: DOCUMENT_MESSAGES.uploadUsed,
  released: DOCUMENT_MESSAGES.uploadReleased,
  tooLarge: FORM_MESSAGES.fileTooLarge,
  empty: FORM_MESSAGES.fileEmpty,
};

/** The local store's upload endpoint, as boot hands it to platform/storage (S3 presigns its own). */
export const LOCAL_UPLOAD = {
  path: API_ROUTES.storageUpload,
  policy: UPLOAD_POLICY,
  messages: UPLOAD_MESSAGES,
} as const;

export function createUploadKey(applicationId: string, answerKey: string): string {
  return `${UPLOAD_PREFIX}${applicationId}/${answerKey}/${randomBytes(18).toString('base64url')}`;
}

export function createDocumentKey(applicationId: string, answerKey: string): string {
  return `${DOCUMENT_PREFIX}${applicationId}/${answerKey}/${randomBytes(18).toString('base64url')}.pdf`;
}

/** A converted document's first-page thumbnail, stored beside its PDF under the same name. */
export function createThumbnailKey(pdfKey: string): string {
  return pdfKey.replace(/\.pdf$/, '.png');
}
