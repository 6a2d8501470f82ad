import { readFileSync } from 'node:fs';

/** What long build steps report to: a new named stage, and progress within it (items done of total). */
export interface StageProgress {
  step(phase: string): void;
  update(done: number, total: number): void;
}

/**
 * The environment variable that makes the builder log its memory after each phase (resident, peak resident, JS heap
 * and array buffers, MB): where a build's peak comes from.
 */
const MEMORY_LOG_ENV = 'BANDO_BUILD_MEMORY';

/**
 * A one-line progress display for terminals: phase name, percentage and elapsed time, redrawn in place.
 * Off a terminal (CI, pipes) it prints one line per phase so logs stay short.
 */
export class Progress implements StageProgress {
  private start = Date.now();
  private phaseStart = Date.now();
  private last = 0;
  private phase = '';
  private readonly tty: boolean;

  constructor(
    private readonly out: NodeJS.WriteStream | null = process.stderr,
    private readonly quiet = false,
  ) {
    this.tty = !!out?.isTTY;
  }

  /** Starts a named phase. */
  step(phase: string): void {
    this.finishLine();
    this.logMemory();
    this.phase = phase;
    this.phaseStart = Date.now();
    if (!this.quiet && !this.tty) this.out?.write(`bando build-pack: ${phase}\n`);
    this.draw(0, 0);
  }

  /** Reports progress within the phase (redrawn at most every 100 ms). */
  update(done: number, total: number): void {
    const now = Date.now();
    if (now - this.last < 100) return;
    this.last = now;
    this.draw(done, total);
  }

  /** Ends the display with a summary line. */
  done(summary: string): void {
    this.finishLine();
    this.logMemory();
    if (!this.quiet)
      this.out?.write(`bando build-pack: ${summary} (${((Date.now() - this.start) / 1000).toFixed(1)} s)\n`);
  }

  /** With BANDO_BUILD_MEMORY set, one line on the phase that just ended: its time and memory, and the peak so far. */
  private logMemory(): void {
    if (!process.env[MEMORY_LOG_ENV] || !this.phase) return;
    const m = process.memoryUsage();
    const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;
    process.stderr.write(
      `bando build-pack memory after ${this.phase} (${((Date.now() - this.phaseStart) / 1000).toFixed(1)} s): rss ${mb(m.rss)}, peak ${peakRss() ?? '?'}, heap ${mb(m.heapUsed)}, array buffers ${mb(m.arrayBuffers)}\n`,
    );
  }

  private draw(done: number, total: number): void {
    if (this.quiet || !this.tty || !this.out) return;
    const elapsed = (Date.now() - this.phaseStart) / 1000;
    // The ETA assumes the rest goes at the pace so far (contraction slows down towards its end: a lower bound there).
    const eta = done > 0 && total > done ? `, ETA ${((elapsed * (total - done)) / done).toFixed(0)}s` : '';
    const count =
      total > 0
        ? ` ${done.toLocaleString('en')}/${total.toLocaleString('en')} (${Math.floor((done / total) * 100)}%)`
        : '';
    this.out.write(`\r\x1b[K${this.phase}${count} ${elapsed.toFixed(1)}s${eta}`);
  }

  private finishLine(): void {
    if (!this.quiet && this.tty && this.phase)
      this.out?.write(`\r\x1b[K${this.phase} done in ${((Date.now() - this.phaseStart) / 1000).toFixed(1)}s\n`);
  }
}

/** The process's peak resident set so far ("123 MB", Linux's VmHWM), or null where /proc is missing. */
function peakRss(): string | null {
  try {
    const kb = /VmHWM:\s*(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb ? `${(Number(kb) / 1024).toFixed(0)} MB` : null;
  } catch {
    return null;
  }
}
