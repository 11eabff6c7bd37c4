// Issue #27's agreement check: over every Word document the test support builds, the converter
// converts what a fresh `soffice --convert-to pdf` opens, to the same number of pages. Documents
// refused on purpose are listed, not counted: those over a bound (time, size, pages, pixels:
// soffice would grind through a zip bomb) and those the policy refuses by name below (a
// macro-enabled main part, a DTD: Word writes neither into a .docx). A document soffice cannot
// open counts as agreeing whatever the converter does (it may do better, e.g. without comments).
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDocumentRejected } from '../src/modules/documents/conversion/conversion-errors';
import * as documentFixtures from './support/document-fixtures';
import * as docxBuilder from './support/docx-builder';
import * as hostileFiles from './support/hostile-files';
import { startConverterStack, type ConverterStack } from './support/converter-stack';
import { convertWithSoffice } from './support/soffice-reference';
import { pdfPageCount } from './support/pdf-inspect';

const TIMEOUT_MS = 8000;
const logger = pino({ level: 'silent' });
// Nothing listens there: soffice, unlike the converter, may try it.
const URL = 'http://127.0.0.1:9';

const b = docxBuilder;
const f = documentFixtures;
/** Every docx builder of the test support, each variant it offers. */
const DOCUMENTS: [builder: string, variant: string, build: () => Uint8Array][] = [
  ['buildCommentedDocx', '', b.buildCommentedDocx],
  ['buildTrackedChangesDocx', '', b.buildTrackedChangesDocx],
  ['buildFootnotesDocx', '', b.buildFootnotesDocx],
  ['buildHeaderFooterDocx', '', b.buildHeaderFooterDocx],
  ['buildChartDocx', '', b.buildChartDocx],
  ['buildTemplateDocx', 'double quotes', () => b.buildTemplateDocx(`${URL}/Normal.dotm`)],
  ['buildTemplateDocx', 'single quotes', () => b.buildTemplateDocx(`${URL}/Normal.dotm`, "'")],
  [
    'buildSingleQuotedExternalImageDocx',
    '',
    () => b.buildSingleQuotedExternalImageDocx(`${URL}/a.png`),
  ],
  ['buildSplitIncludePictureDocx', '', () => b.buildSplitIncludePictureDocx(`${URL}/b.png`)],
  ['buildPrefixedFieldDocx', '', () => b.buildPrefixedFieldDocx('/etc/hostname')],
  ['buildNestedTablesDocx', '3 levels', () => b.buildNestedTablesDocx(3)],
  ['buildNestedTablesDocx', '2,000 levels', () => b.buildNestedTablesDocx()],
  ['buildDoctypeDocx', '', b.buildDoctypeDocx],
  ['buildEncryptedDocx', '', b.buildEncryptedDocx],
  ...(['equation', 'visio', 'powerpoint', 'workbook', 'package'] as const).flatMap(
    (kind): [string, string, () => Uint8Array][] => [
      ['buildOleObjectDocx', kind, () => b.buildOleObjectDocx(kind)],
      [
        'buildOleObjectDocx',
        `${kind} as a picture`,
        () => b.buildOleObjectDocx(kind, { asPicture: true }),
      ],
    ],
  ),
  ['buildLegacyCheckBoxDocx', '', b.buildLegacyCheckBoxDocx],
  ['buildActiveXCheckBoxDocx', '', () => b.buildActiveXCheckBoxDocx()],
  [
    'buildActiveXCheckBoxDocx',
    'as a picture',
    () => b.buildActiveXCheckBoxDocx({ asPicture: true }),
  ],
  ['buildBinNamedPicturesDocx', '.bin', () => b.buildBinNamedPicturesDocx()],
  [
    'buildBinNamedPicturesDocx',
    '.png/.emf',
    () => b.buildBinNamedPicturesDocx({ named: 'extension' }),
  ],
  ['buildLinkedImageDocx', '', () => b.buildLinkedImageDocx(`${URL}/c.png`)],
  ['buildCustomXmlDocx', '', b.buildCustomXmlDocx],
  ['buildDocxWithVbaProject', '', b.buildDocxWithVbaProject],
  ['buildLargeStatementDocx', '', () => b.buildLargeStatementDocx()],
  ['buildTwoPageDocx', '', f.buildTwoPageDocx],
  ['buildSlowDocx', '', () => f.buildSlowDocx()],
  ['buildZipBombDocx', '', f.buildZipBombDocx],
  ['buildMacroDocx', '', f.buildMacroDocx],
  ['buildLocalLinkDocx', '', () => f.buildLocalLinkDocx('/etc/hostname')],
  ['buildLocalLinkDocx', 'no field', () => f.buildLocalLinkDocx('/etc/hostname', { field: false })],
  ['hostile buildNestedTablesDocx', '', () => hostileFiles.buildNestedTablesDocx()],
];
/** Refused by the policy whatever soffice makes of them, with the code they must get. */
const REFUSED_ON_PURPOSE: Record<string, string> = {
  buildMacroDocx: 'UNSAFE_CONTENT',
  buildDoctypeDocx: 'UNSAFE_CONTENT',
};
/** Refusals for a bound: not compared (soffice would take minutes, or pages past the limit). */
const BOUND_CODES = new Set(['TOO_COMPLEX', 'TOO_MANY_PAGES', 'IMAGE_TOO_LARGE']);
const AGREEMENT_FLOOR = 0.99;

