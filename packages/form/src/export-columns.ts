// The columns of the data export (`npm run cli -- export-data`, docs/data-export.md): one record
// per application, in this order: the application's own fields, one column per answer key of the
// data dictionary (a choice's stored code, then its `_desc` label), then the checklist flattened
// into fixed slots. The export writes exactly these columns, and `npm run cli -- dictionary
// --columns` prints them, so the file and its documentation cannot drift apart. Repeatable
// (add-another) blocks need no flattening here: every block has keys of its own in the
// definition (`parent_2_`, `hs_3_`, …), so they are dictionary keys like any other.
import { buildDataDictionary, quoteCsvField, type DictionaryRow } from './dictionary';
import type { PartnerConfig } from './partner';
import type { ApplicationDefinition } from './types';

export type ExportColumnSource = 'application' | 'answer' | 'checklist';

export interface ExportColumn {
  name: string;
  source: ExportColumnSource;
  description: string;
}

export type RecommenderSlotType = 'counselor' | 'teacher' | 'other';

/** A recommender's fixed place in the record: `recommender_teacher_2_…`. */
export interface RecommenderSlot {
  /** The columns' common prefix. */
  prefix: string;
  type: RecommenderSlotType;
  /** 1-based among its type, oldest first (the checklist's teacher-1, teacher-2, …). */
  n: number;
}

export const RECOMMENDER_COLUMN_FIELDS = ['name', 'email', 'status', 'received_at'] as const;
export const REQUEST_COLUMN_FIELDS = ['title', 'status', 'received_at'] as const;
/** The office's requests in the record, oldest first; `request_count` says how many there are. */
export const EXPORT_REQUEST_SLOTS = 5;

export const APPLICATION_COLUMNS: readonly ExportColumn[] = [
  {
    name: 'application_id',
    source: 'application',
    description: "The application's id (a UUID)",
  },
  {
    name: 'external_id',
    source: 'application',
    description:
      "The student system's ID for the application, once it sent one back (import-ids or PUT /service/applications/{id}/external-id); else empty",
  },
  { name: 'round', source: 'application', description: "The admission round's code" },
  { name: 'status', source: 'application', description: 'submitted or started' },
  {
    name: 'submitted_at',
    source: 'application',
    description: 'When it was submitted (ISO 8601, UTC); empty while started',
  },
  {
    name: 'updated_at',
    source: 'application',
    description: 'When its answers last changed (ISO 8601, UTC)',
  },
  {
    name: 'version',
    source: 'application',
    description: 'Content version: moves on with every change of answers, documents or checklist',
  },
];

/** The recommender slots the partner's settings allow: the counselor, then teachers, then others. */
export function listRecommenderSlots(
  recommendations: PartnerConfig['recommendations'],
): RecommenderSlot[] {
  const slots: RecommenderSlot[] = [{ prefix: 'recommender_counselor', type: 'counselor', n: 1 }];
  const teachers = recommendations.teachersRequired + recommendations.teachersOptional;
  for (let n = 1; n <= teachers; n++) {
    slots.push({ prefix: `recommender_teacher_${n}`, type: 'teacher', n });
  }
  for (let n = 1; n <= recommendations.otherOptional; n++) {
    slots.push({ prefix: `recommender_other_${n}`, type: 'other', n });
  }
  return slots;
}

function describeAnswer(row: DictionaryRow): string {
  const where = `${row.pageTitle} › ${row.sectionTitle}`;
  return `${row.label} (${where}; ${row.role === 'value' ? row.type : row.role})`;
}

