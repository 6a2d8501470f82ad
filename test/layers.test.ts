/**
 * The layer order, checked on every import of the source tree (static, re-export and dynamic, type-only included):
 * - the engine (src) never imports the pack builder (data-tools), the program (bin), benches or tests;
 * - the builder never imports the program, benches or tests;
 * - the engine's core (routing, places, admin, packs, rendering, styles, trips, text) never imports the request
 *   layer (api), the adapters or the engine class; the request layer never imports the adapters;
 * - the contraction code (data-tools/ch-*) and the customizable hierarchy (src/route/cch/) import one another in one
 *   direction only: no cycle.
 * A failure names the file and the import.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every .ts file under a folder of the repository, as repository paths. */
function sources(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) out.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, folder));
  return out;
}

/** `from '…'` and `import('…')` specifiers of a file (relative ones resolved to repository paths). */
function imports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)|^import\s+'([^']+)'/gm)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    out.push(spec.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), spec)) : spec);
  }
  return out;
}

/** Imports of files under `from` that land in any of `forbidden` (repository path prefixes). */
function arrows(from: string[], forbidden: string[]): string[] {
  const bad: string[] = [];
  for (const file of from) {
    for (const target of imports(file))
      if (forbidden.some((f) => target === f.replace(/\/$/, '') || target.startsWith(f)))
        bad.push(`${file} → ${target}`);
  }
  return bad;
}

/**
 * A cycle of imports among `files` (repository paths; imports resolved as `imports` gives them, `.js` for `.ts`), as
 * the files around it with the first repeated at the end; [] when there is none.
 */
function cycle(files: string[], importsOf: (file: string) => string[] = imports): string[] {
  const inSet = new Set(files);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string): string[] => {
    state.set(f, 'open');
    stack.push(f);
    for (const t of importsOf(f)) {
      const target = t.replace(/\.js$/, '.ts');
      if (!inSet.has(target)) continue;
      if (state.get(target) === 'open') return [...stack.slice(stack.indexOf(target)), target];
      if (!state.has(target)) {
        const found = visit(target);
        if (found.length > 0) return found;
      }
    }
    stack.pop();
    state.set(f, 'done');
    return [];
  };
  for (const f of files) {
    if (state.has(f)) continue;
    const found = visit(f);
    if (found.length > 0) return found;
  }
  return [];
}

const CORE = [
  'src/route/',
  'src/places/',
  'src/admin/',
  'src/pack/',
  'src/render/',
  'src/style/',
  'src/trip/',
  'src/text/',
  'src/map/',
];

describe('layers', () => {
  it('the engine never imports the builder, the program, benches or tests', () => {
    expect(arrows(sources('src'), ['data-tools/', 'bin/', 'bench/', 'test/'])).toEqual([]);
  });

  it('the builder never imports the program, benches or tests', () => {
    expect(arrows(sources('data-tools'), ['bin/', 'bench/', 'test/'])).toEqual([]);
  });

  it('the core never imports the request layer, the adapters or the engine; the request layer never imports the adapters', () => {
    const core = CORE.flatMap((dir) => sources(dir.slice(0, -1)));
    expect(core.length).toBeGreaterThan(100);
    expect(arrows(core, ['src/api/', 'src/adapters/', 'src/engine'])).toEqual([]);
    expect(arrows(sources('src/api'), ['src/adapters/'])).toEqual([]);
  });

  it('the contraction code and the customizable hierarchy import in one direction (no cycle)', () => {
    const files = [...sources('data-tools').filter((f) => /\/ch-[^/]*\.ts$/.test(f)), ...sources('src/route/cch')];
    expect(files.length).toBeGreaterThan(10);
    expect(cycle(files)).toEqual([]);
    // A planted cycle is found.
    expect(cycle(['x.ts', 'y.ts'], (f) => (f === 'x.ts' ? ['y.js'] : ['x.js']))).toEqual(['x.ts', 'y.ts', 'x.ts']);
  });

  it('sees the imports it checks (a planted arrow is found)', () => {
    expect(arrows(['bin/bando.ts'], ['data-tools/'])).toEqual(['bin/bando.ts → data-tools/cli/build-pack.js']);
  });
});
