/**
 * A one-line progress display for terminals: phase name, percentage and elapsed time, redrawn in place.
 * Off a terminal (CI, pipes) it prints one line per phase so logs stay short.
 */
export class Progress {
  private start = Date.now();
  private phaseStart = Date.now();
  private last = 0;
  private phase = '';
  private readonly tty: boolean;

  constructor(private readonly out: NodeJS.WriteStream | null = process.stderr, private readonly quiet = false) {
    this.tty = !!out?.isTTY;
  }

  /** Starts a named phase. */
  step(phase: string): void {
    this.finishLine();
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
    if (!this.quiet) this.out?.write(`bando build-pack: ${summary} (${((Date.now() - this.start) / 1000).toFixed(1)} s)\n`);
  }

  private draw(done: number, total: number): void {
    if (this.quiet || !this.tty || !this.out) return;
    const pct = total > 0 ? ` ${Math.floor((done / total) * 100)}%` : '';
    const secs = ((Date.now() - this.phaseStart) / 1000).toFixed(1);
    this.out.write(`\r\x1b[K${this.phase}${pct} ${secs}s`);
  }

  private finishLine(): void {
    if (!this.quiet && this.tty && this.phase) this.out?.write(`\r\x1b[K${this.phase} done in ${((Date.now() - this.phaseStart) / 1000).toFixed(1)}s\n`);
  }
}
