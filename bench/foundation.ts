/**
 * Foundation targets: default pack size (≤ 8 MB), createEngine() ready time in fresh Node processes (median of 10,
 * ≤ 150 ms), Hanoi pack build (≤ 30 s) and Monaco PBF pack build (≤ 20 s).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { vietnamAdmin } from '../data-tools/admin-bundle.js';
import { buildOsmPack } from '../data-tools/build-pack.js';
import { HANOI_INPUTS } from '../data-tools/hanoi-inputs.js';
import { median, table } from './stats.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const data = join(root, '../shared/data');

const packBytes = statSync(join(root, 'packs/hanoi.pack')).size;

// Cold start in fresh processes, on the built package (dist/, what users import; `npm run build` first): the time
// to import the module, the time of `await createEngine()` itself (the target), and the two together (what a user
// who times `import('bando')` + `createEngine()` sees), measured inside the child.
const dist = join(root, 'dist/index.js');
if (!existsSync(dist)) execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
const probe = `const t0 = performance.now(); const { createEngine } = await import(${JSON.stringify(dist)}); const t1 = performance.now(); await createEngine(); console.log(t1 - t0, performance.now() - t1);`;
const imports: number[] = [];
const starts: number[] = [];
const totals: number[] = [];
for (let i = 0; i < 10; i++) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' });
  const [imp, ready] = out.trim().split('\n').pop()!.split(' ').map(Number);
  imports.push(imp!);
  starts.push(ready!);
  totals.push(imp! + ready!);
}

function timeBuild(inputs: string[], name: string, admin: boolean): number {
  const t = performance.now();
  buildOsmPack({ inputs, name, admin: admin ? vietnamAdmin(join(data, 'admin')) : null });
  return (performance.now() - t) / 1000;
}
const hanoiBuild = timeBuild(
  HANOI_INPUTS.map((f) => join(data, 'osm', f)),
  'hanoi',
  true,
);
const monacoBuild = timeBuild([join(data, 'osm/monaco.osm.pbf')], 'monaco', false);

table('foundation', [
  { measure: 'default pack size (MB)', value: packBytes / 1e6, target: '≤ 8', ratio: packBytes / 1e6 / 8 },
  {
    measure: 'createEngine() ready, median of 10 fresh processes (ms)',
    value: median(starts),
    target: '≤ 150',
    ratio: median(starts) / 150,
  },
  { measure: 'import of the package before it, median (ms)', value: median(imports), target: '-', ratio: '-' },
  {
    measure: 'import + createEngine() in a fresh process, median (ms)',
    value: median(totals),
    target: '≤ 150',
    ratio: median(totals) / 150,
  },
  { measure: 'Hanoi pack build (s)', value: hanoiBuild, target: '≤ 30', ratio: hanoiBuild / 30 },
  { measure: 'Monaco PBF pack build (s)', value: monacoBuild, target: '≤ 20', ratio: monacoBuild / 20 },
]);
console.log('(ratio = value / target; below 1 meets the target.)');
