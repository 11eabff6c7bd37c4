import { describe, expect, it } from 'vitest';
import {
  formatCharacterCount,
  formatCheckbox,
  formatPhone,
  formatSsn,
  MESSAGES,
  validateUploadFile,
} from '../src';

describe('formatPhone as typed', () => {
  it.each([
    ['', ''],
    ['2', '(2'],
    ['217', '(217'],
    ['2175', '(217) 5'],
    ['217555', '(217) 555'],
    ['2175550', '(217) 555-0'],
    ['2175550100', '(217) 555-0100'],
    ['21755501009', '(217) 555-0100'],
    ['(217) 555-0100', '(217) 555-0100'],
    ['217.555.0100', '(217) 555-0100'],
    ['abc', ''],
  ])('%s → %s', (input, output) => {
    expect(formatPhone(input)).toBe(output);
  });
});

describe('formatSsn as typed', () => {
  it.each([
    ['', ''],
    ['123', '123'],
    ['1234', '123-4'],
    ['12345', '123-45'],
    ['123456', '123-45-6'],
    ['123456789', '123-45-6789'],
    ['1234567890', '123-45-6789'],
    ['123-45-6789', '123-45-6789'],
  ])('%s → %s', (input, output) => {
    expect(formatSsn(input)).toBe(output);
  });
});

describe('display strings', () => {
  it.each([
    ['true', '[X]'],
    [true, '[X]'],
    ['false', '[ ]'],
    ['', '[ ]'],
    [undefined, '[ ]'],
  ])('%o → %s', (value, display) => {
    expect(formatCheckbox(value)).toBe(display);
  });

  it('writes the text-area counter', () => {
    expect(formatCharacterCount(12, 7000)).toBe('Character count: 12 / 7000');
  });
});

describe('validateUploadFile', () => {
  const MB = 1024 * 1024;
  it.each([
    [{ name: 'essay.docx', size: 2000 }, []],
    [{ name: 'scan.JPG', size: MB }, []],
    [{ name: 'scan.png', size: MB + 1 }, [MESSAGES.fileTooLarge]],
    [{ name: 'empty.pdf', size: 0 }, [MESSAGES.fileEmpty]],
    [{ name: 'essay.doc', size: 10 }, [MESSAGES.fileType]],
    [{ name: 'README', size: 10 }, [MESSAGES.fileType]],
    [{ name: `${'a'.repeat(27)}.docx`, size: 10 }, []],
    [{ name: `${'a'.repeat(28)}.docx`, size: 10 }, [MESSAGES.fileNameTooLong]],
  ])('%o', (file, expected) => {
    expect(validateUploadFile(file)).toEqual(expected);
  });

  it('uses the documented wording', () => {
    expect(MESSAGES.fileTooLarge).toBe('Your file is too large. The maximum file size is 1 MB.');
    expect(MESSAGES.fileType).toBe(
      'You can only enter the following file types: .png, .jpeg, .jpg, .pdf, .docx',
    );
  });
});
