/**
 * Tile generation time on the Hanoi pack: every tile at z14, z15 and z16 over the pack's area, in a shuffled
 * order (fixed seed). "prepare" builds a fresh source's index (TileSource.prepare); "cold" is each
 * tile's first request (cut + encode, index already built); "warm" is the same tile again (LRU hit).
 * Run: npx tsx bench/tiles.ts
 */
import { performance } from 'node:perf_hooks';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { createTileSource } from '../src/map/tiles/source.js';
import { testPack } from '../test/helpers/packs.js';

const region = new Region(Pack.from(testPack('hanoi')));
const [w, s, e, n] = region.meta.bbox!;
const tileX = (lon: number, z: number) => Math.floor(((lon + 180) / 360) * 2 ** z);
const tileY = (lat: number, z: number) => {
  const r = (lat * Math.PI) / 180;
  return Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
};
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

let seed = 42;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

for (const z of [14, 15, 16]) {
  const tiles: [number, number][] = [];
  for (let x = tileX(w, z); x <= tileX(e, z); x++) for (let y = tileY(n, z); y <= tileY(s, z); y++) tiles.push([x, y]);
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [tiles[i], tiles[j]] = [tiles[j]!, tiles[i]!];
  }
  const source = createTileSource(region);
  let t0 = performance.now();
  source.prepare();
  const prepare = performance.now() - t0;
  t0 = performance.now();
  source.tile(z, tiles[0]![0], tiles[0]![1]);
  const index = performance.now() - t0;
  const cold: number[] = [];
  const warm: number[] = [];
  let bytes = 0,
    nonEmpty = 0;
  for (const [x, y] of tiles.slice(1)) {
    t0 = performance.now();
    const b = source.tile(z, x, y);
    cold.push(performance.now() - t0);
    if (b) {
      bytes += b.length;
      nonEmpty++;
    }
  }
  for (const [x, y] of tiles.slice(1)) {
    t0 = performance.now();
    source.tile(z, x, y);
    warm.push(performance.now() - t0);
  }
  console.log(
    `z${z}: ${tiles.length} tiles (${nonEmpty + 1} non-empty), prepare ${prepare.toFixed(0)} ms, first tile ${index.toFixed(1)} ms; ` +
      `cold p50 ${pct(cold, 50).toFixed(2)} ms p95 ${pct(cold, 95).toFixed(2)} ms; warm p50 ${pct(warm, 50).toFixed(4)} ms; ` +
      `mean size ${(bytes / Math.max(1, nonEmpty) / 1024).toFixed(1)} KiB`,
  );
}
