// Converters and the LibreOffice pool, with the real LibreOffice, pdf-lib and poppler.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { MESSAGES as FORM_MESSAGES } from '@admissions/form';
import { DOCUMENT_MESSAGES } from '@admissions/api-contract';
import {
  createOfficePool,
  type OfficePool,
} from '../src/modules/documents/conversion/libreoffice/office-pool';
import type { DocumentConverter } from '../src/modules/documents/conversion/convert-document';
import { startConverterStack, type ConverterStack } from './support/converter-stack';
import { DocumentRejectedError } from '../src/modules/documents/conversion/conversion-errors';
import { canPassPngThrough } from '../src/modules/documents/conversion/convert-image';
import { DOCX_IMPORT_FILTER } from '../src/modules/documents/conversion/convert-docx';
import { DOCX_NOTES } from '../src/modules/documents/conversion/check-docx';
import {
  buildLocalLinkDocx,
  buildMacroDocx,
  buildMarkedJpeg,
  buildPdf,
  buildPng,
  buildSlowDocx,
  buildTwoPageDocx,
  buildZipBombDocx,
  encryptPdf,
  withExif,
} from './support/document-fixtures';
import {
  extractFirstImage,
  findRedBox,
  pdfPageCount,
  pdfText,
  processExists,
  renderFirstPage,
} from './support/pdf-inspect';

const TIMEOUT_MS = 2500;
const logger = pino({ level: 'silent' });

async function rejection(promise: Promise<unknown>): Promise<DocumentRejectedError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DocumentRejectedError) return error;
    throw error;
  }
  throw new Error('expected the document to be rejected');
}

