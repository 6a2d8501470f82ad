import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { ADMIN, OSM } from './helpers/packs.js';

const CLI = fileURLToPath(new URL('../bin/bando.ts', import.meta.url));
const run = (args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

describe('bando build-pack', () => {
  it('builds a pack from several inputs with admin units, and `bando info` reads it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bando-cli-'));
    const out = join(dir, 'qtg.pack');
    run([
      'build-pack',
      '--input',
      OSM + 'hanoi-quoctugiam.osm',
      '--input',
      OSM + 'hanoi-restaurants-2024.overpass.json',
      '--output',
      out,
      '--admin',
      ADMIN,
      '--quiet',
    ]);
    const pack = Pack.from(new Uint8Array(readFileSync(out)), { source: out });
    const meta = pack.json<{ name: string; inputs: { file: string }[]; counts: { nodes: number; places: number } }>(
      'meta',
    );
    expect(meta.name).toBe('qtg');
    expect(meta.inputs.map((i) => i.file)).toEqual(['hanoi-quoctugiam.osm', 'hanoi-restaurants-2024.overpass.json']);
    expect(meta.counts.places).toBeGreaterThan(300);
    expect(pack.has('admin.units')).toBe(true);
    const info = JSON.parse(run(['info', '--pack', out])) as { packs: { name: string; counts: { nodes: number } }[] };
    expect(info.packs[0]!.name).toBe('qtg');
    expect(info.packs[0]!.counts.nodes).toBe(meta.counts.nodes);
  });

  it('takes GeoJSON places beside OSM inputs, and names the file and the feature of an unusable one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bando-cli-'));
    const out = join(dir, 'dalat.pack');
    const pois = OSM + 'dalat-tourist-pois.geojson';
    run(['build-pack', '--input', OSM + 'dalat-drive-2026.overpass.json', '--input', pois, '--output', out, '--no-ch']);
    const meta = Pack.from(new Uint8Array(readFileSync(out))).json<{ inputs: { file: string; format: string }[] }>(
      'meta',
    );
    expect(meta.inputs.map((i) => [i.file, i.format])).toEqual([
      ['dalat-drive-2026.overpass.json', 'overpass-json'],
      ['dalat-tourist-pois.geojson', 'geojson'],
    ]);
    const broken = join(dir, 'broken.geojson');
    writeFileSync(
      broken,
      '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "X"}}]}',
    );
    expect(() => run(['build-pack', '--input', broken, '--output', join(dir, 'x.pack'), '--no-ch'])).toThrow(
      /broken\.geojson: 1 of 1 GeoJSON features cannot be places:\n {2}feature 0 \("X"\) has no geometry/,
    );
    const notGeo = join(dir, 'not.geojson');
    writeFileSync(notGeo, 'name,lat,lon\nX,10.7,106.7\n');
    expect(() => run(['build-pack', '--input', notGeo, '--output', join(dir, 'x.pack'), '--no-ch'])).toThrow(
      /not\.geojson: not valid JSON/,
    );
  });

  it('names the vehicles of each hierarchy in its progress, one line per stage off a terminal', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bando-cli-'));
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        CLI,
        'build-pack',
        '--input',
        OSM + 'hanoi-quoctugiam.osm',
        '--output',
        join(dir, 'q.pack'),
        '--ch',
      ],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/contracting \d+ hierarch(y|ies) \(fastest of car, (edge|node)-based, \d+ states[;)]/);
    expect(r.stderr).toMatch(/writing the hierarchies: fastest for car, [a-z, ]+/);
    expect(r.stderr).not.toMatch(/profile \d/);
  });

  it('says what is wrong with bad arguments and inputs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bando-cli-'));
    expect(() => run(['build-pack', '--output', join(dir, 'x.pack')])).toThrow(/missing --input or --output/);
    expect(() => run(['build-pack', '--input', join(dir, 'nope.osm'), '--output', join(dir, 'x.pack')])).toThrow(
      /--input .*nope\.osm: no such file/,
    );
    // Paths are checked before the build: a real input with a bad --output folder or --admin fails at once.
    const input = OSM + 'hanoi-quoctugiam.osm';
    expect(() => run(['build-pack', '--input', input, '--output', join(dir, 'no-such-dir', 'x.pack')])).toThrow(
      /--output .*the folder .*no-such-dir does not exist/,
    );
    expect(() =>
      run(['build-pack', '--input', input, '--output', join(dir, 'x.pack'), '--admin', join(dir, 'no-admin')]),
    ).toThrow(/--admin .*no-admin: no such folder/);
    expect(() => run(['build-pack', '--input', input, '--output', join(dir, 'x.pack'), '--outptu', 'y'])).toThrow(
      /unknown flag --outptu/,
    );
    expect(() =>
      run(['build-pack', '--input', OSM + '../dimacs/USA-road-d.NY.gr.gz', '--output', join(dir, 'x.pack')]),
    ).toThrow(/exactly two inputs/);
  });
});
