import { describe, expect, it } from 'vitest';
import { createMapResources } from '../src/adapters/http/map-resources.js';
import { createEngine } from '../src/engine.js';
import { createTileSource } from '../src/map/tiles/source.js';
import { Pack } from '../src/pack/reader.js';
import { PlaceKind } from '../src/places/kinds.js';
import { Region } from '../src/region.js';
import { testPack } from './helpers/packs.js';

/** Radius of the neighbourhood a map view shows around its centre at zoom 14, metres. */
const RADIUS = 1500;
const M_PER_DEG = 111_320;

/** The road nodes and points of interest (not addresses, streets or units) of a region, [lon, lat] degrees. */
function points(region: Region): [number, number][] {
  const out: [number, number][] = [];
  const g = region.graph;
  for (let i = 0; i < g.nodeCount; i++) out.push([g.nodeLon[i]! / 1e7, g.nodeLat[i]! / 1e7]);
  const p = region.places!;
  for (let i = 0; i < p.count; i++) if (p.kind[i] === PlaceKind.poi) out.push([p.lon[i]! / 1e7, p.lat[i]! / 1e7]);
  return out;
}

/** Points within RADIUS of (lon, lat), by brute force. */
function around(pts: readonly [number, number][], lon: number, lat: number): number {
  const k = Math.cos((lat * Math.PI) / 180);
  let n = 0;
  for (const [x, y] of pts) if (Math.hypot((x - lon) * k, y - lat) * M_PER_DEG <= RADIUS) n++;
  return n;
}

/** The most points within RADIUS of any centre of a 0.005° grid over the points (counted by grid buckets). */
function densest(pts: readonly [number, number][]): number {
  const step = 0.005;
  const cells = new Map<string, number>();
  for (const [x, y] of pts) {
    const key = `${Math.floor(x / step)},${Math.floor(y / step)}`;
    cells.set(key, (cells.get(key) ?? 0) + 1);
  }
  const reach = Math.ceil(RADIUS / M_PER_DEG / step / Math.cos((pts[0]![1] * Math.PI) / 180));
  let best = 0;
  for (const key of cells.keys()) {
    const [cx, cy] = key.split(',').map(Number) as [number, number];
    let n = 0;
    for (let dx = -reach; dx <= reach; dx++)
      for (let dy = -reach; dy <= reach; dy++) {
        const c = cells.get(`${cx + dx},${cy + dy}`);
        if (c && Math.hypot(dx * Math.cos((cy * step * Math.PI) / 180), dy) * step * M_PER_DEG <= RADIUS) n += c;
      }
    best = Math.max(best, n);
  }
  return best;
}

describe('where the web map opens', () => {
  it.each(['hcmc-city', 'dalat'] as const)('on %s: where its roads and places are densest', (name) => {
    const region = new Region(Pack.from(testPack(name)));
    const view = createTileSource(region).view()!;
    expect(view.zoom).toBe(14);
    const pts = points(region);
    // The view holds at least 70 % of what the densest 3 km circle anywhere in the pack holds.
    expect(around(pts, view.center[0], view.center[1])).toBeGreaterThanOrEqual(0.7 * densest(pts));
    // Whole HCMC opens in its centre (within 3 km of Bến Thành market), not on the mass address import of former
    // Quận 9, which holds more places per km² than anywhere else in the extract.
    if (name === 'hcmc-city')
      expect(
        Math.hypot((view.center[0] - 106.698) * Math.cos(0.188), view.center[1] - 10.7725) * M_PER_DEG,
      ).toBeLessThan(3000);
  });

  it('on the default pack: in central Hanoi, not at the edge of its data', async () => {
    const region = (await createEngine()).regions[0]!;
    const view = createTileSource(region).view()!;
    const pts = points(region);
    expect(around(pts, view.center[0], view.center[1])).toBeGreaterThanOrEqual(0.7 * densest(pts));
  });

  it('a multi-pack server opens on its first pack; --center and --zoom override', async () => {
    const dalat = new Region(Pack.from(testPack('dalat')));
    const hcmc = new Region(Pack.from(testPack('hcmc-city')));
    const source = createTileSource([dalat, hcmc]);
    const view = source.view()!;
    expect(view).toEqual(createTileSource(dalat).view());
    const style = async (options: Parameters<typeof createMapResources>[1]) => {
      const route = createMapResources(source, { demo: false, ...options }).find((r) => r.name === 'style')!;
      const url = new URL('https://maps.example/styles/default/style.json?key=k');
      const response = await route.handle(new Request(url), url);
      return (await (response as Response).json()) as { center: number[]; zoom: number };
    };
    expect(await style({})).toMatchObject({ center: view.center, zoom: 14 });
    expect(await style({ center: [106.7, 10.78], zoom: 12 })).toMatchObject({ center: [106.7, 10.78], zoom: 12 });
  });
});