type Outcome = { pages: number } | { code: string };

describe('the converter agrees with a fresh soffice (#27)', () => {
  let stack: ConverterStack;

  beforeAll(async () => {
    stack = await startConverterStack({
      name: 'docx-agreement',
      timeoutMs: TIMEOUT_MS,
      recycleAfter: 100,
      logger,
    });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('covers every docx builder of the test support', () => {
    const covered = new Set(DOCUMENTS.map(([builder]) => builder.replace(/^hostile /, '')));
    const builders = [docxBuilder, documentFixtures, hostileFiles].flatMap((module) =>
      Object.keys(module).filter((name) => /^build\w*Docx$/.test(name) && name !== 'buildDocx'),
    );
    expect(builders.filter((name) => !covered.has(name))).toEqual([]);
  });

  it(`converts what soffice opens, to the same page count, for at least ${AGREEMENT_FLOOR * 100} %`, async () => {
    const ours = new Map<string, Outcome>();
    for (const [builder, variant, build] of DOCUMENTS) {
      const name = variant ? `${builder} (${variant})` : builder;
      try {
        const { pdf } = await stack.converter.convert({ bytes: build(), fileName: 'd.docx' });
        ours.set(name, { pages: pdfPageCount(pdf) });
      } catch (error) {
        if (!isDocumentRejected(error)) throw error;
        ours.set(name, { code: error.code });
      }
    }
    const names = [...ours.keys()];
    const isBounded = (name: string) => {
      const outcome = ours.get(name)!;
      return 'code' in outcome && BOUND_CODES.has(outcome.code);
    };
    const onPurpose = (name: string) => REFUSED_ON_PURPOSE[name.replace(/ \(.*\)$/, '')];
    const compared = names.filter((name) => !isBounded(name) && !onPurpose(name));
    for (const name of names.filter(onPurpose)) {
      expect(ours.get(name), name).toEqual({ code: onPurpose(name) });
    }
    const byIndex = Object.fromEntries(
      DOCUMENTS.map(([builder, variant, build]) => [
        variant ? `${builder} (${variant})` : builder,
        build,
      ]),
    );
    const reference = convertWithSoffice(
      Object.fromEntries(compared.map((name) => [name, byIndex[name]!()])),
    );
    const disagreements: string[] = [];
    const sofficeFailed: string[] = [];
    for (const name of compared) {
      const pdf = reference[name];
      const outcome = ours.get(name)!;
      if (!pdf) {
        sofficeFailed.push(`${name}: ours ${JSON.stringify(outcome)}`);
        continue;
      }
      const pages = pdfPageCount(pdf);
      if (!('pages' in outcome) || outcome.pages !== pages) {
        disagreements.push(`${name}: soffice ${pages} pages, ours ${JSON.stringify(outcome)}`);
      }
    }
    const rate = (compared.length - disagreements.length) / compared.length;
    console.warn(
      [
        `docx agreement with soffice --convert-to pdf: ${compared.length - disagreements.length}/${compared.length} = ${(rate * 100).toFixed(1)} %`,
        `  disagreements: ${disagreements.join('; ') || 'none'}`,
        `  soffice could not open: ${sofficeFailed.join('; ') || 'none'}`,
        `  bounded (not compared): ${names
          .filter(isBounded)
          .map((n) => `${n} ${JSON.stringify(ours.get(n))}`)
          .join('; ')}`,
        `  refused on purpose (not compared): ${names.filter(onPurpose).join(', ')}`,
      ].join('\n'),
    );
    expect(rate, disagreements.join('\n')).toBeGreaterThanOrEqual(AGREEMENT_FLOOR);
  }, 900_000);
});
