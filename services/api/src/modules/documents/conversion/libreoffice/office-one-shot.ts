// The last resort for a document that crashed a warm LibreOffice twice: one throw-away
// `soffice.bin --convert-to pdf` with its own fresh profile, without network (unshare -n as
// root), in its own process group that the time-out kills whole. It loads, exports and exits
// without ever running the event loop in between, which is what lets it convert documents the
// UNO-driven pool cannot (see the README's "LibreOffice" section).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  dieWithParent,
  networkIsolation,
  OfficeCrashedError,
  OfficeTimeoutError,
  PROFILE_SETTINGS,
  SOFFICE_BIN,
} from './office-process';

/** Exit code of soffice.bin after it initialised a fresh profile and wants to be started again. */
const RESTART_EXIT_CODE = 81;

function runOnce(args: string[], env: NodeJS.ProcessEnv, deadline: number): Promise<number> {
  const [cmd, ...prefix] = [...dieWithParent(), ...networkIsolation(), SOFFICE_BIN];
  const child = spawn(cmd!, [...prefix, ...args], { detached: true, stdio: 'ignore', env });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // Already gone.
        }
      },
      Math.max(0, deadline - Date.now()),
    );
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && Date.now() >= deadline) resolve(-1);
      else resolve(code ?? 128);
    });
  });
}

/**
 * Converts `input` (bytes of a document LibreOffice opens with `filter`) to PDF in a one-shot
 * process under `workDir`; everything it wrote is removed before this returns.
 */
export async function convertInOneShotOffice(
  input: Uint8Array,
  filter: string,
  options: { workDir: string; timeoutMs: number },
): Promise<Uint8Array> {
  await mkdir(options.workDir, { recursive: true });
  const dir = await mkdtemp(path.join(options.workDir, 'one-shot-'));
  const deadline = Date.now() + options.timeoutMs;
  try {
    const profile = path.join(dir, 'profile');
    const tmp = path.join(dir, 'tmp');
    const out = path.join(dir, 'out');
    await mkdir(path.join(profile, 'user'), { recursive: true });
    await mkdir(tmp);
    await mkdir(out);
    await writeFile(path.join(profile, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    const inPath = path.join(dir, 'input.docx');
    await writeFile(inPath, input);
    const env = { ...process.env, TMPDIR: tmp, HOME: dir, SAL_USE_VCLPLUGIN: 'svp' };
    const args = [
      '--headless',
      '--invisible',
      '--nologo',
      '--norestore',
      '--nodefault',
      '--nolockcheck',
      '--nofirststartwizard',
      `-env:UserInstallation=file://${profile}`,
      `--infilter=${filter}`,
      '--convert-to',
      // Tagged (PDF/UA), as the pool's uno-bridge.py exports (issue #32).
      'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"true"},"PDFUACompliance":{"type":"boolean","value":"true"}}',
      '--outdir',
      out,
      inPath,
    ];
    let code = await runOnce(args, env, deadline);
    for (let restarts = 0; code === RESTART_EXIT_CODE && restarts < 2; restarts++) {
      code = await runOnce(args, env, deadline);
    }
    if (code === -1) throw new OfficeTimeoutError(options.timeoutMs);
    try {
      return await readFile(path.join(out, 'input.pdf'));
    } catch {
      throw new OfficeCrashedError(`one-shot LibreOffice exited ${code} without a PDF`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
