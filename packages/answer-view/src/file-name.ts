// `@admissions/answer-view/file-name`: the one name an application's PDF has wherever it is
// handed out — the applicant's download link, the staff download and the batch export (its files,
// zip entries and index). `lastname_firstname_<application id>.pdf` from ASCII letters, digits,
// `-` and `_` only, so it is safe in a header, in a zip, on every file system and in the records
// systems that import it. A subpath of its own: the transliteration table (~0.5 MB) stays out of
// the SPA.
import anyAscii from 'any-ascii';
import { APPLICANT_NAME_KEYS } from '@admissions/form';

const MAX_PART = 40;

/**
 * One part of the file name: the name transliterated as a reader of the file list expects
 * (Søren → soren, Straße → strasse, Дмитрий → dmitriy, 王小明 → wangxiaoming), apostrophes dropped,
 * every other run of characters one `-`, lowercase, at most 40 characters. Never `_` (the
 * separator), `.`, `/` or `\`, so "../../etc" becomes "etc".
 */
export function safeNamePart(value: string): string {
  return anyAscii(value.normalize('NFC'))
    .replace(/['`]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, MAX_PART)
    .replace(/-+$/, '');
}

/** The id is ours (a UUID), but it is checked anyway: it ends up in a path. */
function safeId(id: string): string {
  const cleaned = id.toLowerCase().replace(/[^a-z0-9-]/g, '');
  if (cleaned === '') throw new Error('an application id must not be empty');
  return cleaned;
}

/**
 * `lastname_firstname_<id>.pdf` from the applicant's name answers (only the name keys are read);
 * a part with nothing left after cleaning is left out.
 */
export function applicationPdfFileName(
  answers: Readonly<Record<string, string | null | undefined>>,
  applicationId: string,
): string {
  const parts = [APPLICANT_NAME_KEYS.last, APPLICANT_NAME_KEYS.first]
    .map((key) => safeNamePart(answers[key] ?? ''))
    .filter((part) => part !== '');
  return `${[...parts, safeId(applicationId)].join('_')}.pdf`;
}
