import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { ConverterUnavailableError } from '../conversion-errors';
import { locateEntry } from '../../../../platform/service-root';

export const SOFFICE_BIN = '/usr/lib/libreoffice/program/soffice.bin';
/** Debian's interpreter: the one that has python3-uno (a pyenv python3 on PATH does not). */
export const PYTHON_BIN = '/usr/bin/python3';
// Beside this file in src/, copied into dist/ by the build.
const BRIDGE_SCRIPT = locateEntry('src/modules/documents/conversion/libreoffice/uno-bridge.py');

// A fresh profile that never updates links or fields on load, never runs macros and refuses
// linked content from untrusted places (the CVE-2020-27603 pattern). The load properties in the
// bridge say the same; this is the second lock.
export const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Field" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Chart" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseLocking" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`;

export class OfficeCrashedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OfficeCrashedError';
  }
}

export class OfficeTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`LibreOffice did not finish within ${timeoutMs} ms`);
    this.name = 'OfficeTimeoutError';
  }
}

/** No LibreOffice could be started (or the pool is closed): the service's failure, not the document's. */
/** No LibreOffice could be started: the service's failure, retried by the job (not the document's). */
export class OfficeUnavailableError extends ConverterUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OfficeUnavailableError';
  }
}

/** The document was refused by LibreOffice itself (it could not be opened or stored). */
export class OfficeDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OfficeDocumentError';
  }
}

interface BridgeReply {
  id?: number;
  ok?: boolean;
  ready?: boolean;
  fatal?: boolean;
  error?: string;
}

let canUnshare: boolean | undefined;
/** `unshare -n` (a network namespace with nothing in it) needs root; without it we rely on the profile. */
export function networkIsolation(): string[] {
  if (canUnshare === undefined) {
    canUnshare = process.getuid?.() === 0 && existsSync('/usr/bin/unshare');
  }
  return canUnshare ? ['/usr/bin/unshare', '-n', '--'] : [];
}

let canSetDeathSignal: boolean | undefined;
/**
 * `setpriv --pdeathsig KILL`: the kernel kills soffice.bin the moment the process that started it
 * dies, even by SIGKILL (OOM killer, kill -9), instead of leaving an orphaned LibreOffice running.
 * It survives the exec of unshare and of soffice.bin, so the pid stays soffice.bin's. (The signal
 * follows the spawning thread; the pool lives on the main thread.)
 */
export function dieWithParent(): string[] {
  if (canSetDeathSignal === undefined) canSetDeathSignal = existsSync('/usr/bin/setpriv');
  return canSetDeathSignal ? ['/usr/bin/setpriv', '--pdeathsig', 'KILL', '--'] : [];
}

/**
 * One soffice.bin (run directly, so this process is its parent and reaps it; the soffice shell
 * wrapper and oosplash would leave orphans behind when killed) in its own process group, with its
 * own profile and TMPDIR under `root`, plus one persistent python3-uno bridge talking to it.
 */
export class OfficeProcess {
  readonly id: string;
  readonly dir: string;
  conversions = 0;
  private office?: ChildProcess;
  private bridge?: ChildProcess;
  private pending?: { id: number; resolve: (r: BridgeReply) => void };
  private nextId = 1;
  private dead = false;
  private exited: Promise<void>[] = [];

  constructor(
    root: string,
    private readonly logger: Logger,
  ) {
    this.id = randomBytes(6).toString('hex');
    this.dir = path.join(root, `office-${this.id}`);
  }

  get pipeName(): string {
    return `admissions-office-${this.id}`;
  }

  get pid(): number | undefined {
    return this.office?.pid;
  }

