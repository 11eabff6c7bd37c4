// Issue #27: what Word writes into ordinary documents (old equations, embedded Visio and
// PowerPoint objects, charts, form fields, ActiveX check boxes, pictures named .bin, linked
// pictures, custom XML, a VBA project in a .docx) converts instead of being refused. Each case is
// built in code and goes through the real converter (sandbox + warm LibreOffice); the page is
// compared pixel by pixel with what a fresh `soffice --convert-to pdf` draws for the document's
// picture alone, and the stored PDF is searched for the binaries that were taken out. Uploads of
// these documents on both drivers: conversion-docx.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCX_NOTES } from '../src/modules/documents/conversion/check-docx';
import {
  BINARY_MARKER,
  PREVIEW_LEFT,
  PREVIEW_RIGHT,
  buildActiveXCheckBoxDocx,
  buildBinNamedPicturesDocx,
  buildChartDocx,
  buildCustomXmlDocx,
  buildDocxWithVbaProject,
  buildLegacyCheckBoxDocx,
  buildLinkedImageDocx,
  buildOleObjectDocx,
} from './support/docx-builder';
import { startConverterStack, type ConverterStack } from './support/converter-stack';
import { convertWithSoffice } from './support/soffice-reference';
import { pdfPageCount, pdfText, renderFirstPage, type Raster } from './support/pdf-inspect';
import { startLoopbackListener, type LoopbackListener } from './support/loopback-listener';

const TIMEOUT_MS = 8000;
const logger = pino({ level: 'silent' });
const textOf = (pdf: Uint8Array) => pdfText(pdf).replace(/\s+/g, ' ');

