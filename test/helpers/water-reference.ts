/**
 * An independent picture of the water in a raw OSM file, to judge the engine's images and tiles against: the
 * water areas read straight from the file (closed ways and multipolygon relations with water tags), their rings
 * joined here by a simple repeated merge of pieces sharing an end, and filled per area by an even-odd scanline at
 * pixel centres; and the sea, inside the file's stated bounds, as the points whose nearest coastline segment has
 * them on its right (OSM draws coastline with the land on the left; the segment from a point to its nearest
 * coastline point crosses no coastline, so that side is the point's side). Shares nothing with
 * data-tools/basemap.ts, data-tools/coastline.ts or src/render but the file reader.
 */
import { readOsmFile } from '../../data-tools/osm/read.js';
import type { Member, Tags } from '../../data-tools/osm/types.js';

/** One water area: rings of flat lon, lat pairs (degrees), filled together by the even-odd rule. */
interface WaterArea {
  rings: Float64Array[];
  /** [minLon, minLat, maxLon, maxLat] degrees. */
  box: [number, number, number, number];
}

/** The water of an OSM file. */
export interface OsmWater {
  areas: WaterArea[];
  /** Coastline segments, flat lon0, lat0, lon1, lat1 (degrees) in OSM direction (land on the left). */
  coast: Float64Array;
  /** The bounds the file states [minLon, minLat, maxLon, maxLat], degrees; the sea is judged inside them only. */
  bounds: readonly [number, number, number, number] | null;
}

/** A view in Web Mercator: world pixels of its top-left corner at `zoom` with `tileSize`-pixel tiles, and its size. */
export interface MercatorView {
  zoom: number;
  left: number;
  top: number;
  width: number;
  height: number;
  tileSize: number;
}

/** The tags the project draws as water (style-layers.md, layer `water`). */
const isWater = (t: Tags): boolean =>
  t.natural === 'water' ||
  !!t.water ||
  t.waterway === 'riverbank' ||
  t.landuse === 'reservoir' ||
  t.landuse === 'basin';

/**
 * The water of an OSM file. A multipolygon whose member ways are missing or do not join into closed rings is left
 * out (as the pack builder must), as is an area with a node missing.
 */
export function osmWater(file: string): OsmWater {
  const nodes = new Map<number, [number, number]>();
  const ways = new Map<number, { refs: number[]; tags: Tags }>();
  const relations: { members: Member[]; tags: Tags }[] = [];
  const info = readOsmFile(file, {
    node: (id, lat, lon) => void nodes.set(id, [lon, lat]),
    way: (id, refs, tags) => void ways.set(id, { refs, tags }),
    relation: (_id, members, tags) => void relations.push({ members, tags }),
    feature: () => undefined,
  });
  const areas: WaterArea[] = [];
  const add = (rings: number[][]): void => {
    const out: Float64Array[] = [];
    const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const ring of rings) {
      const flat = new Float64Array(2 * ring.length);
      for (let i = 0; i < ring.length; i++) {
        const p = nodes.get(ring[i]!);
        if (!p) return;
        flat[2 * i] = p[0];
        flat[2 * i + 1] = p[1];
        box[0] = Math.min(box[0], p[0]);
        box[1] = Math.min(box[1], p[1]);
        box[2] = Math.max(box[2], p[0]);
        box[3] = Math.max(box[3], p[1]);
      }
      out.push(flat);
    }
    if (out.length > 0) areas.push({ rings: out, box });
  };
  for (const w of ways.values()) {
    const closed = w.refs.length >= 4 && w.refs[0] === w.refs[w.refs.length - 1];
    if (closed && isWater(w.tags) && w.tags.area !== 'no') add([w.refs]);
  }
  for (const r of relations) {
    if (r.tags.type !== 'multipolygon' || !isWater(r.tags)) continue;
    const pieces: number[][] = [];
    let complete = true;
    for (const m of r.members) {
      if (m.type !== 'way' || !['outer', 'inner', ''].includes(m.role)) continue;
      const w = ways.get(m.ref);
      if (!w) complete = false;
      else pieces.push(w.refs);
    }
    const rings = complete ? mergePieces(pieces) : null;
    if (rings) add(rings);
  }
  const coast: number[] = [];
  for (const w of ways.values()) {
    if (w.tags.natural !== 'coastline') continue;
    for (let i = 0; i + 1 < w.refs.length; i++) {
      const a = nodes.get(w.refs[i]!),
        b = nodes.get(w.refs[i + 1]!);
      if (a && b) coast.push(a[0], a[1], b[0], b[1]);
    }
  }
  return { areas, coast: Float64Array.from(coast), bounds: info.bounds ?? null };
}

