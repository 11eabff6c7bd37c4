import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RunningServer } from './server';

// The CLI's staff commands as an operator runs them, against the test server's configuration.

export interface PrintedLink {
  /** The URL the command printed, as given (PUBLIC_URL is the test server's base URL). */
  url: string;
  /** The token inside it. */
  token: string;
}

function findLink(output: string, pathname: string, param: string): PrintedLink {
  for (const word of output.split(/\s+/)) {
    if (!/^https?:\/\//.test(word)) continue;
    const url = new URL(word);
    const token = url.searchParams.get(param);
    if (url.pathname === pathname && token) return { url: word, token };
  }
  throw new Error(`No ${pathname}?${param}=… link in the command's output:\n${output}`);
}

/** `npm run cli -- service-token --email E [--ttl T]` → the print-view link it prints. */
export async function mintServiceToken(
  server: RunningServer,
  email: string,
  ttl?: string,
): Promise<PrintedLink> {
  const args = ['service-token', '--email', email, ...(ttl ? ['--ttl', ttl] : [])];
  const { stdout } = await server.runCli(args);
  const link = findLink(stdout, '/print', 'service_token');
  if (!stdout.includes(link.token)) throw new Error('The token is not printed on its own');
  return link;
}

/** `npm run cli -- prefill --file answers.json [--ttl T]` → the /about?token=… link it prints. */
export async function createPrefillLink(
  server: RunningServer,
  answers: Readonly<Record<string, string>>,
  ttl?: string,
): Promise<PrintedLink> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-prefill-'));
  try {
    const file = path.join(dir, 'answers.json');
    await writeFile(file, JSON.stringify(answers));
    const { stdout } = await server.runCli([
      'prefill',
      '--file',
      file,
      ...(ttl ? ['--ttl', ttl] : []),
    ]);
    return findLink(stdout, '/about', 'token');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