/** The PDF with every stream inflated (qpdf), so text inside compressed streams can be searched. */
function uncompressed(pdf: Uint8Array): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docx-neutralise-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('qpdf', [
      '--stream-data=uncompress',
      '--object-streams=disable',
      path.join(dir, 'in.pdf'),
      path.join(dir, 'out.pdf'),
    ]);
    return readFileSync(path.join(dir, 'out.pdf'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function expectNoBinaryLeft(pdf: Uint8Array) {
  const plain = uncompressed(pdf);
  expect(plain.includes(BINARY_MARKER)).toBe(false);
  expect(plain.includes('/EmbeddedFile')).toBe(false);
  // The compound file's signature (OLE objects, the VBA project, ActiveX) in any stream.
  expect(plain.includes(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe(false);
}

// Page 1 at 36 dpi: a 144×72 pt picture covers 72×36 pixels. LibreOffice draws the same picture
// the same way in both runs; a channel may differ by anti-aliasing on the picture's edges.
const CHANNEL_TOLERANCE = 64;
/** Pixels of the page allowed past the tolerance (the edges of a picture and of glyphs). */
const MAX_OFF_PIXELS = 60;

function compareRasters(actual: Raster, expected: Raster) {
  expect([actual.width, actual.height]).toEqual([expected.width, expected.height]);
  let off = 0;
  let sum = 0;
  for (let y = 0; y < actual.height; y++) {
    for (let x = 0; x < actual.width; x++) {
      const a = actual.at(x, y);
      const e = expected.at(x, y);
      const diff = Math.max(...a.map((v, c) => Math.abs(v - e[c]!)));
      sum += diff;
      if (diff > CHANNEL_TOLERANCE) off++;
    }
  }
  return { off, mean: sum / (actual.width * actual.height) };
}

/** Pixels within 40 of a colour on the rendered page. */
function countColour(raster: Raster, colour: [number, number, number]): number {
  let count = 0;
  for (let y = 0; y < raster.height; y++) {
    for (let x = 0; x < raster.width; x++) {
      const pixel = raster.at(x, y);
      if (pixel.every((v, c) => Math.abs(v - colour[c]!) <= 40)) count++;
    }
  }
  return count;
}

// Each case: the document as uploaded, and the document showing only what should be on the page.
const PICTURE_CASES = {
  'an old Equation Editor object (Equation.3) with its WMF preview': {
    upload: () => buildOleObjectDocx('equation'),
    reference: () => buildOleObjectDocx('equation', { asPicture: true }),
    halves: 1,
  },
  'an embedded Visio drawing with its EMF preview': {
    upload: () => buildOleObjectDocx('visio'),
    reference: () => buildOleObjectDocx('visio', { asPicture: true }),
    halves: 1,
  },
  'an embedded PowerPoint slide with its PNG preview': {
    upload: () => buildOleObjectDocx('powerpoint'),
    reference: () => buildOleObjectDocx('powerpoint', { asPicture: true }),
    halves: 1,
  },
  'an ActiveX check box with its picture': {
    upload: () => buildActiveXCheckBoxDocx(),
    reference: () => buildActiveXCheckBoxDocx({ asPicture: true }),
    halves: 1,
  },
  'a PNG and an EMF in parts named .bin': {
    upload: () => buildBinNamedPicturesDocx(),
    reference: () => buildBinNamedPicturesDocx({ named: 'extension' }),
    halves: 2,
  },
  'a chart with its embedded workbook': {
    upload: () => buildChartDocx(),
    reference: () => buildChartDocx(),
    halves: 0,
  },
} as const;

describe('Word documents with objects, controls and links (#27)', () => {
  let stack: ConverterStack;
  let references: Record<string, Uint8Array | null>;

  beforeAll(async () => {
    stack = await startConverterStack({
      name: 'docx-neutralise',
      timeoutMs: TIMEOUT_MS,
      recycleAfter: 50,
      logger,
    });
    references = convertWithSoffice(
      Object.fromEntries(Object.entries(PICTURE_CASES).map(([name, c]) => [name, c.reference()])),
    );
  }, 300_000);
  afterAll(async () => {
    await stack.close();
  });

  it.each(Object.entries(PICTURE_CASES))(
    '%s converts, its picture drawn as LibreOffice draws the picture alone',
    async (name, { upload, halves }) => {
      const { type, pdf } = await stack.converter.convert({
        bytes: upload(),
        fileName: 'statement.docx',
      });
      expect(type).toBe('docx');
      const reference = references[name];
      expect(reference, 'soffice converted the reference').toBeTruthy();
      const page = renderFirstPage(pdf);
      const { off, mean } = compareRasters(page, renderFirstPage(reference!));
      expect(off).toBeLessThanOrEqual(MAX_OFF_PIXELS);
      expect(mean).toBeLessThan(2);
      // The preview itself is there: each half is 36×36 pixels at 36 dpi (edges may blend).
      expect(countColour(page, PREVIEW_LEFT)).toBeGreaterThanOrEqual(halves * 1100);
      expect(countColour(page, PREVIEW_RIGHT)).toBeGreaterThanOrEqual(halves * 1100);
      expect(pdfPageCount(pdf)).toBe(pdfPageCount(reference!));
      expectNoBinaryLeft(pdf);
    },
  );

  it('a chart keeps its title and axis values; its workbook is not in the PDF', async () => {
    const { pdf } = await stack.converter.convert({ bytes: buildChartDocx(), fileName: 'c.docx' });
    const text = textOf(pdf);
    expect(text).toContain('Grades by year');
    expect(text).toContain('100');
    expect(uncompressed(pdf).includes('Sheet1')).toBe(false);
  });

  it('legacy form fields show their values as text', async () => {
    const { pdf } = await stack.converter.convert({
      bytes: buildLegacyCheckBoxDocx(),
      fileName: 'form.docx',
    });
    const text = textOf(pdf);
    expect(text).toContain('I confirm the above.');
    expect(text).toContain('Typed form answer');
  });

  it('a custom XML part (a style map in windows-1250) is ignored, not called damaged', async () => {
    const { pdf } = await stack.converter.convert({
      bytes: buildCustomXmlDocx(),
      fileName: 'styles.docx',
    });
    expect(textOf(pdf)).toContain('Statement with a style map.');
  });

  it('a .docx carrying a VBA project converts without it, and staff are told', async () => {
    const { pdf } = await stack.converter.convert({
      bytes: buildDocxWithVbaProject(),
      fileName: 'macros.docx',
    });
    const text = textOf(pdf);
    expect(text).toContain('Statement that once had macros.');
    expect(text).toContain(DOCX_NOTES.macros);
    expect(pdfPageCount(pdf)).toBe(1);
    expectNoBinaryLeft(pdf);
  });

  describe('a picture linked from a web address', () => {
    let listener: LoopbackListener;
    let base: string;

    beforeAll(async () => {
      listener = await startLoopbackListener();
      base = listener.base;
    });
    afterAll(() => listener.close());

    it('converts with an empty frame, a note on the first page, and is never fetched', async () => {
      const { pdf } = await stack.converter.convert({
        bytes: buildLinkedImageDocx(`${base}/photo.png`),
        fileName: 'linked.docx',
      });
      const firstPage = pdfText(pdf).split('\f')[0]!.replace(/\s+/g, ' ');
      expect(firstPage).toContain(DOCX_NOTES.linkedPicture);
      expect(firstPage).toContain('Statement with a linked picture.');
      expect(firstPage).toContain('Text after the linked picture.');
      expect(uncompressed(pdf).includes(base)).toBe(false);
      // Give a late fetch (LibreOffice loads linked graphics asynchronously) time to arrive.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(listener.connections()).toBe(0);
    });
  });
});
