// The institution's details (docs/data-model.md "Partner configuration"). One typed default for an example
// university; a deployment overrides any part of it with a JSON file named in the service config.
import { isValidEmail } from './auth-rules';
import { checkRound, isValidTimeZone, type RoundField, type RoundFields } from './round-rules';

/**
 * An admission round as the partner configuration declares it (docs/rounds.md): the fields the
 * CLI takes too (RoundFields). Times are ISO 8601 with an offset or `Z`, stored in UTC and shown
 * in `PartnerConfig.timeZone`.
 */
export type PartnerRound = RoundFields;

export interface PartnerConfig {
  /** Full name, e.g. in the footer and the PDF cover. */
  schoolName: string;
  /** Used in labels such as "What do you plan to major in at {short school name}?" */
  shortSchoolName: string;
  admissionsOfficeName: string;
  postalAddress: { lines: string[]; city: string; state: string; zip: string };
  admissionPhone: string;
  admissionEmail: string;
  helpEmail: string;
  /** Subject line prefilled in the help e-mail link. */
  helpEmailSubject: string;
  helpPartnerName: string;
  /** Text-area character limit for essays (docs/limits.md: 7000). */
  textAreaLimit: number;
  /** CEEB and other institutional codes. */
  schoolCodes: { ceeb: string; act: string; toefl: string };
  links: {
    privacyPolicy: string;
    website: string;
    adobeReader: string;
    cookiePolicy: string;
    admissionsContact: string;
  };
  /** Options of entry_term: the terms this institution is admitting for. */
  entryTerms: { value: string; label: string }[];
  /** The date-window alert: shown between these ISO dates (inclusive), when both are set. */
  alert: { start: string | null; end: string | null; message: string };
  /** The institution's IANA time zone: deadlines are shown in it (e.g. "America/Chicago"). */
  timeZone: string;
  /**
   * Admission rounds the service creates at start when missing (a round changed with the CLI
   * keeps its changes). Empty: the rounds are only those of the database (the migration's
   * default round, and any added with `npm run cli -- rounds add`).
   */
  rounds: PartnerRound[];
  /**
   * The recommendations the checklist asks for (docs/checklist.md): the counselor's (with the
   * school report), up to two teachers' (how many required, how many more optional) and others'.
   */
  recommendations: {
    counselorRequired: boolean;
    teachersRequired: number;
    teachersOptional: number;
    /** Recommenders of type "other" the applicant may add (never required). */
    otherOptional: number;
    /** Characters a letter typed into the recommender's page may have. */
    letterTextLimit: number;
  };
}

export const DEFAULT_PARTNER: PartnerConfig = {
  schoolName: 'Example State University',
  shortSchoolName: 'Example State',
  admissionsOfficeName: 'Office of Undergraduate Admissions',
  postalAddress: {
    lines: ['Office of Undergraduate Admissions', '100 University Avenue'],
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
  },
  admissionPhone: '(217) 555-0100',
  admissionEmail: 'admissions@example.edu',
  helpEmail: 'apply-help@example.org',
  helpEmailSubject: 'Technical help with my Example State University application',
  helpPartnerName: 'Application Support',
  textAreaLimit: 7000,
  schoolCodes: { ceeb: '1234', act: '5678', toefl: '1234' },
  links: {
    privacyPolicy: 'https://www.example.edu/privacy',
    website: 'https://www.example.edu',
    adobeReader: 'https://get.adobe.com/reader/',
    cookiePolicy: 'https://www.example.edu/privacy#cookies',
    admissionsContact: 'https://www.example.edu/admissions/contact',
  },
  entryTerms: [
    { value: '2027FA', label: 'Fall 2027' },
    { value: '2028SP', label: 'Spring 2028' },
  ],
  alert: { start: null, end: null, message: '' },
  timeZone: 'America/Chicago',
  rounds: [],
  recommendations: {
    counselorRequired: true,
    teachersRequired: 1,
    teachersOptional: 1,
    otherOptional: 1,
    letterTextLimit: 10_000,
  },
};

type Shape =
  string | number | boolean | null | readonly Shape[] | { readonly [key: string]: Shape };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Field-specific checks beyond "same type as the default", keyed by dotted path.
function checkValue(path: string, value: unknown, problems: string[]): void {
  const leaf = path.split('.').at(-1) ?? path;
  if (path === 'textAreaLimit') {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 100_000) {
      problems.push('textAreaLimit must be a whole number between 1 and 100000');
    }
  } else if (/Email$/.test(leaf) && typeof value === 'string' && !isValidEmail(value)) {
    problems.push(`${path} must be an e-mail address`);
  } else if (
    path.startsWith('links.') &&
    typeof value === 'string' &&
    !/^https?:\/\/\S+$/.test(value)
  ) {
    problems.push(`${path} must be an http(s) address`);
  } else if (path === 'timeZone' && typeof value === 'string' && value.trim() !== '') {
    if (!isValidTimeZone(value)) {
      problems.push(`timeZone must be an IANA time zone such as America/Chicago, not "${value}"`);
    }
  } else if (path.startsWith('recommendations.') && typeof value === 'number') {
    const max = leaf === 'letterTextLimit' ? 100_000 : 2;
    if (!Number.isInteger(value) || value < 0 || value > max) {
      problems.push(`${path} must be a whole number between 0 and ${max}`);
    }
  } else if ((path === 'alert.start' || path === 'alert.end') && value !== null) {
    if (typeof value !== 'string' || !ISO_DATE.test(value)) {
      problems.push(`${path} must be a date written YYYY-MM-DD, or null`);
    }
  }
}

