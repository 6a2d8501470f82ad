/**
 * The builder's flat stores (issue 14): the OSM store's ways, kept in typed arrays with interned tags, give what a
 * plain map by id gives on real overlapping inputs (later input wins); packs store the arc bearings in the final
 * edge order; a pack built without hierarchies routes by A* with Dijkstra's answers.
 */
import { describe, expect, it } from 'vitest';
import { buildOsmPack } from '../data-tools/build-pack.js';
import { readOsmFile } from '../data-tools/osm/read.js';
import type { Center, Member, OsmSink, Tags } from '../data-tools/osm/types.js';
import { Progress } from '../data-tools/progress.js';
import { OsmStore } from '../data-tools/store.js';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import { ANGLE_STEPS } from '../src/route/turn-model.js';
import { OSM } from './helpers/packs.js';
import { PlainDijkstra, randomEndpoints } from './helpers/route-reference.js';

/** Keeps every element as given, in plain maps by id: the later call for an id replaces the earlier. */
class MapSink implements OsmSink {
  readonly ways = new Map<number, { refs: number[]; tags: Tags; center?: Center }>();
  readonly nodeRefs: number[] = [];
  node(): void {}
  way(id: number, refs: number[], tags: Tags, center?: Center): void {
    this.ways.set(id, center ? { refs, tags, center } : { refs, tags });
  }
  relation(_id: number, members: Member[]): void {
    for (const m of members) if (m.type === 'node') this.nodeRefs.push(m.ref);
  }
  feature(): void {}
}

describe('OsmStore ways', () => {
  it('match a map by id over overlapping real inputs, the later input winning', () => {
    // Two Hanoi extracts of different dates that share many ways (ids), then hospitals with `center`s.
    const inputs = ['hanoi-center-all-2023.overpass.json', 'hanoi-central-drive-2025.overpass.json'].map(
      (f) => OSM + f,
    );
    inputs.push(`${OSM}hanoi-hospitals-2024.overpass.json`);
    const store = new OsmStore();
    const plain = new MapSink();
    inputs.forEach((file, i) => {
      store.inputSeq = i;
      readOsmFile(file, store);
      readOsmFile(file, plain);
    });
    const ids = [...plain.ways.keys()].sort((a, b) => a - b);
    // The inputs do overlap, so the "later wins" rule is exercised.
    const firstIds = new Set<number>();
    readOsmFile(inputs[0]!, { node() {}, way: (id) => firstIds.add(id), relation() {}, feature() {} });
    expect(ids.length).toBeLessThan(firstIds.size + 3_648 + 252);
    expect(store.ways.size).toBe(ids.length);
    const sorted = [...store.sortedWays()];
    expect(sorted.map((w) => w.id)).toEqual(ids);
    for (const w of sorted) {
      const want = plain.ways.get(w.id)!;
      expect(w.refs).toEqual(want.refs);
      // The store composes text (NFC): some inputs hold it decomposed.
      expect(Object.entries(w.tags)).toEqual(Object.entries(want.tags).map(([k, v]) => [k, v.normalize('NFC')]));
      expect(w.center).toEqual(want.center);
      expect(store.ways.get(w.id)).toEqual(w);
    }
    expect(store.ways.get(-1)).toBeUndefined();
    const want = [...new Set([...[...plain.ways.values()].flatMap((w) => w.refs), ...plain.nodeRefs])].sort(
      (a, b) => a - b,
    );
    expect([...store.referencedNodes()]).toEqual(want);
  });
});

describe('packs built by the builder', () => {
  const bytes = buildOsmPack({
    inputs: [`${OSM}hcmc-d1-d3.osm`],
    name: 'hcmc-no-ch',
    progress: new Progress(null, true),
    hierarchies: false,
  });
  const pack = Pack.from(bytes);
  const g = new RoadGraph(pack);

  it('store each arc bearing in the final edge order (straight edges checked by their end points)', () => {
    const stored = pack.array<Uint16Array>('graph.arc.bearing');
    expect(stored.length).toBe(2 * g.edgeCount);
    let checked = 0;
    for (let e = 0; e < g.edgeCount; e++) {
      // An edge without shape points longer than the 10 m look-ahead leaves each end straight towards the other.
      if (g.edgeShape.at(e + 1) !== g.edgeShape.at(e) || g.edgeLen[e]! < 20) continue;
      const [u, v] = [g.edgeNodes[2 * e]!, g.edgeNodes[2 * e + 1]!];
      for (const [dir, from, to] of [
        [0, u, v],
        [1, v, u],
      ] as const) {
        const cos = Math.cos((g.lat(from) * Math.PI) / 180);
        const deg = (Math.atan2((g.lon(to) - g.lon(from)) * cos, g.lat(to) - g.lat(from)) * 180) / Math.PI;
        const want = Math.round((deg * ANGLE_STEPS) / 360) & (ANGLE_STEPS - 1);
        const diff = Math.abs(stored[2 * e + dir]! - want);
        expect(Math.min(diff, ANGLE_STEPS - diff)).toBeLessThanOrEqual(1);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('without hierarchies route by A* with plain Dijkstra weights', () => {
    expect([...pack.sections.keys()].some((n) => n.startsWith('ch.'))).toBe(false);
    const router = new Router(g, pack, { wasm: false });
    const profile = 0;
    const pts = randomEndpoints(g, router, profile, 24, 7);
    const plain = new PlainDijkstra(g, profile, 'fastest');
    let routed = 0;
    for (const a of pts.slice(0, 12)) {
      const dist = plain.run(a.edge, a.t);
      for (const b of pts.slice(12)) {
        const want = plain.to(dist, a, b.edge, b.t);
        const got = router.leg(a, b, profile)?.weight ?? Infinity;
        if (want === Infinity) expect(got).toBe(Infinity);
        else {
          expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-6 * Math.max(1, want));
          routed++;
        }
      }
    }
    expect(routed).toBeGreaterThan(100);
  });
});
