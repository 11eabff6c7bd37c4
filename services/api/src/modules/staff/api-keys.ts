// Campus systems' client credentials: `sk_<43 base64url>`, shown once by the CLI, kept only as
// SHA-256 (a 256-bit random key needs no slow hash), scoped read | export, revocable.
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/connect';
import { staffApiKeys } from './schema';
import { generateToken, hashToken } from '../../platform/lib/crypto';

export const API_KEY_SCOPES = ['read', 'export', 'write-ids'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
const KEY_PATTERN = /^sk_[A-Za-z0-9_-]{43}$/;

export async function createApiKey(
  db: Db,
  input: { name: string; scope: ApiKeyScope; now: Date },
): Promise<{ id: string; key: string }> {
  const key = `sk_${generateToken()}`;
  const [row] = await db
    .insert(staffApiKeys)
    .values({ name: input.name, scope: input.scope, keyHash: hashToken(key), createdAt: input.now })
    .returning({ id: staffApiKeys.id });
  if (!row) throw new Error('API key not stored');
  return { id: row.id, key };
}

export async function revokeApiKey(db: Db, id: string, now: Date): Promise<boolean> {
  const updated = await db
    .update(staffApiKeys)
    .set({ revokedAt: now })
    .where(and(eq(staffApiKeys.id, id), isNull(staffApiKeys.revokedAt)))
    .returning({ id: staffApiKeys.id });
  return updated.length > 0;
}

export async function listApiKeys(db: Db) {
  return db
    .select({
      id: staffApiKeys.id,
      name: staffApiKeys.name,
      scope: staffApiKeys.scope,
      createdAt: staffApiKeys.createdAt,
      revokedAt: staffApiKeys.revokedAt,
      lastUsedAt: staffApiKeys.lastUsedAt,
    })
    .from(staffApiKeys)
    .orderBy(asc(staffApiKeys.createdAt));
}

/** The live key's id and scope, or null (unknown, malformed or revoked). */
export async function verifyApiKey(
  db: Db,
  presented: string,
  now: Date,
): Promise<{ id: string; name: string; scope: ApiKeyScope } | null> {
  if (!KEY_PATTERN.test(presented)) return null;
  const rows = await db
    .update(staffApiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(staffApiKeys.keyHash, hashToken(presented)), isNull(staffApiKeys.revokedAt)))
    .returning({ id: staffApiKeys.id, name: staffApiKeys.name, scope: staffApiKeys.scope });
  const row = rows[0];
  return row ? { id: row.id, name: row.name, scope: row.scope as ApiKeyScope } : null;
}

/**
 * Whether the key is still live (not revoked): read on every use of a service token it minted,
 * so revoking a key stops its tokens at once rather than when they expire.
 */
export async function isApiKeyLive(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: staffApiKeys.id })
    .from(staffApiKeys)
    .where(and(eq(staffApiKeys.id, id), isNull(staffApiKeys.revokedAt)))
    .limit(1);
  return rows.length > 0;
}
