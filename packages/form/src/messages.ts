// Every applicant-facing validation message of docs/validation.md, word for word. Messages that are a
// question's label live with the question in the definition instead.

export const MINIMUM_AGE = 13;
export const BIRTH_DATE_MAX_YEARS = 100;
export const EFFECTIVE_DATE_YEARS_BEFORE = 4;
export const EFFECTIVE_DATE_YEARS_AFTER = 3;
export const ZIP_MIN_LENGTH = 5;
export const TEXT_MAX_LENGTH = 45;
export const TEXTAREA_MAX_LENGTH = 1500;
export const ADD_ANOTHER_MAX = 10;
export const ADD_ANOTHER_DEFAULT = 1;

export const MESSAGES = {
  phoneHomeInvalid: 'Please enter a valid home phone number.',
  phoneMobileInvalid: 'Please enter a valid cell phone number.',
  phoneRequired:
    'A valid home phone number, cell phone number, or international phone number is required.',
  phoneMobileForSms: 'A cell phone number is required to receive text message updates.',
  birthDateInvalid: 'A valid date of birth is required.',
  birthDateTooOld: 'This date is not supported. Please contact help support for assistance.',
  /** `{n}` is the minimum age. */
  birthDateTooYoung: 'You must be {n} years or older to apply.',
  zipTooShort: `ZIP/Postal Code must be at least ${ZIP_MIN_LENGTH} characters.`,
  dateInvalid: 'Please enter a valid date.',
  ssnInvalid: 'Please enter a valid Social Security number.',
  counselorEmailInvalid: 'The counselor email address you entered is invalid.',
  emailInvalid: 'Please enter a valid email address.',
  businessStatement:
    'Please upload or write a statement of about 250 words explaining why you want to pursue the accelerated three-year business track.',
  optionInvalid: 'Please choose one of the listed options.',
  monthYearIncomplete: 'Please choose both a month and a year.',
  fileTooLarge: 'Your file is too large. The maximum file size is 1 MB.',
  fileType: 'You can only enter the following file types: .png, .jpeg, .jpg, .pdf, .docx',
  fileNameTooLong: 'Your file name must be 32 characters or fewer, including the extension.',
  fileEmpty: 'Your file is empty. Please upload a non-empty file.',
} as const;

export function minimumYearMessage(year: number): string {
  return `The minimum supported year is ${year}.`;
}

export function maximumYearMessage(year: number): string {
  return `The maximum supported year is ${year}.`;
}

export function tooLongMessage(limit: number): string {
  return `Please use no more than ${limit} characters.`;
}

/** "Parent 1/Guardian 1: Please enter a valid phone number." and the parent 2 likewise. */
export function parentMessage(index: number, message: string): string {
  return `Parent ${index}/Guardian ${index}: ${message}`;
}

/**
 * Said under a text area when a paste did not fit: the browser keeps the first `limit`
 * characters and drops the rest without a word, and the applicant would not know their essay
 * lost its ending (issue 17).
 */
export function formatPasteCut(limit: number, left: number): string {
  return `Only the first ${limit} characters fit: the last ${left} characters you pasted were left out.`;
}

/** The text-area counter of docs/validation.md. */
export function formatCharacterCount(count: number, limit: number): string {
  return `Character count: ${count} / ${limit}`;
}
