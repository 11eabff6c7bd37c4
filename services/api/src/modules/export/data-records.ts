// One data export record from an application's row and checklist: a text value per column of
// buildExportColumns (packages/form), '' where there is nothing. Answers are written as stored —
// the code, and beside it the `_desc` label the applicant saw — except that an application not
// yet submitted loses the answers its other answers hide (as submitting would clear them, and as
// the print view hides them), and the identifiers (SSN, alien registration number) stay empty
// unless the run decrypts them. A code mapping then translates the columns it maps; a value it
// does not list fails the record.
import {
  APPLICATION_DEFINITION,
  clearHiddenAnswers,
  EXPORT_REQUEST_SLOTS,
  IDENTIFIER_ANSWER_KEYS,
  listRecommenderSlots,
  type ExportColumn,
  type PartnerConfig,
} from '@admissions/form';
import type { ChecklistItem } from '@admissions/api-contract';
import { readAnswers, readSealedAnswer } from '../application';
import type { ChecklistSummary } from '../checklist';
import { describeUnmapped, type CodeMapping } from './data-mapping';
import type { DataRow } from './data-source';

export interface RecordFailure {
  applicationId: string;
  key: string;
  value: string;
  message: string;
}

export type BuiltRecord =
  | {
      ok: true;
      values: string[];
      /** The identifier keys that held a value (what a sensitive export's audit row lists). */
      identifiers: string[];
    }
  | { ok: false; failures: RecordFailure[] };

export interface RecordBuilderOptions {
  columns: readonly ExportColumn[];
  partner: PartnerConfig;
  mapping: CodeMapping | null;
  /** The key that opens the sealed answers; null leaves the identifier columns empty. */
  encryptionKey: Buffer | null;
}

type ChecklistCell = (summary: ChecklistSummary) => string;

/** The value a checklist column takes from an application's checklist. */
function buildChecklistCells(partner: PartnerConfig): Map<string, ChecklistCell> {
  const cells = new Map<string, ChecklistCell>();
  cells.set('checklist_complete', (s) => (s.complete ? 'Y' : 'N'));
  // Item ids as the checklist names them (ChecklistItem in the contract): counselor, teacher-<n>,
  // other-<recommender id> (oldest first), request-<id> (oldest first).
  const itemFor = (type: string, n: number) => (s: ChecklistSummary) =>
    type === 'other'
      ? s.items.filter((i) => i.id.startsWith('other-'))[n - 1]
      : s.items.find((i) => i.id === (type === 'counselor' ? 'counselor' : `teacher-${n}`));
  for (const slot of listRecommenderSlots(partner.recommendations)) {
    const item = itemFor(slot.type, slot.n);
    const person = (s: ChecklistSummary) => {
      const id = item(s)?.recommender_id;
      return id ? s.recommenders.get(id) : undefined;
    };
    cells.set(`${slot.prefix}_name`, (s) => person(s)?.name ?? '');
    cells.set(`${slot.prefix}_email`, (s) => person(s)?.email ?? '');
    cells.set(`${slot.prefix}_status`, (s) => item(s)?.status ?? '');
    cells.set(`${slot.prefix}_received_at`, (s) => item(s)?.received_at ?? '');
  }
  const requests = (s: ChecklistSummary): ChecklistItem[] =>
    s.items.filter((i) => i.kind === 'request');
  cells.set('request_count', (s) => String(requests(s).length));
  for (let n = 1; n <= EXPORT_REQUEST_SLOTS; n++) {
    cells.set(`request_${n}_title`, (s) => requests(s)[n - 1]?.title ?? '');
    cells.set(`request_${n}_status`, (s) => requests(s)[n - 1]?.status ?? '');
    cells.set(`request_${n}_received_at`, (s) => requests(s)[n - 1]?.received_at ?? '');
  }
  return cells;
}

/** Builds records for the given columns; the plan (which column reads what) is made once. */
export function createRecordBuilder(options: RecordBuilderOptions) {
  const { columns, mapping, encryptionKey } = options;
  const width = columns.length;
  const index = new Map(columns.map((c, i) => [c.name, i]));
  const at = (name: string) => {
    const i = index.get(name);
    if (i === undefined) throw new Error(`the export has no column ${name}`);
    return i;
  };
  const answerColumns = columns.flatMap((c, i) => (c.source === 'answer' ? [[i, c.name]] : [])) as [
    number,
    string,
  ][];
  const checklistCells = buildChecklistCells(options.partner);
  const checklistColumns = columns.flatMap((c, i) => {
    if (c.source !== 'checklist') return [];
    const cell = checklistCells.get(c.name);
    if (!cell) throw new Error(`no value for the checklist column ${c.name}`);
    return [[i, cell] as const];
  });
  const mapped = mapping
    ? [...mapping.columns].map(([name, codes]) => ({ i: at(name), name, codes }))
    : [];
  const fixed = {
    id: at('application_id'),
    externalId: at('external_id'),
    round: at('round'),
    status: at('status'),
    submittedAt: at('submitted_at'),
    updatedAt: at('updated_at'),
    version: at('version'),
  };

  return (row: DataRow, checklist: ChecklistSummary | undefined): BuiltRecord => {
    const sealed = encryptionKey && row.sensitive ? row.sensitive : null;
    // A submitted application's answers are read as stored, without a copy (the identifiers
    // apart, decrypted one by one below); one not yet submitted loses what its answers hide,
    // identifiers included, so those are decrypted with the rest first.
    const answers = row.submittedAt
      ? row.answer
      : clearHiddenAnswers(
          APPLICATION_DEFINITION,
          sealed
            ? readAnswers({ answer: row.answer, sensitive: sealed }, encryptionKey!)
            : row.answer,
          { tabs: row.tabs },
        );
    const values = new Array<string>(width).fill('');
    values[fixed.id] = row.id;
    values[fixed.externalId] = row.externalId ?? '';
    values[fixed.round] = row.roundCode;
    values[fixed.status] = row.submittedAt ? 'submitted' : 'started';
    values[fixed.submittedAt] = row.submittedAt ?? '';
    values[fixed.updatedAt] = row.updatedAt;
    values[fixed.version] = String(row.version);
    for (const [i, key] of answerColumns) {
      const value = answers[key];
      if (value !== undefined) values[i] = value;
    }
    const identifiers: string[] = [];
    for (const key of IDENTIFIER_ANSWER_KEYS) {
      // Never from the plain column, whatever it holds; only what was decrypted for this run.
      const i = index.get(key);
      if (i === undefined) continue;
      const value = !sealed
        ? ''
        : row.submittedAt
          ? readSealedAnswer({ sensitive: sealed }, key, encryptionKey!)
          : (answers[key] ?? '');
      values[i] = value;
      if (value !== '') identifiers.push(key);
    }
    if (checklist) for (const [i, cell] of checklistColumns) values[i] = cell(checklist);

    let failures: RecordFailure[] | null = null;
    for (const { i, name, codes } of mapped) {
      const value = values[i]!;
      if (value === '') continue;
      const target = codes.get(value);
      if (target !== undefined) {
        values[i] = target;
        continue;
      }
      (failures ??= []).push({
        applicationId: row.id,
        key: name,
        value,
        message: describeUnmapped(name, value, mapping!.system),
      });
    }
    if (failures) return { ok: false, failures };
    return { ok: true, values, identifiers };
  };
}

export type RecordBuilder = ReturnType<typeof createRecordBuilder>;
