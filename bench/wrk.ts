import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What one load run gives: requests answered, non-2xx answers and timeouts, duration (s), latency p50 and p99 (ms). */
export interface Figures {
  count: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
}

/** Options of {@link generateWrk}. */
export interface WrkOptions {
  /** wrk threads. Default 2. */
  threads?: number;
  /** Seconds after which wrk counts a request as timed out (its own default is 2). */
  timeoutSeconds?: number;
  /** Name of the Lua script written in `dir` (runs at the same time need different names). Default `paths`. */
  name?: string;
  /** Sends `Connection: close`, so each request opens a connection of its own. Default false (keep-alive). */
  close?: boolean;
}

/**
 * Runs wrk (Debian package wrk: `connections` connections, kept alive unless `opts.close`, for `seconds`, 2 threads unless told) over
 * `paths` in turn against `base`, its Lua script written in `dir`; null when wrk is not installed or fails.
 */
export function generateWrk(
  base: string,
  paths: string[],
  dir: string,
  connections: number,
  seconds: number,
  opts: WrkOptions = {},
): Promise<Figures | null> {
  const script = join(dir, `${opts.name ?? 'paths'}.lua`);
  writeFileSync(
    script,
    `paths = {${paths.map((p) => JSON.stringify(p)).join(',')}}\ni = 0\nrequest = function()\n  i = i + 1\n  return wrk.format("GET", paths[(i % #paths) + 1]${opts.close ? ', {Connection = "close"}' : ''})\nend\n`,
  );
  const args = [`-t${opts.threads ?? 2}`, `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, base];
  if (opts.timeoutSeconds) args.unshift('--timeout', `${opts.timeoutSeconds}s`);
  return new Promise((resolve) => {
    execFile('wrk', args, (err, stdout) => {
      if (err) return resolve(null);
      const num = (re: RegExp) => Number(re.exec(stdout)?.[1] ?? NaN);
      const ms = (re: RegExp) => {
        const m = re.exec(stdout);
        return m ? Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[m[2]!]! : NaN;
      };
      const count = num(/(?<!\d)(\d+) requests in/);
      resolve({
        count,
        errors: (num(/Non-2xx or 3xx responses: (\d+)/) || 0) + (num(/Socket errors:.*timeout (\d+)/) || 0),
        seconds: count / num(/Requests\/sec:\s+([\d.]+)/),
        p50: ms(/50%\s+([\d.]+)(us|ms|s)/),
        p99: ms(/99%\s+([\d.]+)(us|ms|s)/),
      });
    });
  });
}