  async start(startTimeoutMs = 30_000): Promise<void> {
    const profile = path.join(this.dir, 'profile');
    const tmp = path.join(this.dir, 'tmp');
    await mkdir(path.join(profile, 'user'), { recursive: true });
    await mkdir(tmp, { recursive: true });
    await writeFile(path.join(profile, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    const env = { ...process.env, TMPDIR: tmp, HOME: this.dir, SAL_USE_VCLPLUGIN: 'svp' };
    this.spawnOffice(profile, env);
    const bridge = spawn(
      PYTHON_BIN,
      [BRIDGE_SCRIPT, this.pipeName, String(startTimeoutMs / 1000)],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { ...env, PYTHONDONTWRITEBYTECODE: '1' },
      },
    );
    this.bridge = bridge;
    this.exited.push(new Promise((resolve) => bridge.once('exit', () => resolve())));
    let stderr = '';
    bridge.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    bridge.once('exit', () => this.markDead(`UNO bridge exited ${stderr.trim().slice(-300)}`));
    const lines = createInterface({ input: bridge.stdout });
    let ready!: () => void;
    const readyPromise = new Promise<void>((resolve) => (ready = resolve));
    lines.on('line', (line) => {
      let reply: BridgeReply;
      try {
        reply = JSON.parse(line) as BridgeReply;
      } catch {
        return;
      }
      if (reply.ready) return ready();
      if (this.pending && reply.id === this.pending.id) {
        const { resolve } = this.pending;
        this.pending = undefined;
        resolve(reply);
      }
    });
    const failed = new Promise<never>((_, reject) => {
      const check = setInterval(() => {
        if (this.dead) {
          clearInterval(check);
          reject(new OfficeCrashedError(`LibreOffice did not start: ${stderr.trim().slice(-300)}`));
        }
      }, 50);
      void readyPromise.then(() => clearInterval(check));
    });
    try {
      await Promise.race([readyPromise, failed]);
    } catch (error) {
      await this.kill();
      throw error;
    }
  }

  /**
   * soffice.bin exits with 81 after initialising a fresh profile and expects to be started again
   * (oosplash normally does that); the bridge keeps trying to connect meanwhile.
   */
  private spawnOffice(profile: string, env: NodeJS.ProcessEnv, restarts = 0): void {
    const [cmd, ...prefix] = [...dieWithParent(), ...networkIsolation(), SOFFICE_BIN];
    const office = spawn(
      cmd!,
      [
        ...prefix,
        '--headless',
        '--invisible',
        '--nologo',
        '--norestore',
        '--nodefault',
        '--nolockcheck',
        '--nofirststartwizard',
        `-env:UserInstallation=file://${profile}`,
        `--accept=pipe,name=${this.pipeName};urp;StarOffice.ComponentContext`,
      ],
      { detached: true, stdio: 'ignore', env },
    );
    this.office = office;
    this.exited.push(new Promise((resolve) => office.once('exit', () => resolve())));
    office.once('exit', (code, signal) => {
      if (this.dead) return;
      if (code === 81 && restarts < 3) {
        this.spawnOffice(profile, env, restarts + 1);
        return;
      }
      this.logger.warn({ office: this.id, code, signal }, 'LibreOffice exited');
      this.markDead('LibreOffice exited');
    });
  }

  private markDead(reason: string) {
    if (this.dead) return;
    this.dead = true;
    const pending = this.pending;
    this.pending = undefined;
    pending?.resolve({ id: pending.id, ok: false, fatal: true, error: reason });
  }

  get alive(): boolean {
    return !this.dead;
  }

  /** Converts one file; rejects with OfficeTimeoutError/OfficeCrashedError/OfficeDocumentError. */
  async convert(input: string, output: string, filter: string, timeoutMs: number): Promise<void> {
    if (this.dead || !this.bridge?.stdin)
      throw new OfficeCrashedError('LibreOffice is not running');
    if (this.pending) throw new Error('one conversion at a time per LibreOffice process');
    const id = this.nextId++;
    this.conversions++;
    let timer: NodeJS.Timeout | undefined;
    const reply = await new Promise<BridgeReply | 'timeout'>((resolve) => {
      this.pending = { id, resolve };
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      this.bridge!.stdin!.write(`${JSON.stringify({ id, input, output, filter })}\n`);
    }).finally(() => clearTimeout(timer));
    if (reply === 'timeout') {
      this.pending = undefined;
      throw new OfficeTimeoutError(timeoutMs);
    }
    if (reply.ok) return;
    if (reply.fatal) throw new OfficeCrashedError(reply.error ?? 'LibreOffice stopped');
    throw new OfficeDocumentError(reply.error ?? 'the document could not be converted');
  }

  /** Kills the whole process group and the bridge, waits for both, removes every file. */
  async kill(): Promise<void> {
    this.dead = true;
    const office = this.office;
    if (office?.pid !== undefined && office.exitCode === null && office.signalCode === null) {
      try {
        process.kill(-office.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    if (this.bridge && this.bridge.exitCode === null && this.bridge.signalCode === null) {
      this.bridge.kill('SIGKILL');
    }
    await Promise.all(this.exited);
    await rm(this.dir, { recursive: true, force: true });
    await removeStalePipes();
  }
}

/**
 * LibreOffice's named pipes live in /tmp whatever TMPDIR says, and a killed office leaves its
 * sockets behind. Any of ours nobody listens on any more is removed.
 */
export async function removeStalePipes(): Promise<void> {
  const uid = process.getuid?.() ?? 0;
  let names: string[];
  try {
    names = await readdir('/tmp');
  } catch {
    return;
  }
  const ours = names.filter(
    (n) =>
      n.startsWith(`OSL_PIPE_${uid}_admissions-office-`) ||
      n.startsWith(`OSL_PIPE_${uid}_SingleOfficeIPC_`),
  );
  await Promise.all(
    ours.map(async (name) => {
      const file = path.join('/tmp', name);
      const live = await new Promise<boolean>((resolve) => {
        const socket = connect(file);
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (!live) await rm(file, { force: true });
    }),
  );
}
