import { PGlite, parse, protocol } from '@electric-sql/pglite';
// The drizzle handle's own type, not connect.ts's RootDb: connect.ts runs these on PGlite, so
// naming its type here would close a circle.
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/** The database itself (connect.ts's RootDb satisfies it), never a transaction: see runPrepared. */
type PreparedHandle = PgDatabase<PgQueryResultHKT> & { readonly $client: unknown };

/**
 * A statement of fixed text that runs on every request (the session check, the autosave, the
 * profile), sent as a named prepared statement: the database parses and plans it once per
 * connection instead of once per request. On PGlite, where the whole process shares one engine,
 * a request's statement through the ordinary query path costs a parse, two describes and five
 * round trips into the engine; the prepared one is one round trip (the session check: ~0.5 ms of
 * CPU down to ~0.1 ms).
 */
export interface PreparedStatement {
  /** Unique in the process: the database knows the statement by this name. */
  readonly name: string;
  readonly text: string;
}

export type PreparedValue = string | number | Date | null;

export function prepareStatement(name: string, text: string): PreparedStatement {
  return { name, text };
}

interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** What each PGlite engine has prepared (it keeps it for its lifetime): parameter types by name. */
const preparedOnPglite = new WeakMap<PGlite, Map<string, number[]>>();

// "prepared statement … does not exist": something in the shared session dropped it (DISCARD
// or DEALLOCATE through the CLI socket); prepared again once.
const UNDEFINED_STATEMENT = '26000';

function concatenate(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function preparedOn(client: PGlite): Map<string, number[]> {
  let prepared = preparedOnPglite.get(client);
  if (!prepared) {
    prepared = new Map();
    preparedOnPglite.set(client, prepared);
  }
  return prepared;
}

async function runNamedOnce<Row>(
  client: PGlite,
  name: string,
  text: string,
  values: readonly unknown[],
): Promise<Row[]> {
  const prepared = preparedOn(client);
  const { serialize } = protocol;
  // The same two locks PGlite's own query() takes: the transaction lock keeps the statement out
  // of another caller's open transaction, the query lock off the engine while it is busy.
  return client._runExclusiveTransaction(() =>
    client._runExclusiveQuery(async () => {
      let types = prepared.get(name);
      if (!types) {
        const described = await client.execProtocol(
          concatenate([
            serialize.parse({ name, text }),
            serialize.describe({ type: 'S', name }),
            serialize.sync(),
          ]),
          { syncToFs: false },
        );
        types = parse.parseDescribeStatementResults(described.messages);
        prepared.set(name, types);
      }
      const parameterTypes = types;
      // Each value as PGlite's query() sends it: by the type the database inferred for it.
      const texts = values.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = client.serializers[parameterTypes[i] ?? 0];
        return serializer ? serializer(value) : String(value);
      });
      const { messages } = await client.execProtocol(
        concatenate([
          serialize.bind({ statement: name, values: texts }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      await client.syncToFs();
      return (parse.parseResults(messages, client.parsers)[0]?.rows ?? []) as Row[];
    }),
  );
}

/**
 * Runs `text` on PGlite as the prepared statement `name` (prepared on first use), its `values`
 * serialized as PGlite's query() serializes them; the rows, parsed as query() parses them.
 */
export async function runNamedOnPglite<Row>(
  client: PGlite,
  name: string,
  text: string,
  values: readonly unknown[],
): Promise<Row[]> {
  try {
    return await runNamedOnce<Row>(client, name, text, values);
  } catch (error) {
    if ((error as { code?: unknown }).code !== UNDEFINED_STATEMENT) throw error;
    preparedOn(client).delete(name);
    return runNamedOnce<Row>(client, name, text, values);
  }
}

/** How many statements runNamedOnPglite has prepared on `client`. */
export function countPreparedOnPglite(client: PGlite): number {
  return preparedOnPglite.get(client)?.size ?? 0;
}

/**
 * Runs `statement` with `values` ($1, $2, …) on whichever driver `db` wraps; the rows it returns.
 * The database itself, not a transaction: the statement goes to the driver's client.
 */
export async function runPrepared<Row>(
  db: PreparedHandle,
  statement: PreparedStatement,
  values: readonly PreparedValue[],
): Promise<Row[]> {
  const client = db.$client;
  if (client instanceof PGlite) {
    return runNamedOnPglite<Row>(client, statement.name, statement.text, values);
  }
  // node-postgres prepares a named statement once per connection and reuses it after.
  const result = await (client as PgQueryable).query({
    name: statement.name,
    text: statement.text,
    values: values as unknown[],
  });
  return result.rows as Row[];
}