function checklistColumns(partner: PartnerConfig): ExportColumn[] {
  const columns: ExportColumn[] = [
    {
      name: 'checklist_complete',
      source: 'checklist',
      description: 'Y when every required checklist item is received or waived, else N',
    },
  ];
  const recommenderFields: Record<(typeof RECOMMENDER_COLUMN_FIELDS)[number], string> = {
    name: "the recommender's name; empty when nobody is named",
    email: "the recommender's e-mail address",
    status:
      "the checklist item's status: awaiting, received or waived; empty when there is no item",
    received_at: 'when the letter was received (ISO 8601, UTC)',
  };
  for (const slot of listRecommenderSlots(partner.recommendations)) {
    const who =
      slot.type === 'counselor'
        ? 'The counselor recommendation'
        : `${slot.type === 'teacher' ? 'Teacher' : 'Other'} recommendation ${slot.n} (oldest first)`;
    for (const field of RECOMMENDER_COLUMN_FIELDS) {
      columns.push({
        name: `${slot.prefix}_${field}`,
        source: 'checklist',
        description: `${who}: ${recommenderFields[field]}`,
      });
    }
  }
  columns.push({
    name: 'request_count',
    source: 'checklist',
    description: `How many items the office asked for; the first ${EXPORT_REQUEST_SLOTS} are in request_1 … request_${EXPORT_REQUEST_SLOTS}`,
  });
  const requestFields: Record<(typeof REQUEST_COLUMN_FIELDS)[number], string> = {
    title: 'what the office asked for',
    status: 'awaiting, received or waived',
    received_at: 'when the file was received (ISO 8601, UTC)',
  };
  for (let n = 1; n <= EXPORT_REQUEST_SLOTS; n++) {
    for (const field of REQUEST_COLUMN_FIELDS) {
      columns.push({
        name: `request_${n}_${field}`,
        source: 'checklist',
        description: `The office's request ${n} (oldest first): ${requestFields[field]}`,
      });
    }
  }
  return columns;
}

/** Every column of a data export record, in the order the export writes them. */
export function buildExportColumns(
  definition: ApplicationDefinition,
  partner: PartnerConfig,
): ExportColumn[] {
  return [
    ...APPLICATION_COLUMNS,
    ...buildDataDictionary(definition, partner).map((row): ExportColumn => ({
      name: row.key,
      source: 'answer',
      description: describeAnswer(row),
    })),
    ...checklistColumns(partner),
  ];
}

/** One product code of a coded answer key, for a code mapping's template. */
export interface MappingTemplateEntry {
  key: string;
  productCode: string;
  label: string;
}

/**
 * Every answer key stored as a code from an option list (countries, states, majors, entry terms,
 * test answers, yes/no…) with each of its codes once. Years and free text are not codes.
 */
export function buildMappingTemplate(rows: readonly DictionaryRow[]): MappingTemplateEntry[] {
  const entries: MappingTemplateEntry[] = [];
  for (const row of rows) {
    if (row.role !== 'value' || row.options.length === 0) continue;
    const seen = new Set<string>();
    for (const option of row.options) {
      if (option.value === '' || seen.has(option.value)) continue;
      seen.add(option.value);
      entries.push({ key: row.key, productCode: option.value, label: option.label });
    }
  }
  return entries;
}

/**
 * The template of a code mapping file (docs/data-export.md#code-mapping): CSV
 * `system,key,product_code,target_code,label` with the targets empty, or the JSON form
 * `{"systems": {"<system>": {"<key>": {"<code>": ""}}}}`. Empty targets map nothing, so a
 * template can be filled in part and used as it stands.
 */
export function formatMappingTemplate(
  entries: readonly MappingTemplateEntry[],
  format: 'csv' | 'json',
  system: string,
): string {
  if (format === 'json') {
    const keys: Record<string, Record<string, string>> = {};
    for (const entry of entries) (keys[entry.key] ??= {})[entry.productCode] = '';
    return `${JSON.stringify({ systems: { [system]: keys } }, null, 2)}\n`;
  }
  const lines = ['system,key,product_code,target_code,label'];
  for (const entry of entries) {
    lines.push(
      [system, entry.key, entry.productCode, '', entry.label].map(quoteCsvField).join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** `dictionary --columns`: JSON (an array of columns) or CSV `name,source,description`. */
export function formatExportColumns(
  columns: readonly ExportColumn[],
  format: 'csv' | 'json',
): string {
  if (format === 'json') return `${JSON.stringify(columns, null, 2)}\n`;
  const lines = ['name,source,description'];
  for (const c of columns)
    lines.push([c.name, c.source, c.description].map(quoteCsvField).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