/**
 * Joins pieces into rings: while two open pieces share an end, they are merged into one (reversed as needed).
 * Returns null when an open piece remains.
 */
function mergePieces(pieces: number[][]): number[][] | null {
  const open = pieces.filter((p) => p.length >= 2 && p[0] !== p[p.length - 1]).map((p) => [...p]);
  const rings = pieces.filter((p) => p.length >= 4 && p[0] === p[p.length - 1]);
  let merged = true;
  while (merged) {
    merged = false;
    for (let i = 0; i < open.length && !merged; i++) {
      for (let j = i + 1; j < open.length && !merged; j++) {
        const a = open[i]!,
          b = open[j]!;
        let joined: number[] | null = null;
        if (a[a.length - 1] === b[0]) joined = [...a, ...b.slice(1)];
        else if (a[a.length - 1] === b[b.length - 1]) joined = [...a, ...b.slice(0, -1).reverse()];
        else if (a[0] === b[b.length - 1]) joined = [...b, ...a.slice(1)];
        else if (a[0] === b[0]) joined = [...[...b].reverse(), ...a.slice(1)];
        if (!joined) continue;
        merged = true;
        open.splice(j, 1);
        if (joined[0] === joined[joined.length - 1]) {
          open.splice(i, 1);
          rings.push(joined);
        } else open[i] = joined;
      }
    }
  }
  return open.length === 0 ? rings : null;
}

/** World pixel x of a longitude (degrees) at `zoom` with `tileSize`-pixel tiles. */
const worldX = (lon: number, zoom: number, tileSize: number) => ((lon + 180) / 360) * tileSize * 2 ** zoom;
/** World pixel y of a latitude (degrees), Web Mercator. */
const worldY = (lat: number, zoom: number, tileSize: number) => {
  const r = (lat * Math.PI) / 180;
  return ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * tileSize * 2 ** zoom;
};

/**
 * The water mask of a view: 1 where a pixel's centre is inside some area (even-odd within the area), else 0;
 * row-major, `width` × `height`.
 */
export function waterMask(water: OsmWater, v: MercatorView): Uint8Array {
  const mask = seaMask(water, v);
  const areas = water.areas;
  const lonAt = (x: number) => (x / (v.tileSize * 2 ** v.zoom)) * 360 - 180;
  const latAt = (y: number) => {
    const n = Math.PI * (1 - (2 * y) / (v.tileSize * 2 ** v.zoom));
    return (Math.atan(Math.sinh(n)) * 180) / Math.PI;
  };
  const west = lonAt(v.left),
    east = lonAt(v.left + v.width),
    north = latAt(v.top),
    south = latAt(v.top + v.height);
  const xs: number[] = [];
  for (const a of areas) {
    if (a.box[0] > east || a.box[2] < west || a.box[1] > north || a.box[3] < south) continue;
    const rings = a.rings.map((r) => {
      const out = new Float64Array(r.length);
      for (let i = 0; i < r.length; i += 2) {
        out[i] = worldX(r[i]!, v.zoom, v.tileSize) - v.left;
        out[i + 1] = worldY(r[i + 1]!, v.zoom, v.tileSize) - v.top;
      }
      return out;
    });
    for (let py = 0; py < v.height; py++) {
      const y = py + 0.5;
      xs.length = 0;
      for (const r of rings) {
        for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
          const yi = r[i + 1]!,
            yj = r[j + 1]!;
          if (yi > y !== yj > y) xs.push(r[i]! + ((y - yi) * (r[j]! - r[i]!)) / (yj - yi));
        }
      }
      xs.sort((p, q) => p - q);
      for (let k = 0; k + 1 < xs.length; k += 2) {
        const x0 = Math.max(0, Math.ceil(xs[k]! - 0.5)),
          x1 = Math.min(v.width, Math.ceil(xs[k + 1]! - 0.5));
        for (let x = x0; x < x1; x++) mask[py * v.width + x] = 1;
      }
    }
  }
  return mask;
}

