import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDimacs, type DimacsGraph } from '../data-tools/dimacs/read.js';

const DATA = fileURLToPath(new URL('../../shared/data/dimacs/', import.meta.url));
const GR_D = DATA + 'USA-road-d.NY.gr.gz';
const GR_T = DATA + 'USA-road-t.NY.gr.gz';
const CO = DATA + 'USA-road-d.NY.co.gz';
const tmp = mkdtempSync(join(tmpdir(), 'dimacs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Independent, zcat/grep-style scan: the lines starting with `prefix`, split into integer fields. */
function scan(path: string, prefix: string): number[][] {
  return gunzipSync(readFileSync(path))
    .toString('latin1')
    .split('\n')
    .filter((l) => l.startsWith(prefix))
    .map((l) => l.split(' ').slice(1).map(Number));
}

describe('readDimacs on the New York graph', () => {
  let g: DimacsGraph;
  let arcs: number[][];
  beforeAll(async () => {
    const t0 = performance.now();
    g = await readDimacs(GR_D, CO);
    console.log(`readDimacs NY (distance): ${(performance.now() - t0).toFixed(0)} ms`);
    arcs = scan(GR_D, 'a ');
  });

  it('has the published sizes and distance weights', () => {
    expect(g.nodeCount).toBe(264_346);
    expect(g.from.length).toBe(733_846);
    expect(g.to.length).toBe(733_846);
    expect(g.weight.length).toBe(733_846);
    expect(g.lat.length).toBe(264_346);
    expect(g.kind).toBe('distance');
  });

  it('matches an independent scan of every arc', () => {
    expect(arcs.length).toBe(733_846);
    let bad = 0;
    for (let i = 0; i < arcs.length; i++) {
      const [u, v, w] = arcs[i]!;
      if (g.from[i] !== u! - 1 || g.to[i] !== v! - 1 || g.weight[i] !== w) bad++;
    }
    expect(bad).toBe(0);
    // The first arcs of the file, read by eye: a 1 2 803, a 2 1 803, a 3 4 158.
    expect([g.from[0], g.to[0], g.weight[0], g.from[2], g.to[2], g.weight[2]]).toEqual([0, 1, 803, 2, 3, 158]);
  });

  it('has coordinates in the NY bounding box matching an independent scan', () => {
    let outside = 0;
    for (let i = 0; i < g.nodeCount; i++) {
      const lat = g.lat[i]!;
      const lon = g.lon[i]!;
      if (!(lat >= 40.3 && lat <= 41.3 && lon >= -74.5 && lon <= -73.5)) outside++;
    }
    expect(outside).toBe(0);
    const coords = scan(CO, 'v ');
    expect(coords.length).toBe(264_346);
    let bad = 0;
    for (const [id, x, y] of coords) if (g.lon[id! - 1] !== x! / 1e6 || g.lat[id! - 1] !== y! / 1e6) bad++;
    expect(bad).toBe(0);
    // v 1 -73530767 41085396, the first line, read by eye.
    expect([g.lon[0], g.lat[0]]).toEqual([-73.530767, 41.085396]);
  });

  it('reads the travel-time graph with the same topology', async () => {
    const t = await readDimacs(GR_T, CO);
    expect(t.kind).toBe('time');
    const times = scan(GR_T, 'a ');
    expect(times.length).toBe(t.from.length);
    let bad = 0;
    for (let i = 0; i < times.length; i++) {
      if (t.from[i] !== g.from[i] || t.to[i] !== g.to[i] || t.weight[i] !== times[i]![2]) bad++;
    }
    expect(bad).toBe(0);
  });
});

describe('readDimacs on small files', () => {
  const co = 'c coords\np aux sp co 3\nv 1 -73000000 40000000\nv 2 -73500000 40500000\r\nv 3 -74000000 41000000\n';
  const gr = 'c tiny\np sp 3 4\na 1 2 10\na 2 3 20\na 3 1 30\na 1 3 45';

  it('reads plain and gzipped files, CRLF and a last line without newline', async () => {
    writeFileSync(join(tmp, 'tiny.co'), co);
    writeFileSync(join(tmp, 'tiny.gr'), gr);
    writeFileSync(join(tmp, 'tiny-t.gr.gz'), gzipSync(gr));
    const plain = await readDimacs(join(tmp, 'tiny.gr'), join(tmp, 'tiny.co'), { kind: 'distance' });
    expect(plain).toEqual({
      nodeCount: 3,
      lat: new Float64Array([40, 40.5, 41]),
      lon: new Float64Array([-73, -73.5, -74]),
      from: new Uint32Array([0, 1, 2, 0]),
      to: new Uint32Array([1, 2, 0, 2]),
      weight: new Float64Array([10, 20, 30, 45]),
      kind: 'distance',
    });
    const gz = await readDimacs(join(tmp, 'tiny-t.gr.gz'), join(tmp, 'tiny.co'));
    expect(gz.kind).toBe('time');
    expect(gz.weight).toEqual(plain.weight);
    const overridden = await readDimacs(join(tmp, 'tiny-t.gr.gz'), join(tmp, 'tiny.co'), { kind: 'distance' });
    expect(overridden.kind).toBe('distance');
    await expect(readDimacs(join(tmp, 'tiny.gr'), join(tmp, 'tiny.co'))).rejects.toThrow(
      /tiny\.gr: cannot tell distance from time/,
    );
  });

  it('names the file and line of bad input', async () => {
    writeFileSync(join(tmp, 'ok.co'), co);
    const cases: [string, RegExp][] = [
      ['p sp 3 2\na 1 2 10\na 1 x 5\n', /bad1-d\.gr: line 3: expected "a <from> <to> <weight>"/],
      ['p sp 3 2\na 1 2 10\na 1 4 5\n', /bad2-d\.gr: line 3: arc 1 -> 4 names a node outside 1\.\.3/],
      ['a 1 2 10\n', /bad3-d\.gr: line 1: arc before the "p sp" line/],
      ['p sp 3 3\na 1 2 10\n', /bad4-d\.gr: 1 arcs read but the "p sp" line announces 3/],
      ['p sp 3 1\na 1 2 10\na 2 3 1\n', /bad5-d\.gr: line 3: more arcs than the 1 announced/],
    ];
    for (let i = 0; i < cases.length; i++) {
      const [text, re] = cases[i]!;
      const path = join(tmp, `bad${i + 1}-d.gr`);
      writeFileSync(path, text);
      await expect(readDimacs(path, join(tmp, 'ok.co'))).rejects.toThrow(re);
    }
    writeFileSync(join(tmp, 'ok-d.gr'), gr);
    writeFileSync(join(tmp, 'short.co'), 'p aux sp co 3\nv 1 -73000000 40000000\nv 1 -73000000 40000000\n');
    await expect(readDimacs(join(tmp, 'ok-d.gr'), join(tmp, 'short.co'))).rejects.toThrow(
      /short\.co: line 3: node 1 given twice/,
    );
    writeFileSync(join(tmp, 'other.co'), 'p aux sp co 4\n');
    await expect(readDimacs(join(tmp, 'ok-d.gr'), join(tmp, 'other.co'))).rejects.toThrow(
      /other\.co: line 1: announces 4 nodes but the arc file has 3/,
    );
    // A truncated gzip stream.
    const full = readFileSync(GR_D);
    writeFileSync(join(tmp, 'cut-d.gr.gz'), full.subarray(0, 100_000));
    await expect(readDimacs(join(tmp, 'cut-d.gr.gz'), CO)).rejects.toThrow(/cut-d\.gr\.gz: /);
  });
});
