/**
 * The countries (ISO 3166-1 alpha-2) whose subdivisions the form lists: US states, Canadian
 * provinces. The SPA's build keeps only these countries' entries of the ISO 3166-2 data, which
 * is otherwise most of the application's JavaScript (apps/web/build-tools/trim-subdivisions.ts),
 * so listing another country's subdivisions starts here.
 */
export const SUBDIVISION_COUNTRIES = ['US', 'CA'] as const;

export type SubdivisionCountry = (typeof SUBDIVISION_COUNTRIES)[number];
