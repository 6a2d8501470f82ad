/**
 * The sea of an extract from its `natural=coastline` ways. OSM draws the coastline with the land on its left, so
 * the sea is on the right of every coastline chain. Chains that cross the extract's edge are closed along that
 * edge, clockwise (the way a region on the right of its boundary is walked) from each chain's end to the next
 * chain's start; closed chains are islands, holes in the sea around them.
 *
 * Coordinates are [lon, lat] pairs in 1e-7 degrees (the pack's unit).
 */

/** A point [lon, lat], 1e-7 degrees. */
export type XY = readonly [number, number];

/** Chain ends farther inside the extract than this (1e-7 degrees, about 100 m) mean a coastline with a gap. */
const END_TOLERANCE = 10_000;

/**
 * The sea polygons: each an outer ring (clockwise) then its islands, rings as lists of points (first repeated last).
 * @param ways the coastline ways as point lists, in OSM direction (land on the left)
 * @param box the extract's bounds [minLon, minLat, maxLon, maxLat], 1e-7 degrees
 * @returns the polygons ([] without coastline), or null when the coastline cannot be closed (a chain ending
 *   inside the extract): the sea is then left out rather than flooding the land
 */
export function seaPolygons(ways: readonly (readonly XY[])[], box: readonly number[]): XY[][][] | null {
  const { open, closed } = chainCoastline(ways);
  if (open === null) return null;
  if (open.length === 0) return [];
  const perimeter = 2 * (box[2]! - box[0]! + (box[3]! - box[1]!));
  const ends: number[] = [];
  for (const chain of open) {
    for (const p of [chain[0]!, chain[chain.length - 1]!]) {
      const t = perimeterPosition(p, box);
      if (t === null) return null;
      ends.push(t);
    }
  }
  const used = new Uint8Array(open.length);
  const rings: XY[][] = [];
  for (let first = 0; first < open.length; first++) {
    if (used[first]) continue;
    const ring: XY[] = [];
    let c = first;
    for (;;) {
      used[c] = 1;
      ring.push(...open[c]!);
      // Clockwise along the edge from this chain's end to the nearest chain start.
      const from = ends[2 * c + 1]!;
      let next = -1;
      let best = Infinity;
      for (let k = 0; k < open.length; k++) {
        const d = (ends[2 * k]! - from + perimeter) % perimeter;
        if (d < best && (k === first || !used[k])) ((best = d), (next = k));
      }
      // Along the edge itself (chain ends may lie just outside the extract), then on to the next chain's start.
      ring.push(pointAt(from, box));
      ring.push(...cornersBetween(from, from + best, box, perimeter));
      ring.push(pointAt(ends[2 * next]!, box));
      if (next === first) break;
      c = next;
    }
    ring.push(ring[0]!);
    rings.push(ring);
  }
  return rings.map((outer) => [outer, ...closed.filter((island) => insideRing(island[0]!, outer))]);
}

/**
 * Chains the ways end to start (never reversed: the direction says where the sea is).
 * @returns the open chains (start and end nodes unmatched) and the closed ones; open null when a node starts two
 *   ways (a coastline that branches)
 */
function chainCoastline(ways: readonly (readonly XY[])[]): { open: XY[][] | null; closed: XY[][] } {
  const key = (p: XY): string => `${p[0]},${p[1]}`;
  const byStart = new Map<string, number>();
  const ends = new Set<string>();
  const usable = ways.filter((w) => w.length >= 2);
  for (let i = 0; i < usable.length; i++) {
    const k = key(usable[i]![0]!);
    if (byStart.has(k)) return { open: null, closed: [] };
    byStart.set(k, i);
    ends.add(key(usable[i]![usable[i]!.length - 1]!));
  }
  const used = new Uint8Array(usable.length);
  const open: XY[][] = [];
  const closed: XY[][] = [];
  const follow = (start: number): XY[] => {
    const chain: XY[] = [...usable[start]!];
    used[start] = 1;
    for (;;) {
      const next = byStart.get(key(chain[chain.length - 1]!));
      if (next === undefined || used[next]) return chain;
      used[next] = 1;
      chain.push(...usable[next]!.slice(1));
    }
  };
  // Chains begin where no way ends; what is left after them are rings.
  for (let i = 0; i < usable.length; i++) if (!ends.has(key(usable[i]![0]!))) open.push(follow(i));
  for (let i = 0; i < usable.length; i++) if (!used[i]) closed.push(follow(i));
  for (const ring of closed) {
    if (key(ring[0]!) !== key(ring[ring.length - 1]!)) return { open: null, closed: [] };
  }
  return { open, closed };
}

/** The point of the box nearest `p`. */
function clamp(p: XY, box: readonly number[]): XY {
  return [Math.min(box[2]!, Math.max(box[0]!, p[0])), Math.min(box[3]!, Math.max(box[1]!, p[1]))];
}

/**
 * Clockwise distance along the box's edge from its north-west corner to the edge point nearest `p` (1e-7 degrees),
 * or null when `p` lies inside the box farther than END_TOLERANCE from the edge.
 */
function perimeterPosition(p: XY, box: readonly number[]): number | null {
  const [x0, y0, x1, y1] = box as [number, number, number, number];
  const [x, y] = clamp(p, box);
  const w = x1 - x0,
    h = y1 - y0;
  const gaps = [y1 - y, x1 - x, y - y0, x - x0]; // north, east, south, west
  const side = gaps.indexOf(Math.min(...gaps));
  if (gaps[side]! > END_TOLERANCE && x === p[0] && y === p[1]) return null;
  if (side === 0) return x - x0;
  if (side === 1) return w + (y1 - y);
  if (side === 2) return w + h + (x1 - x);
  return 2 * w + h + (y - y0);
}

/** The edge point at clockwise distance `t` from the box's north-west corner (inverse of perimeterPosition). */
function pointAt(t: number, box: readonly number[]): XY {
  const [x0, y0, x1, y1] = box as [number, number, number, number];
  const w = x1 - x0,
    h = y1 - y0;
  if (t <= w) return [x0 + t, y1];
  if (t <= w + h) return [x1, y1 - (t - w)];
  if (t <= 2 * w + h) return [x1 - (t - w - h), y0];
  return [x0, y0 + (t - 2 * w - h)];
}

/** The box corners passed going clockwise from edge position `a` to `b` (b ≥ a, positions wrap at the perimeter). */
function cornersBetween(a: number, b: number, box: readonly number[], perimeter: number): XY[] {
  const [x0, y0, x1, y1] = box as [number, number, number, number];
  const w = x1 - x0,
    h = y1 - y0;
  const corners: [number, XY][] = [
    [w, [x1, y1]],
    [w + h, [x1, y0]],
    [2 * w + h, [x0, y0]],
    [perimeter, [x0, y1]],
  ];
  const out: XY[] = [];
  for (let lap = 0; lap <= 1; lap++) {
    for (const [t, corner] of corners) {
      const at = t + lap * perimeter;
      if (at > a && at < b) out.push(corner);
    }
  }
  return out;
}

/** Even-odd point in ring. */
function insideRing(p: XY, ring: readonly XY[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