describe('LibreOffice work directories', () => {
  it('a new pool removes the directories of pools whose process died, and nothing else', async () => {
    const workDir = mkdtempSync(path.join(os.tmpdir(), 'conversion-dirs-'));
    // The pid of a process that has exited: a worker killed with -9 left this one behind.
    const dead = spawnSync('true').pid!;
    const leftBy = (name: string, owner?: number) => {
      mkdirSync(path.join(workDir, name, 'office-1', 'profile'), { recursive: true });
      if (owner !== undefined) writeFileSync(path.join(workDir, name, 'owner.pid'), String(owner));
    };
    leftBy('office-pool-killed', dead);
    leftBy('office-pool-running', process.pid);
    leftBy('office-pool-unowned');
    const pool = createOfficePool({
      size: 1,
      timeoutMs: TIMEOUT_MS,
      recycleAfter: 3,
      workDir,
      logger,
    });
    try {
      await pool.warm();
      const names = readdirSync(workDir);
      expect(names).not.toContain('office-pool-killed');
      expect(names).toContain('office-pool-running');
      expect(names).toContain('office-pool-unowned');
    } finally {
      await pool.close();
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});

describe('document conversion', () => {
  let pool: OfficePool;
  let converter: DocumentConverter;
  let stack: ConverterStack;

  beforeAll(async () => {
    stack = await startConverterStack({
      name: 'conversion-test',
      timeoutMs: TIMEOUT_MS,
      recycleAfter: 3,
      logger,
    });
    ({ pool, converter } = stack);
  });
  afterAll(async () => {
    await stack.close();
  });

  it('converts a two-page docx whose text pdftotext finds', async () => {
    const { type, pdf } = await converter.convert({
      bytes: buildTwoPageDocx(),
      fileName: 'statement.docx',
    });
    expect(type).toBe('docx');
    expect(pdfPageCount(pdf)).toBe(2);
    const text = pdfText(pdf);
    expect(text).toContain('Personal statement of Ada Lovelace');
    expect(text).toContain('Second page: thank you for reading my statement.');
  });

  it('recycles a process after its quota and keeps converting', async () => {
    const before = pool.pids();
    for (let i = 0; i < 4; i++) {
      const { pdf } = await converter.convert({ bytes: buildTwoPageDocx(), fileName: 'a.docx' });
      expect(pdfText(pdf)).toContain('Ada Lovelace');
    }
    const after = pool.pids();
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
    for (const pid of before) expect(processExists(pid)).toBe(false);
  });

  it('turns a JPEG with EXIF orientation 6 upright and fits it to the page', async () => {
    // Stored 300×150 (landscape) with the red block top-left; orientation 6 means "rotate 90°
    // clockwise to display", so upright it is 150×300 (portrait) with the block top-right.
    const jpeg = withExif(await buildMarkedJpeg(300, 150), 6);
    const { type, pdf } = await converter.convert({ bytes: jpeg, fileName: 'photo.jpg' });
    expect(type).toBe('jpeg');
    const page = renderFirstPage(pdf, 72);
    expect(page.width).toBe(612);
    expect(page.height).toBe(792);
    const red = findRedBox(page)!;
    expect(red).not.toBeNull();
    // The image (150×300 pt) is centred: x 231..381, y 246..546. The block is its top-right third.
    expect(red.minX).toBeGreaterThan(306 - 5);
    expect(red.maxX).toBeLessThan(381 + 3);
    expect(red.minY).toBeLessThan(246 + 5);
    expect(red.maxY).toBeLessThan(246 + 100 + 5);
  });

  it('leaves a JPEG without orientation as it is', async () => {
    const { pdf } = await converter.convert({
      bytes: await buildMarkedJpeg(300, 150),
      fileName: 'photo.jpeg',
    });
    const red = findRedBox(renderFirstPage(pdf, 72))!;
    // 300×150 centred: x 156..456, y 321..471; block top-left third.
    expect(red.minX).toBeLessThan(156 + 5);
    expect(red.maxX).toBeLessThan(156 + 100 + 5);
    expect(red.minY).toBeLessThan(321 + 5);
  });

  it('passes an RGB PNG through losslessly and falls back to embedPng for alpha', async () => {
    const pattern = (x: number, y: number): [number, number, number] =>
      x < 40 && y < 20 ? [255, 0, 0] : [(x * 7) % 256, (y * 13) % 256, 200];
    const png = buildPng(120, 60, pattern);
    expect(canPassPngThrough(png)).toBe(true);
    const { pdf } = await converter.convert({ bytes: png, fileName: 'scan.png' });
    // The image inside the PDF is the PNG's pixels exactly (pdfimages decodes what is stored).
    const image = extractFirstImage(pdf);
    expect([image.width, image.height]).toEqual([120, 60]);
    let mismatches = 0;
    for (let y = 0; y < 60; y++) {
      for (let x = 0; x < 120; x++) {
        if (image.at(x, y).join() !== pattern(x, y).join()) mismatches++;
      }
    }
    // And it is placed the right way up: the red block at the top left of the centred image.
    expect(findRedBox(renderFirstPage(pdf, 72))).toMatchObject({ minX: 246, minY: 366 });
    expect(mismatches).toBe(0);

    const withAlpha = buildPng(20, 10, pattern, { alpha: true });
    expect(canPassPngThrough(withAlpha)).toBe(false);
    const converted = await converter.convert({ bytes: withAlpha, fileName: 'alpha.png' });
    expect(pdfPageCount(converted.pdf)).toBe(1);
  });

  it('keeps the pages and text of a PDF (stored as an inert copy, see conversion-pdf.test.ts)', async () => {
    const source = await buildPdf('Transcript of records');
    const { type, pdf } = await converter.convert({ bytes: source, fileName: 'records.pdf' });
    expect(type).toBe('pdf');
    expect(pdfPageCount(pdf)).toBe(1);
    expect(pdfText(pdf)).toContain('Transcript of records');
  });

  it.each([
    [
      'an exe renamed .pdf',
      'setup.pdf',
      () => Buffer.from('MZ\x90\x00\x03\x00\x00\x00This program cannot be run in DOS mode'),
      FORM_MESSAGES.fileType,
    ],
    [
      'HTML renamed .png',
      'picture.png',
      () => Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
      FORM_MESSAGES.fileType,
    ],
    ['an empty file', 'empty.docx', () => Buffer.alloc(0), FORM_MESSAGES.fileEmpty],
    [
      'a 1,048,577-byte file',
      'big.pdf',
      () => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1_048_577 - 9, 0x20)]),
      FORM_MESSAGES.fileTooLarge,
    ],
    [
      'a 33-character name',
      `${'a'.repeat(28)}.docx`,
      () => buildTwoPageDocx(),
      FORM_MESSAGES.fileNameTooLong,
    ],
    [
      'a macro-enabled document renamed .docx',
      'statement.docx',
      () => buildMacroDocx(),
      DOCUMENT_MESSAGES.unsafeContent,
    ],
  ])('refuses %s with the documented message', async (_label, fileName, bytes, message) => {
    expect([...fileName].length).toBeLessThanOrEqual(33);
    const error = await rejection(converter.convert({ bytes: bytes(), fileName }));
    expect(error.userMessage).toBe(message);
  });

  it('accepts a name of exactly 32 characters', async () => {
    const fileName = `${'a'.repeat(27)}.docx`;
    expect(fileName).toHaveLength(32);
    await expect(converter.convert({ bytes: buildTwoPageDocx(), fileName })).resolves.toBeTruthy();
  });

  it('refuses an encrypted PDF', async () => {
    const encrypted = await encryptPdf(await buildPdf('secret transcript'));
    const error = await rejection(converter.convert({ bytes: encrypted, fileName: 'locked.pdf' }));
    expect(error.code).toBe('PDF_ENCRYPTED');
    expect(error.userMessage).toBe(DOCUMENT_MESSAGES.pdfEncrypted);
  });

  it('refuses a zip-bomb docx before LibreOffice sees it', async () => {
    const bomb = buildZipBombDocx();
    expect(bomb.length).toBeLessThan(1_048_576);
    const pids = pool.pids();
    const started = Date.now();
    const error = await rejection(converter.convert({ bytes: bomb, fileName: 'bomb.docx' }));
    expect(error.code).toBe('TOO_COMPLEX');
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
    expect(pool.pids()).toEqual(pids);
  });

  it('ends a document that keeps LibreOffice busy at the time-out, killing that process', async () => {
    const slow = buildSlowDocx();
    const before = pool.pids();
    expect(before).toHaveLength(1);
    const started = Date.now();
    const error = await rejection(converter.convert({ bytes: slow, fileName: 'slow.docx' }));
    const elapsed = Date.now() - started;
    expect(error.code).toBe('TOO_COMPLEX');
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 3000);
    // The process group is gone and reaped, not a zombie.
    for (const pid of before) expect(processExists(pid)).toBe(false);
    // The pool replaces it and converts the next file.
    const { pdf } = await converter.convert({ bytes: buildTwoPageDocx(), fileName: 'ok.docx' });
    expect(pdfText(pdf)).toContain('Ada Lovelace');
  });

  describe('a document linking a local file (CVE-2020-27603)', () => {
    let secretDir: string;
    let secretFile: string;
    const MARKER = 'MARKER-7f3a9c-DO-NOT-LEAK';

    beforeAll(() => {
      secretDir = mkdtempSync(path.join(os.tmpdir(), 'secret-'));
      secretFile = path.join(secretDir, 'secret.txt');
      writeFileSync(secretFile, `${MARKER}\n`.repeat(20));
    });
    afterAll(() => rmSync(secretDir, { recursive: true, force: true }));

    it('converts without the linked file: the link is left out, staff are told (#27)', async () => {
      for (const target of [secretFile, '/etc/passwd']) {
        const { pdf } = await converter.convert({
          bytes: buildLocalLinkDocx(target),
          fileName: 'links.docx',
        });
        const text = pdfText(pdf);
        expect(text).toContain('My statement.');
        expect(text.replace(/\s+/g, ' ')).toContain(DOCX_NOTES.linkedPicture);
        expect(text).not.toContain(MARKER);
        expect(text).not.toContain('root:');
        expect(Buffer.from(pdf).includes(MARKER)).toBe(false);
      }
    });

    it('does not leak the file even when LibreOffice is handed it directly', async () => {
      // Straight to the pool, past the checks: the profile and load properties must hold alone.
      const pdf = await pool.convert(buildLocalLinkDocx(secretFile), DOCX_IMPORT_FILTER);
      const text = pdfText(pdf);
      expect(text).toContain('My statement.');
      expect(text).not.toContain(MARKER);
      expect(Buffer.from(pdf).includes(MARKER)).toBe(false);
      const passwd = await pool.convert(buildLocalLinkDocx('/etc/passwd'), DOCX_IMPORT_FILTER);
      expect(pdfText(passwd)).not.toContain('root:');
    });
  });
});
