// The load of issue #9, shared by bench/load-bench.ts (100 connections, 60 s) and the short CI
// version test/load.test.ts: applicants seeded through the real HTTP routes, schools imported
// through the CLI, then autocannon with a request mix of 70% PUT /api/answer, 20% GET
// /api/profile and 10% GET /lookup/find, one applicant (one session) per connection, and
// afterwards a read-back of every applicant's answers against what the server acknowledged.
// No vitest import: the benchmark uses it too.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import autocannon from 'autocannon';
import {
  APPLICATION_DEFINITION,
  DEFAULT_PARTNER,
  buildAnswerPatch,
  compileDefinition,
  maxLengthFor,
} from '@admissions/form';
import { COMPLETE_FIXTURE } from '@admissions/answer-view/fixtures';
import { API_ROUTES, ENDPOINT_ROUTES, routePath } from '@admissions/api-contract';
import { generateSchools } from '../../bench/lookup-bench-data';
import { AnswerLedger } from './answer-ledger';
import type { ProcessStack } from './process-stack';

export const LOAD_PASSWORD = 'Cobalt-Lantern-River-58';

/** The per-IP limits raised for a run: every connection comes from 127.0.0.1. */
export const LOAD_RATE_LIMIT_ENV: Record<string, string> = {
  // Sign-up, confirm and login of every applicant: each public route counts separately.
  PUBLIC_RATE_LIMIT: '100000',
  GLOBAL_RATE_LIMIT: '10000000',
  LOOKUP_RATE_LIMIT: '1000000',
  // Each connection is one applicant saving without pause, far past a person's pace.
  ACCOUNT_RATE_LIMIT: '10000000',
};

export interface Applicant {
  email: string;
  /** `name=value; …` of the cookies login set (the `sid` session and the login marker). */
  cookie: string;
  /** The API process this applicant's connection talks to. */
  url: string;
}

export type RouteName = 'PUT /api/answer' | 'GET /api/profile' | 'GET /lookup/find';
export const ROUTE_NAMES: readonly RouteName[] = [
  'PUT /api/answer',
  'GET /api/profile',
  'GET /lookup/find',
];

export interface RouteStats {
  /** Responses received, by status code. */
  statuses: Map<number, number>;
  /** Milliseconds from building the request to its response (one request in flight per connection). */
  latencies: number[];
}

export interface LoadOutcome {
  result: autocannon.Result;
  routes: Map<RouteName, RouteStats>;
  /** What each applicant's answers must read back as (see verifyAcknowledgedWrites). */
  ledgers: Map<string, ApplicantLedger>;
}

/** One applicant's connection and what their answers must read back as. */
export interface ApplicantLedger {
  applicant: Applicant;
  answers: AnswerLedger;
}

/** Deterministic, so two runs send the same kind of traffic. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}

function cookieHeaderOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';', 1)[0]!)
    .filter((pair) => !pair.endsWith('='))
    .join('; ');
}

async function postJson(url: string, body: unknown, cookie?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
}

/** Runs `task` over `items`, at most `limit` at a time. */
export async function runLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

/**
 * Signs up `count` applicants, reads each confirmation code from the outbox (written by the
 * worker process), confirms, logs in and saves a whole application (COMPLETE_FIXTURE) — the real
 * routes, spread over every API process. Applicant i is served by API process i mod n.
 */
