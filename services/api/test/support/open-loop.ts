// Open-loop load for the benchmarks: requests leave on a schedule fixed before the run, whatever
// the answers, and latency counts from each request's scheduled time. A closed loop (autocannon,
// one request in flight per connection, with or without its rate options) waits for an answer
// before the next request, so a slow server is sent less and its slowness never shows in the
// latency (coordinated omission). Shared by bench/autosave-bench.ts and bench/deadline-bench.ts.
// No vitest import: the benchmarks use it.
import http from 'node:http';

export interface SentResponse {
  /** HTTP status; 0 when no answer came (connection error or time-out, see `body`). */
  status: number;
  /** The response body (a refusal's `{message, code}`), or the error's name. */
  body: string;
  /**
   * Date.now() when the whole request had been handed to the operating system (the request's
   * 'finish'), or when it was asked for if it never was: the client's send time. A busy load
   * generator writes later than it asks, and a request judged against a deadline must be judged
   * by when it really left.
   */
  sentAt: number;
}

/**
 * One request on a keep-alive agent (an open loop must not wait for a socket per request); the
 * body is read whole, so a refusal's code can be told apart. Never rejects.
 */
export function sendRequest(
  agent: http.Agent,
  target: string,
  options: { method: string; cookie?: string; body?: string; timeoutMs?: number },
): Promise<SentResponse> {
  return new Promise((resolve) => {
    let sentAt = Date.now();
    // The SPA's headers (fetch-handler.ts): the request guard refuses a write without the JSON
    // type (415), an empty POST /api/submit included.
    const headers: Record<string, string | number> = {
      accept: 'application/json',
      'content-type': 'application/json',
      // Without a length Node would send even an empty POST body chunked.
      'content-length': Buffer.byteLength(options.body ?? ''),
    };
    if (options.cookie) headers.cookie = options.cookie;
    const request = http.request(target, { method: options.method, agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          sentAt,
        }),
      );
      response.once('error', (error) => resolve({ status: 0, body: error.name, sentAt }));
    });
    request.setTimeout(options.timeoutMs ?? 30_000, () =>
      request.destroy(Object.assign(new Error('timed out'), { name: 'TimeoutError' })),
    );
    request.once('finish', () => (sentAt = Date.now()));
    request.once('error', (error) => resolve({ status: 0, body: error.name, sentAt }));
    request.end(options.body);
  });
}

/** The `code` of a refusal's `{message, code}` body, or '' when there is none. */
export function readErrorCode(body: string): string {
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    return typeof parsed.code === 'string' ? parsed.code : '';
  } catch {
    return '';
  }
}

export interface ScheduledSend {
  /** When it is due, on performance.now()'s clock. */
  at: number;
  /** Starts the request (without waiting for it); called at `at` or as soon after as possible. */
  fire: () => void;
}

export interface ScheduleRun {
  /** How late each fire() was called after its `at` (ms): the load generator's own lag. */
  lateness: number[];
}

/**
 * Calls every `fire` at its time (sorted by `at` here). Whatever is due is fired at once, in a
 * burst when the generator fell behind; latency measured from `at` still counts that delay.
 */
export async function runSchedule(sends: ScheduledSend[]): Promise<ScheduleRun> {
  const sorted = [...sends].sort((a, b) => a.at - b.at);
  const lateness: number[] = [];
  for (const send of sorted) {
    const wait = send.at - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    lateness.push(Math.max(0, performance.now() - send.at));
    send.fire();
  }
  return { lateness };
}
