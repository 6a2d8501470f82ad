/**
 * `npm run bench [-- name ...]`: runs every benchmark script in bench/ (or the named ones) one after another, each in
 * its own process so one's warm caches don't flatter another. Scripts in `onDemand` run only when named: they take
 * hours (build-scale builds packs of up to 4 M nodes), read the packs build-scale leaves (ch-cells) or compare with
 * another checkout named in their environment (route-baseline).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./', import.meta.url));
const helpers = new Set([
  'run.ts',
  'stats.ts',
  'place-cases.ts',
  'place-latency.ts',
  'worker-bundle.ts',
  'wrk.ts',
  'route-tail-worker.ts',
  'edge-points.ts',
]);
const onDemand = new Set(['build-scale.ts', 'ch-cells.ts', 'osrm-routes.ts', 'osrm-services.ts', 'route-baseline.ts']);
const wanted = process.argv.slice(2);
const scripts = readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !helpers.has(f))
  .filter((f) => (wanted.length === 0 ? !onDemand.has(f) : wanted.some((w) => f.startsWith(w))))
  .sort();
for (const s of scripts) {
  console.log(`\n# bench/${s}`);
  execFileSync(process.execPath, ['--import', 'tsx', `${dir}${s}`], { stdio: 'inherit' });
}
