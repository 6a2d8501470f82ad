/** `bando serve` in a child process, for tests of the server as users run it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'bin/bando.ts');

/**
 * Starts `bando serve --keys KEYS --port 0 --allow-http [...extra]`; resolves with the child and its base URL once
 * it prints where it serves, rejects if it exits first.
 * @param fdLimit run it under `ulimit -n fdLimit` (descriptors), via bash
 */
export function serveCli(
  keys: string,
  extra: string[] = [],
  fdLimit?: number,
): Promise<{ child: ChildProcess; url: string }> {
  const args = ['--import', 'tsx', CLI, 'serve', '--keys', keys, '--port', '0', '--allow-http', ...extra];
  const child =
    fdLimit === undefined
      ? spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('bash', ['-c', `ulimit -n ${fdLimit} && exec "$0" "$@"`, process.execPath, ...args], {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /serving on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => reject(new Error(`bando serve exited (${code}): ${err}`)));
  });
}
