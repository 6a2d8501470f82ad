/**
 * Builds dist/ (tsup, quietly) when it is missing or older than what it is built from, else does nothing. Run by
 * `npm start` before the server starts and by the test setup, so a fresh clone or an edited source never runs an
 * old build; `npm run build` always builds.
 * Run: node --import tsx data-tools/build-dist.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** What dist/ is built from: every file under these (folders) or these files. */
const INPUTS = ['src', 'data-tools', 'package.json', 'tsup.config.ts', 'tsconfig.json'];
/** The outputs every build writes (tsup.config.ts). */
const OUTPUTS = [
  'index.js',
  'index.cjs',
  'index.d.ts',
  'index.d.cts',
  'cli.js',
  'style-spec.cjs',
  'worker.js',
  'worker.d.ts',
  'browser.js',
  'browser.d.ts',
  'bando-route.wasm',
  'bando-raster.wasm',
  'default-pack.js',
  'client.js',
  'client.d.ts',
];

/** Newest modification time (ms) of a file or of any file below a folder. */
function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), s.mtimeMs);
}

/** True when an output is missing or older than an input. */
export function distIsStale(root = ROOT): boolean {
  const outputs = OUTPUTS.map((f) => join(root, 'dist', f));
  if (!outputs.every((f) => existsSync(f))) return true;
  const built = Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  return INPUTS.some((p) => existsSync(join(root, p)) && newest(join(root, p)) > built);
}

/** Builds dist/ when stale; returns whether it built. Throws with tsup's output when the build fails. */
export function buildDistIfStale(root = ROOT): boolean {
  if (!distIsStale(root)) return false;
  process.stderr.write('bando: building dist/ (missing or older than the sources)…\n');
  execFileSync('npm', ['run', 'build', '--silent', '--', '--silent'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    shell: process.platform === 'win32',
  });
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildDistIfStale();