/** Pixels per side of the cells in which the coastline segments that can be nearest are gathered once. */
const CELL = 16;

/** The sea mask of a view (see the file comment); zeros without coastline or stated bounds. */
function seaMask(water: OsmWater, v: MercatorView): Uint8Array {
  const mask = new Uint8Array(v.width * v.height);
  const { coast, bounds } = water;
  if (coast.length === 0 || !bounds) return mask;
  const seg = new Float64Array(coast.length);
  for (let i = 0; i < coast.length; i += 2) {
    seg[i] = worldX(coast[i]!, v.zoom, v.tileSize) - v.left;
    seg[i + 1] = worldY(coast[i + 1]!, v.zoom, v.tileSize) - v.top;
  }
  const bx0 = worldX(bounds[0], v.zoom, v.tileSize) - v.left,
    bx1 = worldX(bounds[2], v.zoom, v.tileSize) - v.left;
  const by0 = worldY(bounds[3], v.zoom, v.tileSize) - v.top,
    by1 = worldY(bounds[1], v.zoom, v.tileSize) - v.top;
  /** Squared distance from (x, y) to segment k, and whether (x, y) is right of it (y down: cross product < 0). */
  const dist2 = (k: number, x: number, y: number): number => {
    const ax = seg[k]!,
      ay = seg[k + 1]!,
      dx = seg[k + 2]! - ax,
      dy = seg[k + 3]! - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0;
    return (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2;
  };
  const candidates: number[] = [];
  for (let cy = 0; cy < v.height; cy += CELL) {
    for (let cx = 0; cx < v.width; cx += CELL) {
      // Segments that can be nearest to some pixel of the cell: within the centre's nearest distance plus the
      // cell's diagonal of the centre.
      const mx = cx + CELL / 2,
        my = cy + CELL / 2;
      let best = Infinity;
      for (let k = 0; k < seg.length; k += 4) best = Math.min(best, dist2(k, mx, my));
      const reach = Math.sqrt(best) + CELL * Math.SQRT2;
      candidates.length = 0;
      for (let k = 0; k < seg.length; k += 4) if (dist2(k, mx, my) <= reach * reach) candidates.push(k);
      for (let py = cy; py < Math.min(v.height, cy + CELL); py++) {
        for (let px = cx; px < Math.min(v.width, cx + CELL); px++) {
          const x = px + 0.5,
            y = py + 0.5;
          if (x < bx0 || x > bx1 || y < by0 || y > by1) continue;
          let nearest = -1,
            nd = Infinity,
            side = 0;
          for (const k of candidates) {
            const d = dist2(k, x, y);
            const dx = seg[k + 2]! - seg[k]!,
              dy = seg[k + 3]! - seg[k + 1]!;
            // Signed distance from the segment's line.
            const cross = (dx * (y - seg[k + 1]!) - dy * (x - seg[k]!)) / (Math.hypot(dx, dy) || 1);
            // Ties (the nearest point a vertex shared by two segments): the segment whose line is farther from
            // the point decides, which is the side of the corner the point is in.
            if (d < nd - 1e-9 || (Math.abs(d - nd) <= 1e-9 && Math.abs(cross) > Math.abs(side))) {
              nearest = k;
              nd = d;
              side = cross;
            }
          }
          // Screen y points down, so a point right of the segment's direction has a positive cross product.
          if (nearest >= 0 && side > 0) mask[py * v.width + px] = 1;
        }
      }
    }
  }
  return mask;
}
