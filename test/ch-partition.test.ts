import { beforeAll, describe, expect, it } from 'vitest';
import { buildOsmPack } from '../data-tools/build-pack.js';
import { type Contracted } from '../data-tools/ch-build.js';
import { cutLevel, Partitioned, PARTITION } from '../data-tools/ch-partition.js';
import { contractAll } from '../data-tools/ch-threads.js';
import { contractInWasm } from '../data-tools/ch-wasm.js';
import { Progress } from '../data-tools/progress.js';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import { asciiMapPack } from './helpers/ascii-map.js';
import { checkPairs, checkVehicles, vehicleGraphs } from './helpers/ch-check.js';
import { RESTRICTED_GRID } from './helpers/ch-maps.js';
import { OSM, PACK_INPUTS, testPack } from './helpers/packs.js';
import { randomEndpoints } from './helpers/route-reference.js';
import { type BaseGraph, type CellCoreRule, type Contraction, TUNING } from '../data-tools/ch-graph.js';

/** Index entries of a pack's hierarchies. */
const index = (pack: Pack): { list: { states: number; core: number }[] } => pack.json('ch.index');

/**
 * Cells that stop early: at 30 % of their interior whatever its degree, so leftover interiors reach the overlay even
 * on maps far smaller than the ones the default rule stops on.
 */
const EARLY: CellCoreRule = { fraction: 0.3, degree: 0 };

/** A partitioned contraction run in this thread, its instances one after the other. */
function partitioned(g: BaseGraph, cellStates: number, coreSize = -1, cellCore = PARTITION.cellCore): Contraction {
  const p = new Partitioned(g, coreSize, cellStates, cellStates, cellCore);
  for (let jobs = p.jobs(); jobs; jobs = p.jobs())
    jobs.forEach((j, i) => p.take(i, contractInWasm(j.graph, j.stop, j.tuning)));
  return p.contraction();
}

/**
 * Checks a contraction's records against its base graph: a base record is one of the graph's edges (weight: the
 * lightest such edge); a shortcut's children exist, run tail → bypassed state → head, the bypassed state ranks below
 * both ends, and the weight adds up. The core's live edges carry the weight of the record they stand for. Returns
 * the shortcuts.
 */
function checkRecords(g: BaseGraph, c: Contraction): number {
  const R = c.records;
  const w = new Float64Array(R.n).fill(NaN);
  const weight = (r: number): number => {
    if (!Number.isNaN(w[r]!)) return w[r]!;
    if (R.a[r]! < 0) {
      let best = Infinity;
      for (let e = g.first[R.tail[r]!]!; e < g.first[R.tail[r]! + 1]!; e++)
        if (g.head[e] === R.head[r] && g.payload[e] === R.b[r]) best = Math.min(best, g.weight[e]!);
      expect(best, `record ${r} is a base edge`).toBeLessThan(Infinity);
      return (w[r] = best);
    }
    return (w[r] = weight(R.a[r]!) + weight(R.b[r]!));
  };
  let shortcuts = 0;
  for (let r = 0; r < R.n; r++) {
    weight(r);
    if (R.a[r]! < 0) continue;
    shortcuts++;
    const a = R.a[r]!,
      b = R.b[r]!;
    expect(a >= 0 && a < R.n && b >= 0 && b < R.n).toBe(true);
    expect(R.tail[a]).toBe(R.tail[r]);
    expect(R.head[b]).toBe(R.head[r]);
    const mid = R.head[a]!;
    expect(R.tail[b]).toBe(mid);
    expect(c.rank[mid]!).toBeLessThan(Math.min(c.rank[R.tail[r]!]!, c.rank[R.head[r]!]!));
  }
  for (const l of [c.out, c.inn])
    for (let s = 0; s < g.states; s++)
      for (let k = 0, j = l.start[s]!; k < l.len[s]!; k++, j++) expect(l.w[j]).toBe(w[l.rec[j]!]);
  return shortcuts;
}