export async function seedApplicants(
  stack: Pick<ProcessStack, 'urls' | 'readOutbox'>,
  count: number,
  { concurrency = 8, mailTimeoutMs = 120_000 } = {},
): Promise<Applicant[]> {
  const runId = `${process.pid}-${Date.now().toString(36)}`;
  const planned = Array.from({ length: count }, (_, i) => ({
    email: `load-${runId}-${i}@example.edu`,
    url: stack.urls[i % stack.urls.length]!,
  }));
  await runLimited(planned, concurrency, async ({ email, url }) => {
    const response = await postJson(`${url}${API_ROUTES.signup}`, {
      username: email,
      password: LOAD_PASSWORD,
    });
    if (response.status !== 200)
      throw new Error(`signup ${response.status}: ${await response.text()}`);
  });

  const codes = new Map<string, string>();
  const deadline = Date.now() + mailTimeoutMs;
  while (codes.size < count) {
    for (const message of await stack.readOutbox()) {
      const code = /confirmation code is (\d{6})/.exec(message.text)?.[1];
      if (code) codes.set(message.to, code);
    }
    if (codes.size >= count) break;
    if (Date.now() > deadline) throw new Error(`only ${codes.size} of ${count} codes arrived`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  const applicants: Applicant[] = [];
  await runLimited(planned, concurrency, async ({ email, url }) => {
    const code = codes.get(email);
    const confirmed = await postJson(`${url}${API_ROUTES.confirm}`, { username: email, code });
    if (confirmed.status !== 200) throw new Error(`confirm ${confirmed.status}`);
    const login = await postJson(`${url}${API_ROUTES.login}`, {
      username: email,
      password: LOAD_PASSWORD,
    });
    if (login.status !== 200) throw new Error(`login ${login.status}: ${await login.text()}`);
    const cookie = cookieHeaderOf(login);
    const saved = await fetch(`${url}${API_ROUTES.answer}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(COMPLETE_FIXTURE.answers),
    });
    if (saved.status !== 200)
      throw new Error(`seed answers ${saved.status}: ${await saved.text()}`);
    applicants.push({ email, cookie, url });
  });
  return applicants;
}

/** How the applications of prepareCompleteApplications came to be in their round. */
export type RoundChoice = 'chosen' | 'no rounds in this service';

/** One request of seeding; a 503 (load shedding on a busy machine) is retried as a client would. */
async function sendAsApplicant(
  applicant: Applicant,
  method: string,
  route: string,
  body?: unknown,
): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${applicant.url}${route}`, {
      method,
      headers: {
        cookie: applicant.cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status !== 503 || attempt === 10) return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
  }
}

async function expectOk(what: string, response: Promise<Response>): Promise<void> {
  const answered = await response;
  if (answered.status !== 200) {
    throw new Error(`${what}: ${answered.status} ${await answered.text()}`);
  }
}

/**
 * Each applicant's application made complete through the real routes, as the SPA leaves it
 * before a submit: the first GET /api/profile (which opens the application), PUT
 * /api/application with `round` when one is given (issue #29: start it in that round), then the
 * answers, the chosen tabs and the add-another counts of COMPLETE_FIXTURE, so that POST
 * /api/submit validates and the PDF shows every block. A service without PUT /api/application
 * (before #29) answers 404 NOT_FOUND, not ROUND_NOT_FOUND: the applications stay where the service put them and
 * the result says so.
 */
export async function prepareCompleteApplications(
  applicants: readonly Applicant[],
  {
    round,
    forSubmit = true,
    concurrency = 16,
  }: {
    round?: string;
    /** Also the tabs and add-another counts (false: the answers alone, enough for saving). */
    forSubmit?: boolean;
    concurrency?: number;
  } = {},
): Promise<RoundChoice> {
  let choice: RoundChoice = 'chosen';
  const { tabs, addAnother, answers } = COMPLETE_FIXTURE;
  await runLimited(applicants, concurrency, async (applicant) => {
    await expectOk('first profile read', sendAsApplicant(applicant, 'GET', API_ROUTES.profile));
    if (round !== undefined && choice === 'chosen') {
      const chosen = await sendAsApplicant(
        applicant,
        'PUT',
        routePath(ENDPOINT_ROUTES.chooseApplication),
        { round },
      );
      const text = await chosen.text();
      const parsed = JSON.parse(text || '{}') as { code?: string; current?: string | null };
      if (chosen.status === 404 && parsed.code !== 'ROUND_NOT_FOUND') {
        choice = 'no rounds in this service';
      } else if (chosen.status !== 200 || parsed.current !== round) {
        throw new Error(`choose round ${round}: ${chosen.status} ${text}`);
      }
    }
    await expectOk(
      'complete answers',
      sendAsApplicant(applicant, 'PUT', API_ROUTES.answer, answers),
    );
    if (!forSubmit) return;
    await Promise.all([
      ...Object.entries(tabs).map(([tabId, chosenTab]) =>
        expectOk(
          `tab ${tabId}`,
          sendAsApplicant(applicant, 'PUT', routePath(ENDPOINT_ROUTES.chooseTab), {
            tab_id: tabId,
            chosen_tab: chosenTab,
          }),
        ),
      ),
      ...Object.entries(addAnother).map(([buttonId, count]) =>
        expectOk(
          `add-another ${buttonId}`,
          sendAsApplicant(applicant, 'PUT', routePath(ENDPOINT_ROUTES.saveAddAnother), {
            button_id: buttonId,
            num_components: count,
          }),
        ),
      ),
    ]);
  });
  return choice;
}

/**
 * Imports `count` generated schools (bench/lookup-bench-data.ts) with `npm run cli -- lookup
 * import`, and returns what applicants type into the school field: beginnings of those names.
 */
export async function importSchools(stack: ProcessStack, count: number): Promise<string[]> {
  const rows = generateSchools().slice(0, count);
  const columns = ['code', 'name', 'street', 'city', 'state', 'zip', 'country'] as const;
  const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;
  const csv = [
    columns.join(','),
    ...rows.map((row) => columns.map((c) => quote(row.values[c] ?? '')).join(',')),
  ].join('\n');
  const file = path.join(stack.dataDir, 'schools.csv');
  await writeFile(file, `${csv}\n`);
  await stack.runCli(['lookup', 'import', '--category', 'hs_ceeb', '--file', file]);
  const random = createRandom(7);
  return Array.from({ length: 500 }, () => {
    const name = rows[Math.floor(random() * rows.length)]!.values.name ?? 'a';
    return name.slice(0, 2 + Math.floor(random() * 8));
  });
}

interface AnswerChoice {
  key: string;
  /** Text questions get a new value on every save; choices keep their real (fixture) value. */
  varies: boolean;
  limit: number;
  /** The whole patch the SPA sends for this change (value, `_desc` companion, cleared dependents). */
  patch: Record<string, string>;
}

/** The fields an applicant edits: every question value of the complete fixture. */
function listAnswerChoices(): AnswerChoice[] {
  const { byAnswerKey } = compileDefinition(APPLICATION_DEFINITION);
  const answers = COMPLETE_FIXTURE.answers;
  const choices: AnswerChoice[] = [];
  for (const [key, value] of Object.entries(answers)) {
    const found = byAnswerKey.get(key);
    if (!found || found.owned.role !== 'value' || value === '') continue;
    const { type } = found.entry.question;
    if (type === 'file') continue;
    choices.push({
      key,
      varies: type === 'text' || type === 'textarea',
      limit: maxLengthFor(key, DEFAULT_PARTNER) ?? 45,
      patch: buildAnswerPatch(APPLICATION_DEFINITION, key, value, {
        answers,
        now: new Date(),
        partner: DEFAULT_PARTNER,
      }),
    });
  }
  return choices;
}

/**
 * The patches of an applicant editing a complete application, one field at a time, as the SPA
 * sends them (buildAnswerPatch: value, `_desc` companion, cleared dependents); text answers get a
 * new value on every call, so each save changes what is stored.
 */
export function createSavePatchMaker(random: () => number): () => Record<string, string> {
  const choices = listAnswerChoices();
  let saves = 0;
  return () => {
    const choice = choices[Math.floor(random() * choices.length)]!;
    const patch = { ...choice.patch };
    if (choice.varies) {
      // Never longer than the field: from save 36^3 on the mark is 6 characters, more than a
      // 5-character TOEFL score holds (0.16 % of the saves answered 400 once the API made that
      // many in a run).
      const mark = ` #${(++saves).toString(36)}`.slice(-choice.limit);
      patch[choice.key] = `${patch[choice.key]!.slice(0, choice.limit - mark.length)}${mark}`;
    }
    return patch;
  };
}

export interface LoadOptions {
  applicants: readonly Applicant[];
  /** Default: one per applicant. */
  connections?: number;
  durationS: number;
  /** School name prefixes for the lookups (importSchools). */
  lookupTexts: readonly string[];
  seed?: number;
  /** Shares of saves and profile reads (the rest are lookups); default 0.7 and 0.2. */
  mix?: { save: number; profile: number };
}

/**
 * autocannon against every API process at once: connection i belongs to applicant i (its own
 * session cookie) and talks to that applicant's API process, one request in flight at a time.
 * Each request is drawn at random: 70% PUT /api/answer (one field changed, as the SPA saves it),
 * 20% GET /api/profile, 10% GET /lookup/find?category=hs_ceeb&text=<prefix>&max_results=5.
 */
export async function runLoad(options: LoadOptions): Promise<LoadOutcome> {
  const connections = options.connections ?? options.applicants.length;
  if (connections > options.applicants.length) {
    throw new Error(`${connections} connections need as many applicants`);
  }
  const urls = [...new Set(options.applicants.map((a) => a.url))];
  // autocannon gives connection i to urls[i mod n]; order the applicants the same way.
  const byUrl = urls.map((url) => options.applicants.filter((a) => a.url === url));
  const perConnection = Array.from(
    { length: connections },
    (_, i) => byUrl[i % urls.length]![Math.floor(i / urls.length)],
  );
  if (perConnection.some((a) => a === undefined)) {
    throw new Error('applicants must be spread evenly over the API processes');
  }

  const random = createRandom(options.seed ?? 20_261_122);
  const saveShare = options.mix?.save ?? 0.7;
  const profileShare = saveShare + (options.mix?.profile ?? 0.2);
  const createSavePatch = createSavePatchMaker(random);
  const routes = new Map<RouteName, RouteStats>(
    ROUTE_NAMES.map((name) => [name, { statuses: new Map(), latencies: [] }]),
  );
  const ledgers = new Map<string, ApplicantLedger>();
  let nextConnection = 0;

  const requestsFor = (applicant: Applicant): autocannon.Request[] => {
    // Seeding saved the complete application: those answers are acknowledged already.
    const ledger = new AnswerLedger(COMPLETE_FIXTURE.answers);
    ledgers.set(applicant.email, { applicant, answers: ledger });
    let inFlight: { route: RouteName; started: number; patch?: Record<string, string> } | null =
      null;
    const headers = { cookie: applicant.cookie, accept: 'application/json' };
    return [
      {
        setupRequest: (request) => {
          const draw = random();
          if (draw < saveShare) {
            const patch = createSavePatch();
            inFlight = { route: 'PUT /api/answer', started: performance.now(), patch };
            ledger.recordSent(patch);
            return {
              ...request,
              method: 'PUT',
              path: API_ROUTES.answer,
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify(patch),
            };
          }
          if (draw < profileShare) {
            inFlight = { route: 'GET /api/profile', started: performance.now() };
            return { ...request, method: 'GET', path: API_ROUTES.profile, headers: { ...headers } };
          }
          const text = options.lookupTexts[Math.floor(random() * options.lookupTexts.length)]!;
          inFlight = { route: 'GET /lookup/find', started: performance.now() };
          const query = new URLSearchParams({ category: 'hs_ceeb', text, max_results: '5' });
          return {
            ...request,
            method: 'GET',
            path: `${API_ROUTES.lookupFind}?${query}`,
            headers: { ...headers },
          };
        },
        onResponse: (status) => {
          if (!inFlight) return;
          const stats = routes.get(inFlight.route)!;
          stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
          stats.latencies.push(performance.now() - inFlight.started);
          if (inFlight.patch && status >= 200 && status < 300) {
            ledger.recordAcknowledged(inFlight.patch);
          }
          inFlight = null;
        },
      },
    ];
  };

  const instance = autocannon({
    // autocannon takes several URLs (documented; @types/autocannon only knows one string).
    url: urls as unknown as string,
    connections,
    duration: options.durationS,
    pipelining: 1,
    // Replaced per connection in setupClient before anything is sent.
    requests: [{ method: 'GET', path: '/health' }],
    setupClient: (client) => {
      client.setRequests(requestsFor(perConnection[nextConnection++ % connections]!));
    },
  });
  const result = await instance;
  return { result, routes, ledgers };
}

export interface WriteCheck {
  applicants: number;
  /** Answer keys compared. */
  keys: number;
  /** Keys whose stored value is neither the last acknowledged one nor one sent after it. */
  lost: { email: string; key: string; expected: string; actual: string | undefined }[];
}

/** Reads every applicant's answers (GET /api/profile) and compares them with the ledger. */
export async function verifyAcknowledgedWrites(
  ledgers: ReadonlyMap<string, ApplicantLedger>,
): Promise<WriteCheck> {
  const check: WriteCheck = { applicants: 0, keys: 0, lost: [] };
  await runLimited([...ledgers.values()], 8, async ({ applicant, answers }) => {
    const response = await fetch(`${applicant.url}${API_ROUTES.profile}`, {
      headers: { cookie: applicant.cookie },
    });
    if (response.status !== 200) throw new Error(`read-back ${response.status}`);
    const stored = ((await response.json()) as { answer: Record<string, string> }).answer;
    check.applicants++;
    check.keys += answers.size;
    for (const lost of answers.findLost(stored))
      check.lost.push({ email: applicant.email, ...lost });
  });
  return check;
}
