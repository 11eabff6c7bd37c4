// The question-to-page map behind the missing-information links `{page}#{questionKey}` (docs/product.md).
import { compileDefinition } from './compile';
import { APPLICATION_DEFINITION } from './definition';
import type { ApplicationDefinition, PageId, ValidationErrors } from './types';

export function buildQuestionPageMap(
  definition: ApplicationDefinition,
): Readonly<Record<string, PageId>> {
  const map: Record<string, PageId> = {};
  for (const [key, { entry }] of compileDefinition(definition).byAnswerKey) {
    map[key] = entry.page.id;
  }
  return map;
}

export const QUESTION_PAGE_MAP: Readonly<Record<string, PageId>> =
  buildQuestionPageMap(APPLICATION_DEFINITION);

/** `about#first_name`, or undefined when the key has no page (shown as plain text then). */
export function linkToQuestion(
  key: string,
  pageMap: Readonly<Record<string, PageId>> = QUESTION_PAGE_MAP,
): string | undefined {
  const page = Object.hasOwn(pageMap, key) ? pageMap[key] : undefined;
  return page ? `${page}#${key}` : undefined;
}

export interface MissingItem {
  key: string;
  href?: string;
  messages: string[];
}

export interface MissingSummary {
  pages: { page: PageId; title: string; items: MissingItem[] }[];
  /** Keys with no page mapping: a definition bug, listed as plain text. */
  unmapped: MissingItem[];
}

/** The missing-information summary: errors grouped by page, in page and question order. */
export function summarizeErrors(
  definition: ApplicationDefinition,
  errors: ValidationErrors,
): MissingSummary {
  const compiled = compileDefinition(definition);
  const pages = definition.pages.map((p) => ({
    page: p.id,
    title: p.title,
    items: [] as MissingItem[],
  }));
  const order = new Map<string, number>();
  compiled.entries.forEach((e, i) => e.owned.forEach((o) => order.set(o.key, i)));
  const unmapped: MissingItem[] = [];
  const keys = Object.keys(errors).sort((a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9));
  for (const key of keys) {
    const messages = errors[key] ?? [];
    const found = compiled.byAnswerKey.get(key);
    const bucket = found ? pages.find((p) => p.page === found.entry.page.id) : undefined;
    if (bucket) bucket.items.push({ key, href: `${bucket.page}#${key}`, messages });
    else unmapped.push({ key, messages });
  }
  return { pages: pages.filter((p) => p.items.length > 0), unmapped };
}
