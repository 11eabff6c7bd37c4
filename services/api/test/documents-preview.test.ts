// The applicant's proof of a conversion: the COMPLETED status carries the converted PDF's page
// count and a link to a PNG of its first page, drawn once by the conversion job; the picture is
// its owner's alone and goes with the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { DOCUMENT_MESSAGES, DOCUMENT_THUMBNAIL_WIDTH } from '@admissions/api-contract';
import { buildBlockPdf, buildPdf, buildTwoPageDocx } from './support/document-fixtures';
import { createUploadClient } from './support/upload-client';
import {
  primaryDriver,
  createTestRuntime,
  registerApplicant,
  type TestRuntime,
} from './support/test-runtime';

const DOC = 'personal_statement_doc';
const THUMBNAIL_URL = new RegExp(`^/api/document-answer/${DOC}/thumbnail\\?v=[0-9a-f]{16}$`);

/** Mean brightness (0 black … 255 white) of a region of an RGB(A) image. */
async function brightness(
  png: Uint8Array,
  region: { left: number; top: number; width: number; height: number },
): Promise<number> {
  const { data, info } = await sharp(png)
    .extract(region)
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let sum = 0;
  for (const value of data) sum += value;
  return sum / (info.width * info.height);
}

describe.each(primaryDriver())('document preview on %s', (driver) => {
  let t: TestRuntime;
  let client: ReturnType<typeof createUploadClient>;
  let counter = 0;
  const freshApplicant = () => registerApplicant(t, `proof${++counter}.${driver}@example.org`);
  const thumbnailKeys = async (): Promise<string[]> =>
    (
      await t.runtime.database.executeSql(
        'SELECT thumbnail_key FROM document_answers WHERE thumbnail_key IS NOT NULL',
      )
    ).rows.map((row) => (row as { thumbnail_key: string }).thumbnail_key);

  beforeAll(async () => {
    t = await createTestRuntime(driver, {
      OFFICE_POOL_SIZE: '1',
      CONVERSION_CONCURRENCY: '1',
    });
    client = createUploadClient(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows the owner the page count and a picture of the first page; no one else; gone with the document', async () => {
    const owner = await freshApplicant();
    await client.upload(owner, DOC, 'statement.pdf', await buildBlockPdf(1));
    const done = await client.waitForResult(owner, DOC, 90_000);
    expect(done).toEqual({
      status: 'COMPLETED',
      message: DOCUMENT_MESSAGES.completed,
      page_count: 1,
      thumbnail_url: expect.stringMatching(THUMBNAIL_URL),
    });
    // A status read later (the widget after a reload) says the same.
    expect((await client.api(owner, 'GET', `/api/pdf/document-answer/${DOC}`)).json()).toEqual(
      done,
    );

    const picture = await client.api(owner, 'GET', done.thumbnail_url!);
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.headers['cache-control']).toContain('no-store');
    expect(picture.headers['x-content-type-options']).toBe('nosniff');
    const png = picture.rawPayload;
    const { width, height, format } = await sharp(png).metadata();
    expect(format).toBe('png');
    // A US Letter page, 200 px wide: 200 × 792/612.
    expect(width).toBe(DOCUMENT_THUMBNAIL_WIDTH);
    expect(
      Math.abs(height! - Math.round((DOCUMENT_THUMBNAIL_WIDTH * 792) / 612)),
    ).toBeLessThanOrEqual(1);
    // The page as drawn: black where the block is, white where the page is empty.
    const half = { width: 90, height: 120 };
    expect(await brightness(png, { left: 5, top: 5, ...half })).toBeLessThan(20);
    expect(await brightness(png, { left: 105, top: 135, ...half })).toBeGreaterThan(235);

    // The link names a question, not a document: another applicant with a file there gets the
    // picture of their own (a page without the block), never the owner's; one without gets 404.
    const other = await freshApplicant();
    await client.upload(other, DOC, 'mine.pdf', await buildPdf('A different statement'));
    expect((await client.waitForResult(other, DOC, 90_000)).status).toBe('COMPLETED');
    const othersPicture = (await client.api(other, 'GET', done.thumbnail_url!)).rawPayload;
    expect(await brightness(othersPicture, { left: 5, top: 5, ...half })).toBeGreaterThan(200);
    const stranger = await freshApplicant();
    const refused = await client.api(stranger, 'GET', done.thumbnail_url!);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({
      code: 'NOT_FOUND',
      message: DOCUMENT_MESSAGES.noPreview,
    });
    expect((await client.api({}, 'GET', done.thumbnail_url!)).statusCode).toBe(401);
    expect(
      (await client.api(owner, 'GET', '/api/document-answer/first_name/thumbnail')).statusCode,
    ).toBe(400);

    // Deleting the document deletes its picture.
    const [key] = (
      await t.runtime.database.executeSql(
        'SELECT d.thumbnail_key FROM document_answers d JOIN applications a ON a.id = d.application_id JOIN users u ON u.id = a.user_id WHERE u.email = $1',
        [`proof${counter - 2}.${driver}@example.org`],
      )
    ).rows.map((row) => (row as { thumbnail_key: string }).thumbnail_key);
    expect(await t.runtime.storage.read(key!, 1024 * 1024)).not.toBeNull();
    expect((await client.api(owner, 'DELETE', `/api/document-answer/${DOC}`)).statusCode).toBe(200);
    expect((await client.api(owner, 'GET', done.thumbnail_url!)).statusCode).toBe(404);
    expect(await t.runtime.storage.read(key!, 1024 * 1024)).toBeNull();
    expect((await client.api(owner, 'GET', `/api/pdf/document-answer/${DOC}`)).json()).toEqual({
      status: 'NOT_ANSWERED',
      message: DOCUMENT_MESSAGES.notAnswered,
    });
    // Three applicants' conversions on a shared 2-core machine.
  }, 240_000);

  it('counts the pages of a 3-page PDF and a 2-page Word document; a new upload replaces the picture', async () => {
    const jar = await freshApplicant();
    await client.upload(jar, DOC, 'transcript.pdf', await buildBlockPdf(3));
    const pdf = await client.waitForResult(jar, DOC, 90_000);
    expect(pdf).toMatchObject({ status: 'COMPLETED', page_count: 3 });
    const before = await thumbnailKeys();

    await client.upload(jar, DOC, 'statement.docx', buildTwoPageDocx());
    const docx = await client.waitForResult(jar, DOC, 90_000);
    expect(docx).toMatchObject({ status: 'COMPLETED', page_count: 2 });
    expect(docx.thumbnail_url).not.toBe(pdf.thumbnail_url);
    const picture = await client.api(jar, 'GET', docx.thumbnail_url!);
    expect(picture.statusCode).toBe(200);
    const { width } = await sharp(picture.rawPayload).metadata();
    expect(width).toBe(DOCUMENT_THUMBNAIL_WIDTH);

    // The replaced document's picture is gone from storage, the new one is there.
    const after = await thumbnailKeys();
    const removed = before.filter((key) => !after.includes(key));
    expect(removed).toHaveLength(1);
    expect(await t.runtime.storage.read(removed[0]!, 1024 * 1024)).toBeNull();
  }, 240_000);
});
