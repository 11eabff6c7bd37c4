// The first-page picture's size for every page shape (the sandbox task, called directly): 200 px
// wide whatever the page, turned as the page's /Rotate turns it, a very tall page kept short.
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { degrees, PDFDocument } from 'pdf-lib';
import { DOCUMENT_THUMBNAIL_WIDTH } from '@admissions/api-contract';
import { renderDocumentPreview } from '../src/modules/documents/conversion/render-preview';

async function onePage(size: [number, number], rotation = 0): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage(size).setRotation(degrees(rotation));
  return doc.save();
}

describe('renderDocumentPreview', () => {
  it.each([
    ['a portrait Letter page', [612, 792], 0, [200, 259]],
    ['a Letter page turned a quarter (landscape as shown)', [612, 792], 90, [200, 155]],
    ['a landscape page turned back to portrait', [792, 612], 270, [200, 259]],
    ['a strip twenty times taller than wide, drawn 400 px tall', [100, 2000], 0, [20, 400]],
    ['a wide strip turned upright', [2000, 100], 90, [20, 400]],
  ] as const)('draws %s at its shape', async (_name, size, rotation, expected) => {
    const { pageCount, png } = await renderDocumentPreview(await onePage([...size], rotation));
    expect(pageCount).toBe(1);
    const { width, height, format } = await sharp(png).metadata();
    expect(format).toBe('png');
    expect([width, height]).toEqual(expected);
    expect(width).toBeLessThanOrEqual(DOCUMENT_THUMBNAIL_WIDTH);
  });
});
