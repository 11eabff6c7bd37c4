// Progress of the renders: on a terminal one line rewritten in place (count/total, rate per
// minute, ETA); otherwise, for logs and pipes, one plain line per application.
export interface ProgressSink {
  write(text: string): void;
  isTTY: boolean;
}

export interface ProgressEvent {
  id: string;
  file?: string;
  error?: string;
}

export interface Progress {
  start(total: number): void;
  done(event: ProgressEvent): void;
  /** A message between progress updates (the terminal line is cleared first). */
  note(message: string): void;
  finish(): void;
}

function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

export function createProgress(sink: ProgressSink, now: () => number = () => Date.now()): Progress {
  let total = 0;
  let count = 0;
  let failed = 0;
  let startedAt = 0;
  let lastDraw = 0;
  let drawn = false;

  const status = () => {
    const elapsed = now() - startedAt;
    const perMinute = elapsed > 0 ? (count / elapsed) * 60_000 : 0;
    const eta = count > 0 ? (elapsed / count) * (total - count) : NaN;
    return (
      `${count}/${total}` +
      (failed > 0 ? ` (${failed} failed)` : '') +
      ` · ${perMinute.toFixed(0)}/min` +
      ` · ETA ${Number.isNaN(eta) ? '--:--' : formatDuration(eta)}`
    );
  };
  const draw = (force = false) => {
    if (!sink.isTTY) return;
    const t = now();
    if (!force && t - lastDraw < 100) return;
    lastDraw = t;
    sink.write(`\r\x1b[2KExporting ${status()}`);
    drawn = true;
  };
  const clear = () => {
    if (sink.isTTY && drawn) sink.write('\r\x1b[2K');
    drawn = false;
  };

  return {
    start(n) {
      total = n;
      startedAt = now();
      draw(true);
    },
    done(event) {
      count++;
      if (event.error) failed++;
      if (sink.isTTY) {
        if (event.error) {
          clear();
          sink.write(`failed ${event.id}: ${event.error}\n`);
        }
        draw(count === total);
        return;
      }
      const what = event.error
        ? `failed ${event.id}: ${event.error}`
        : `wrote ${event.file ?? event.id}`;
      sink.write(`[${count}/${total}] ${what} (${status().split(' · ').slice(1).join(', ')})\n`);
    },
    note(message) {
      clear();
      sink.write(`${message}\n`);
      draw(true);
    },
    finish() {
      if (sink.isTTY && drawn) {
        draw(true);
        sink.write('\n');
        drawn = false;
      }
    },
  };
}
