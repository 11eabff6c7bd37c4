// A letter or a requested item travels as base64 inside the JSON body (issue #30: a recommender
// has no account for the presigned upload). The browser checks what it can before reading the
// file, with the server's own words; the server checks again and converts it.
import {
  CHECKLIST_FILE_TYPES,
  CHECKLIST_MESSAGES,
  type UploadedFile,
} from '@admissions/api-contract';

/** 1 MB of file: the server's bound (CHECKLIST_FILE_BASE64_MAX is this many bytes in base64). */
export const CHECKLIST_FILE_MAX_BYTES = 1024 * 1024;

/** The file chooser's filter: `.pdf,.docx`. */
export const CHECKLIST_FILE_ACCEPT = CHECKLIST_FILE_TYPES.map((type) => `.${type}`).join(',');

/** The rules shown beside a drop zone, from the same constants the check uses. */
export const CHECKLIST_FILE_RULES = `PDF or Word (${CHECKLIST_FILE_TYPES.map((type) => `.${type}`).join(', ')}) · up to 1 MB`;

/** The server's message for a file it would refuse by its name or size; null when it may go. */
export function checkChecklistFile(file: { name: string; size: number }): string | null {
  const extension = file.name.toLowerCase().split('.').pop() ?? '';
  if (!(CHECKLIST_FILE_TYPES as readonly string[]).includes(extension)) {
    return CHECKLIST_MESSAGES.fileTypeRefused;
  }
  if (file.size > CHECKLIST_FILE_MAX_BYTES) return CHECKLIST_MESSAGES.fileTooLarge;
  return null;
}

/** The file's name and its bytes as base64, for the JSON body. */
export function readChecklistFile(file: File): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      // A data URL: `data:<type>;base64,<bytes>`.
      const url = String(reader.result);
      resolve({ file_name: file.name, content_base64: url.slice(url.indexOf(',') + 1) });
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}
