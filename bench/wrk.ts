import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What one load run gives: requests answered, non-2xx answers among them, duration (s), latency p50 and p99 (ms). */
export interface Figures {
  count: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
}

/**
 * Runs wrk (Debian package wrk: 2 threads, `connections` keep-alive connections, `seconds`) over `paths` in turn
 * against `base`, its Lua script written in `dir`; null when wrk is not installed or fails.
 */
export function generateWrk(
  base: string,
  paths: string[],
  dir: string,
  connections: number,
  seconds: number,
): Promise<Figures | null> {
  const script = join(dir, 'paths.lua');
  writeFileSync(
    script,
    `paths = {${paths.map((p) => JSON.stringify(p)).join(',')}}\ni = 0\nrequest = function()\n  i = i + 1\n  return wrk.format("GET", paths[(i % #paths) + 1])\nend\n`,
  );
  return new Promise((resolve) => {
    execFile('wrk', ['-t2', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, base], (err, stdout) => {
      if (err) return resolve(null);
      const num = (re: RegExp) => Number(re.exec(stdout)?.[1] ?? NaN);
      const ms = (re: RegExp) => {
        const m = re.exec(stdout);
        return m ? Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[m[2]!]! : NaN;
      };
      const count = num(/(?<!\d)(\d+) requests in/);
      resolve({
        count,
        errors: num(/Non-2xx or 3xx responses: (\d+)/) || 0,
        seconds: count / num(/Requests\/sec:\s+([\d.]+)/),
        p50: ms(/50%\s+([\d.]+)(us|ms|s)/),
        p99: ms(/99%\s+([\d.]+)(us|ms|s)/),
      });
    });
  });
}