const ROUND_FIELD_TYPES: Record<RoundField, 'string' | 'number'> = {
  code: 'string',
  name: 'string',
  entryTerm: 'string',
  opensAt: 'string',
  deadline: 'string',
  graceMinutes: 'number',
};

// The default has no rounds, so the generic list merge has no sample item to check them against:
// each round's fields are checked here (graceMinutes may be left out: no grace), and its values
// once the entry terms are known (checkPartnerRounds).
function mergeRounds(override: unknown, problems: string[]): PartnerRound[] {
  if (!Array.isArray(override)) {
    problems.push(`rounds must be a list, not ${describeType(override)}`);
    return [];
  }
  const rounds: PartnerRound[] = [];
  override.forEach((item: unknown, i) => {
    const path = `rounds[${i}]`;
    if (!isPlainObject(item)) {
      problems.push(`${path} must be an object, not ${describeType(item)}`);
      return;
    }
    for (const key of Object.keys(item)) {
      if (!Object.hasOwn(ROUND_FIELD_TYPES, key))
        problems.push(`${path}.${key} is not a known field`);
    }
    let complete = true;
    for (const [field, type] of Object.entries(ROUND_FIELD_TYPES)) {
      const value = item[field];
      if (value === undefined && field === 'graceMinutes') continue;
      if (value === undefined) {
        problems.push(`${path}.${field} is missing`);
        complete = false;
      } else if (typeof value !== type) {
        problems.push(`${path}.${field} must be a ${type}, not ${describeType(value)}`);
        complete = false;
      }
    }
    if (complete) {
      rounds.push({
        code: item.code as string,
        name: item.name as string,
        entryTerm: item.entryTerm as string,
        opensAt: item.opensAt as string,
        deadline: item.deadline as string,
        graceMinutes: (item.graceMinutes as number | undefined) ?? 0,
      });
    }
  });
  return rounds;
}

function checkPartnerRounds(config: PartnerConfig, problems: string[]): void {
  const terms = config.entryTerms.map((term) => term.value);
  const seen = new Set<string>();
  config.rounds.forEach((round, i) => {
    for (const problem of checkRound(round, terms)) {
      problems.push(`rounds[${i}].${problem.field} ${problem.message}`);
    }
    if (seen.has(round.code)) problems.push(`rounds[${i}].code "${round.code}" is listed twice`);
    seen.add(round.code);
  });
}

// Walks the override against the default: unknown fields, wrong types and bad values are all
// collected so an operator fixes the file in one go rather than one error per restart.
function mergeValue(path: string, base: Shape, override: unknown, problems: string[]): Shape {
  if (path === 'alert.start' || path === 'alert.end') {
    checkValue(path, override, problems);
    return typeof override === 'string' || override === null ? override : base;
  }
  if (path === 'rounds') return mergeRounds(override, problems) as unknown as Shape;
  if (Array.isArray(base)) {
    if (!Array.isArray(override)) {
      problems.push(`${path} must be a list, not ${describeType(override)}`);
      return base;
    }
    const sample = base[0];
    if (sample === undefined) return override as Shape;
    if (override.length === 0) problems.push(`${path} must not be empty`);
    return override.map((item, i) => mergeValue(`${path}[${i}]`, sample, item, problems));
  }
  if (isPlainObject(base)) {
    if (!isPlainObject(override)) {
      problems.push(
        `${path || 'the configuration'} must be an object, not ${describeType(override)}`,
      );
      return base;
    }
    const merged: Record<string, Shape> = { ...base };
    const isListItem = path.endsWith(']');
    for (const key of Object.keys(override)) {
      if (!Object.hasOwn(base, key))
        problems.push(`${path ? `${path}.` : ''}${key} is not a known field`);
    }
    for (const [key, value] of Object.entries(base)) {
      const childPath = path ? `${path}.${key}` : key;
      if (Object.hasOwn(override, key)) {
        merged[key] = mergeValue(childPath, value, override[key], problems);
      } else if (isListItem) {
        problems.push(`${childPath} is missing`);
      }
    }
    return merged;
  }
  if (typeof override !== typeof base) {
    problems.push(`${path} must be ${describeType(base)}, not ${describeType(override)}`);
    return base;
  }
  if (typeof override === 'string' && override.trim() === '' && path !== 'alert.message') {
    problems.push(`${path} must not be empty`);
  }
  checkValue(path, override, problems);
  return override as Shape;
}

/**
 * The partner configuration with a parsed JSON override applied: any subset of the fields, nested
 * objects merged, lists replaced. Throws one Error listing every problem found.
 */
export function mergePartnerConfig(base: PartnerConfig, override: unknown): PartnerConfig {
  const problems: string[] = [];
  const merged = mergeValue('', base as unknown as Shape, override, problems);
  const config = merged as unknown as PartnerConfig;
  if (config.alert.start && config.alert.end && config.alert.start > config.alert.end) {
    problems.push('alert.start must not be after alert.end');
  }
  checkPartnerRounds(config, problems);
  const { teachersRequired, teachersOptional } = config.recommendations;
  if (teachersRequired + teachersOptional > 2) {
    problems.push('recommendations: at most two teacher recommendations (required + optional)');
  }
  if (problems.length > 0) {
    throw new Error(`Invalid partner configuration:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  }
  return config;
}
