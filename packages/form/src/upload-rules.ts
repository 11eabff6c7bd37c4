// docs/validation.md file rules, checked in the browser before uploading and again by the server (which also
// checks the content itself, docs/design-decisions.md, 10).
import { MESSAGES } from './messages';

export const MAX_FILE_SIZE_BYTES = 1024 * 1024;
export const MAX_FILE_NAME_LENGTH = 32;
export const ALLOWED_FILE_EXTENSIONS: readonly string[] = ['png', 'jpeg', 'jpg', 'pdf', 'docx'];

export interface UploadCandidate {
  name: string;
  /** Bytes. */
  size: number;
}

export function validateUploadFile({ name, size }: UploadCandidate): string[] {
  const messages: string[] = [];
  const extension = name.includes('.') ? (name.split('.').at(-1) ?? '').toLowerCase() : '';
  if (!ALLOWED_FILE_EXTENSIONS.includes(extension)) messages.push(MESSAGES.fileType);
  if ([...name].length > MAX_FILE_NAME_LENGTH) messages.push(MESSAGES.fileNameTooLong);
  if (size <= 0) messages.push(MESSAGES.fileEmpty);
  else if (size > MAX_FILE_SIZE_BYTES) messages.push(MESSAGES.fileTooLarge);
  return messages;
}
