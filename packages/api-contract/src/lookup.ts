import { Type, type Static } from '@sinclair/typebox';

/** docs/data-model.md autocomplete categories: high schools and colleges by CEEB code, and addresses. */
export const LOOKUP_CATEGORIES = ['hs_ceeb', 'college_ceeb', 'address'] as const;
export type LookupCategory = (typeof LOOKUP_CATEGORIES)[number];

export function isLookupCategory(value: string): value is LookupCategory {
  return (LOOKUP_CATEGORIES as readonly string[]).includes(value);
}

/** docs/limits.md: at most 5 results; a larger max_results is clamped, not refused. */
export const LOOKUP_MAX_RESULTS = 5;
/** Longer search text is refused (400): nobody types 200 characters into an autocomplete. */
export const LOOKUP_TEXT_MAX_LENGTH = 200;
export const LOOKUP_ID_MAX_LENGTH = 300;

export const LOOKUP_MESSAGES = {
  unknownCategory: 'Unknown lookup category. Use one of: hs_ceeb, college_ceeb, address.',
  textOrId: 'Give either text (to search) or id (to fetch one record), not both.',
  notFound: 'No lookup record has this id.',
} as const;

/**
 * GET /lookup/find. `category` is a plain string so an unknown one gets a clear message from the
 * server instead of a schema error; text length is bounded here.
 */
export const LookupQuery = Type.Object(
  {
    category: Type.String({ maxLength: 40 }),
    text: Type.Optional(Type.String({ maxLength: LOOKUP_TEXT_MAX_LENGTH })),
    id: Type.Optional(Type.String({ minLength: 1, maxLength: LOOKUP_ID_MAX_LENGTH })),
    max_results: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
export type LookupQuery = Static<typeof LookupQuery>;

/** One suggestion: `text` is what the applicant sees and picks, `sub_text` the line under it. */
export const LookupItem = Type.Object(
  { id: Type.String(), text: Type.String(), sub_text: Type.String() },
  { additionalProperties: false },
);
export type LookupItem = Static<typeof LookupItem>;

export const LookupItems = Type.Array(LookupItem, { maxItems: LOOKUP_MAX_RESULTS });
export type LookupItems = Static<typeof LookupItems>;

const addressFields = {
  address_line_1: Type.String(),
  city: Type.String(),
  /** USPS / ISO 3166-2 subdivision code, as the state select stores it. */
  state: Type.String(),
  state_desc: Type.String(),
  zip: Type.String(),
  /** ISO 3166-1 alpha-3, as the country select stores it. */
  country: Type.String(),
  country_desc: Type.String(),
};

/**
 * A school fetched by id (hs_ceeb, college_ceeb). Field names are the question-key suffixes, so
 * the SPA writes `name` into `hs_name`, `ceeb` into `hs_ceeb`, `city` into `hs_city`, …; the
 * `_desc` fields are the companions of the state and country selects.
 */
export const SchoolRecord = Type.Object(
  { id: Type.String(), name: Type.String(), ceeb: Type.String(), ...addressFields },
  { additionalProperties: false },
);
export type SchoolRecord = Static<typeof SchoolRecord>;

/**
 * An address fetched by id: fills city, state, zip, country, and the street lines when the
 * provider knows them. A place found from a city or a ZIP code has no street, so it carries no
 * address lines at all rather than empty ones that would read as "erase what was typed".
 */
export const AddressRecord = Type.Object(
  {
    id: Type.String(),
    ...addressFields,
    address_line_1: Type.Optional(Type.String()),
    address_line_2: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type AddressRecord = Static<typeof AddressRecord>;

export const LookupRecord = Type.Union([SchoolRecord, AddressRecord]);
export type LookupRecord = Static<typeof LookupRecord>;

/** A search answers a list; a fetch by id answers one record. */
export const LookupResponse = Type.Union([LookupItems, SchoolRecord, AddressRecord]);
export type LookupResponse = Static<typeof LookupResponse>;
