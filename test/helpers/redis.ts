import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A redis-server of a test: loopback only, a free port, a temporary directory, no persistence. */
export interface TestRedis {
  port: number;
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** Stops the server (SIGKILL when `hard`, as a crash; else SIGTERM). */
  stop(hard?: boolean): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  dispose(): Promise<void>;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts Debian's `redis-server` (apt-get install -y redis-server; `.ci/run` installs it). Rejects, failing the test,
 * when it is not installed: tests that need Redis must not skip silently.
 */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bando-redis-'));
  let child: ChildProcess | null = null;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const c = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
          '--daemonize',
          'no',
        ],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      child = c;
      let out = '';
      c.on('error', (err) =>
        reject(new Error(`redis-server cannot be started (apt-get install -y redis-server): ${err.message}`)),
      );
      c.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('Ready to accept connections')) resolve();
      });
      c.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out.slice(-500)}`)));
    });
  await start();
  const redis: TestRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop(hard = false) {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill(hard ? 'SIGKILL' : 'SIGTERM');
      });
    },
    start,
    async dispose() {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return redis;
}