describe('partitioned (cell-wise) contraction', () => {
  let hanoi: BaseGraph[];
  beforeAll(() => {
    hanoi = vehicleGraphs(Pack.from(testPack('hanoi', { hierarchies: true })));
  }, 120_000);

  it('cells of NY-like spatial order: the boundary is a minority of each cell on Hanoi', () => {
    for (const g of hanoi) {
      const cut = cutLevel(g, 4000);
      // Cells are ranges of the state order here (Hanoi's states are arcs, in their tail node's Hilbert order).
      expect(cut.boundaryOf.reduce((x, y) => x + y, 0) / g.states).toBeLessThan(0.35);
    }
  });

  it('a state kept uncontracted is never ranked below a contracted one, and all others are contracted', () => {
    const g = hanoi[0]!;
    const keep = new Uint8Array(g.states);
    let kept = 0;
    for (let s = 0; s < g.states; s += 7) ((keep[s] = 1), kept++);
    const c = contractInWasm({ ...g, keep }, { coreSize: 0, maxLeft: 0, minStates: 0, degree: 0 }, TUNING);
    expect(c.core).toBe(kept);
    for (let s = 0; s < g.states; s++) expect(c.rank[s]! >= g.states - kept).toBe(keep[s] === 1);
  });

  it('a cell stops by its rule: its leftover interior, not only its boundary, is left for the overlay', () => {
    const g = hanoi[0]!;
    const job = new Partitioned(g, -1, 3000, 3000, EARLY).jobs()![0]!;
    let kept = 0;
    for (const k of job.graph.keep!) kept += k;
    const interior = job.graph.states - kept;
    const r = contractInWasm(job.graph, job.stop, job.tuning);
    expect(r.core - kept).toBeGreaterThan(0.25 * interior);
    expect(r.core - kept).toBeLessThanOrEqual(Math.floor(0.3 * interior));
    // The default rule asks for a mean degree that a cell of this size never reaches: contracted to its boundary.
    const full = new Partitioned(g, -1, 3000, 3000, PARTITION.cellCore).jobs()![0]!;
    expect(contractInWasm(full.graph, full.stop, full.tuning).core).toBe(kept);
  });

  for (const [rule, vehicles] of [
    [PARTITION.cellCore, 'three vehicles'],
    [EARLY, 'car, cells stopping early'],
  ] as const)
    it(`records: children exist, touch the state they bypass, weights add up (Hanoi, ${vehicles}, cores)`, () => {
      for (const g of rule === EARLY ? hanoi.slice(0, 1) : hanoi)
        for (const [cells, core] of [
          [1500, -1],
          [3000, 800],
        ] as const) {
          const c = partitioned(g, cells, core, rule);
          if (core > 0) expect(c.core).toBeGreaterThan(0);
          expect(checkRecords(g, c)).toBeGreaterThan(g.states / 4);
          // Every state has a rank of its own.
          expect(new Set(c.rank).size).toBe(g.states);
        }
    }, 300_000);

  for (const [coreSize, cellCore] of [
    [undefined, undefined],
    [6, undefined],
    [undefined, EARLY],
    [6, EARLY],
  ] as const) {
    const how = `${coreSize ? ', with a forced core' : ''}${cellCore ? ', cells stopping early' : ''}`;
    it(`all pairs on an ASCII map cut into cells of 5 states${how}`, () => {
      const { pack } = asciiMapPack(RESTRICTED_GRID, 'cells', { cellStates: 5, coreSize, cellCore, threads: 1 });
      const e = index(pack).list[0]!;
      if (coreSize) expect(e.core).toBeGreaterThan(0);
      else expect(e.core).toBe(0);
      const g = new RoadGraph(pack);
      for (const wasm of [false, true]) {
        const router = new Router(g, pack, { wasm });
        const pts = randomEndpoints(g, router, 0, 40, 3);
        expect(checkPairs(g, router, 0, pts, pts)).toBeGreaterThan(1000);
      }
    });
  }

  describe('Hanoi, cells of 2,000 states', () => {
    const inputs = PACK_INPUTS.hanoi.map((f) => OSM + f);
    const build = (threads: number, coreSize?: number, cellCore?: CellCoreRule, progress?: Progress) =>
      buildOsmPack({
        inputs,
        name: 'hanoi',
        admin: null,
        contraction: { cellStates: 2000, threads, coreSize, cellCore },
        progress,
      });
    let bytes: Uint8Array;
    const steps: string[] = [];
    beforeAll(() => {
      bytes = build(
        2,
        undefined,
        undefined,
        new (class extends Progress {
          override step(phase: string): void {
            steps.push(phase);
          }
        })(null, true),
      );
    }, 300_000);

    it('reports each round after the first as a step of its own', () => {
      const rounds = steps.filter((s) => s.startsWith('contracting round '));
      expect(rounds.length).toBeGreaterThan(0);
      rounds.forEach((s, i) =>
        expect(s).toMatch(new RegExp(`^contracting round ${i + 2}: \\d+ instances, [\\d,]+ states$`)),
      );
      // The rounds follow the step that names the hierarchies, and the next stage follows them.
      const first = steps.findIndex((s) => s.startsWith('contracting round '));
      expect(steps[first - 1]).toMatch(/^contracting \d+ hierarchies/);
    });

    it('runs what is given alongside once, during the first round, for the same hierarchies', () => {
      const jobs = () => vehicleGraphs(Pack.from(bytes)).map((graph) => ({ graph, options: { cellStates: 2000 } }));
      const bytesOf = (c: Contracted) =>
        Object.entries(c.ch).map(([name, a]) => [
          name,
          Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex'),
        ]);
      const plain = contractAll(jobs(), 2).map(bytesOf);
      // In this thread it runs before the first round's tasks; with workers, while they contract them.
      for (const threads of [1, 2]) {
        const heard: string[] = [];
        const chs = contractAll(
          jobs(),
          threads,
          undefined,
          (r) => heard.push(`round ${r.round}`),
          () => heard.push('alongside'),
        );
        expect(heard.slice(0, 3)).toEqual(['round 0', 'alongside', 'round 1']);
        expect(heard.filter((h) => h === 'alongside')).toHaveLength(1);
        expect(chs.map(bytesOf)).toEqual(plain);
      }
      const heard: string[] = [];
      expect(contractAll([], 2, undefined, undefined, () => heard.push('alongside'))).toEqual([]);
      expect(heard).toEqual(['alongside']);
    }, 300_000);

    it('hands ahead no more tasks than a round has: 3 whole hierarchies on 2 threads with work alongside end', () => {
      // 3 tasks and 2 workers: "two tasks ahead each" would be 4, one more than there are.
      const jobs = () => vehicleGraphs(Pack.from(bytes)).map((graph) => ({ graph, options: {} }));
      expect(jobs()).toHaveLength(3);
      const bytesOf = (c: Contracted) =>
        Object.values(c.ch).map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex'));
      const heard: string[] = [];
      const two = contractAll(jobs(), 2, undefined, undefined, () => heard.push('alongside'));
      expect(heard).toEqual(['alongside']);
      expect(two.map(bytesOf)).toEqual(contractAll(jobs(), 1).map(bytesOf));
    }, 300_000);

    it('builds the same bytes with one and two threads, twice', () => {
      expect(Buffer.from(build(1)).equals(Buffer.from(bytes))).toBe(true);
      expect(Buffer.from(build(2)).equals(Buffer.from(bytes))).toBe(true);
    }, 600_000);

    for (const [coreSize, cellCore] of [
      [undefined, undefined],
      [1500, undefined],
      [undefined, EARLY],
    ] as const)
      it(`500 seeded pairs per vehicle equal plain Dijkstra${coreSize ? ', with a forced core' : ''}${cellCore ? ', cells stopping early' : ''}`, () => {
        const pack = Pack.from(coreSize || cellCore ? build(2, coreSize, cellCore) : bytes);
        if (coreSize) expect(index(pack).list.every((e) => e.core > 0)).toBe(true);
        const g = new RoadGraph(pack);
        for (const wasm of [false, true]) {
          const router = new Router(g, pack, { wasm });
          for (const found of checkVehicles(g, router, 21)) expect(found).toBeGreaterThan(250);
        }
      }, 600_000);
  });
});
