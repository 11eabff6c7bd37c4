// The least server the autosave benchmark compares the API with (issue #19): Fastify 5 and pg,
// nothing else — no logger, hooks, schemas or plugins — running the statements the API runs for
// PUT /api/answer and GET /api/profile on the same database and sessions, as named prepared
// statements like the API's: the session read (and, at most once a minute, the idle timer's
// slide), then the JSONB merge or the profile query.
// Started as its own process (one per PORT) by bench/autosave-bench.ts.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

const SESSION_SQL = `
  SELECT s.user_id, u.email, s.last_seen_at FROM sessions s JOIN users u ON u.id = s.user_id
  WHERE s.id_hash = $1 AND s.revoked_at IS NULL AND s.last_seen_at > $2 AND s.expires_at > $3`;

const SLIDE_SQL = `
  UPDATE sessions SET last_seen_at = $2
  WHERE id_hash = $1 AND revoked_at IS NULL AND last_seen_at <= $3`;

const SAVE_SQL = `
  UPDATE applications SET answer = answer || $1::jsonb, version = version + 1, updated_at = $2
  WHERE user_id = $3 AND submitted_at IS NULL RETURNING user_id`;

const PROFILE_SQL = `
  SELECT a.answer::text AS answer, json_build_object(
    'document_answer', COALESCE((SELECT json_object_agg(d.answer_key,
      json_build_object('file_name', d.file_name, 'file_size', d.file_size))
      FROM document_answers d WHERE d.user_id = a.user_id), '{}'::json),
    'username', u.email, 'last_page', a.last_page,
    'successful_login', COALESCE((SELECT json_agg(to_char(l.at AT TIME ZONE 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ORDER BY l.at)
      FROM successful_logins l WHERE l.user_id = a.user_id), '[]'::json),
    'web_status', COALESCE((SELECT json_agg(json_build_object('web_status', s.status) ORDER BY s.n)
      FROM unnest(a.web_status) WITH ORDINALITY AS s(status, n)), '[]'::json)
  )::text AS rest
  FROM applications a JOIN users u ON u.id = a.user_id WHERE a.user_id = $1`;

async function findUser(cookieHeader: string | undefined): Promise<string | null> {
  const token = /(?:^|;\s*)sid=([^;]+)/.exec(cookieHeader ?? '')?.[1];
  if (!token) return null;
  const now = Date.now();
  const idHash = createHash('sha256').update(decodeURIComponent(token)).digest('hex');
  const { rows } = await pool.query<{ user_id: string; last_seen_at: Date }>({
    name: 'session',
    text: SESSION_SQL,
    values: [idHash, new Date(now - 15 * 60_000), new Date(now)],
  });
  const row = rows[0];
  if (!row) return null;
  if (row.last_seen_at.getTime() <= now - 60_000) {
    await pool.query({
      name: 'slide',
      text: SLIDE_SQL,
      values: [idHash, new Date(now), new Date(now - 60_000)],
    });
  }
  return row.user_id;
}

app.put('/api/answer', async (request, reply) => {
  const userId = await findUser(request.headers.cookie);
  if (!userId) return reply.code(401).send({ message: 'session' });
  await pool.query({
    name: 'save',
    text: SAVE_SQL,
    values: [JSON.stringify(request.body), new Date(), userId],
  });
  return { message: 'Your answers were saved.' };
});

app.get('/api/profile', async (request, reply) => {
  const userId = await findUser(request.headers.cookie);
  if (!userId) return reply.code(401).send({ message: 'session' });
  const { rows } = await pool.query<{ answer: string; rest: string }>({
    name: 'profile',
    text: PROFILE_SQL,
    values: [userId],
  });
  const row = rows[0]!;
  return reply.type('application/json').send(`{"answer":${row.answer},${row.rest.slice(1)}`);
});

app.get('/health', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
// Exit on SIGTERM as the API does (a profile taken with --cpu-prof is written at exit).
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .finally(() => process.exit(0));
});
