// What an applicant sees for the images of issue #14, through the real upload flow on both
// databases: a PNG that used to come out wrong converts, damaged and oversized ones fail with
// their own message (the converters' pixel-level checks are in conversion-images.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_MESSAGES } from '@admissions/api-contract';
import { encodePng, encodeUniformPng, type PngSpec } from './support/png-encoder';
import { createUploadClient } from './support/upload-client';
import {
  primaryDriver,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

const DOC = 'personal_statement_doc';

/** Interlaced, 16-bit grey with a transparent colour, at a size that is not a multiple of 8. */
const awkward: PngSpec = {
  width: 33,
  height: 17,
  colorType: 0,
  bitDepth: 16,
  interlace: true,
  transparency: [65535],
  pixel: (x, y) => [(x + y) % 5 === 0 ? 65535 : 60000 + x * 100 + y],
};

describe.each(primaryDriver())('image uploads on %s', (driver) => {
  let t: TestRuntime;
  let client: ReturnType<typeof createUploadClient>;
  let counter = 0;
  const freshApplicant = () => registerApplicant(t, `img${++counter}.${driver}@example.org`);

  beforeAll(async () => {
    t = await createTestRuntime(driver, { CONVERSION_CONCURRENCY: '1' });
    client = createUploadClient(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('converts an interlaced 16-bit grey PNG with a transparent colour', async () => {
    const jar = await freshApplicant();
    await client.upload(jar, DOC, 'scan.png', encodePng(awkward));
    expect(await client.waitForResult(jar, DOC)).toMatchObject({
      status: 'COMPLETED',
      message: DOCUMENT_MESSAGES.completed,
    });
  });

  it.each([
    ['a PNG with a CRC error', () => encodePng({ ...awkward, badCrcIn: 'IDAT' })],
    ['an RGB PNG at 4 bits', () => encodePng({ ...awkward, colorType: 2, bitDepth: 4 })],
  ])('fails %s as damaged or unreadable', async (_, build) => {
    const jar = await freshApplicant();
    await client.upload(jar, DOC, 'scan.png', build());
    expect(await client.waitForResult(jar, DOC)).toEqual({
      status: 'FAILED',
      message: DOCUMENT_MESSAGES.unreadable,
    });
  });

  it('fails a 7070×7070 RGBA PNG as too large an image', async () => {
    const jar = await freshApplicant();
    await client.upload(jar, DOC, 'huge.png', await encodeUniformPng(7070, 7070, 6));
    expect(await client.waitForResult(jar, DOC)).toEqual({
      status: 'FAILED',
      message: DOCUMENT_MESSAGES.imageTooLarge,
    });
  });
});
