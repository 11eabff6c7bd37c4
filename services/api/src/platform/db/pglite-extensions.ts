import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * The contrib extensions the migrations create (pg_trgm for lookups). Every PGlite this app opens
 * must be created with them, or queries touching their indexes fail.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };
