/**
 * Builds WardPolygons arrays (see ward-polygons.ts): wards are added with their polygon parts, then `finish`
 * orders them by unit id, optionally clips them to a rectangle, and indexes the parts' bounding boxes.
 * Deterministic: the same wards give the same bytes whatever order they were added in.
 */
import Flatbush from 'flatbush';
import { COORD_SCALE } from '../pack/format';
import { WardPolygons, type WardPolygonArrays } from './ward-polygons';

/** A ring as GeoJSON writes it: [lon, lat] pairs in degrees (closing vertex optional). */
type Ring = ReadonlyArray<readonly [number, number] | readonly number[]>;
/** A polygon part: the outer ring, then its holes. */
export type Part = readonly Ring[];
/** A rectangle [minLon, minLat, maxLon, maxLat], degrees. */
export type Rect = readonly [number, number, number, number];

/** Flatbush node size (items per node): small, as queries are single points. */
const NODE_SIZE = 8;

/**
 * Collects wards and writes the arrays. Rings are kept as they are added, converted to flat Int32Arrays (1e-7 degree,
 * no closing vertex): the whole country's 3,321 wards in about 20 MB instead of the GeoJSON arrays' hundreds.
 */
export class WardPolygonsBuilder {
  /** Each ward's parts, each part its rings (outer first), each ring flat [x, y] in 1e-7 degree. */
  private readonly wards = new Map<number, Int32Array[][]>();

  /** Adds ward `unit` (its admin unit id) with its parts; adding the same unit twice adds more parts to it. */
  add(unit: number, parts: readonly Part[]): this {
    const list = this.wards.get(unit) ?? [];
    for (const part of parts) list.push(part.map(toUnits));
    this.wards.set(unit, list);
    return this;
  }

  /** Number of wards added. */
  get size(): number {
    return this.wards.size;
  }

  /**
   * The arrays of the wards, in unit order; with `clip`, only what lies inside the rectangle is kept (parts
   * clipped ring by ring; wards with nothing left are dropped). Points inside the rectangle get the same ward from
   * the clipped polygons as from the whole ones.
   */
  finish(clip?: Rect): WardPolygonArrays {
    const units: number[] = [];
    const partWard: number[] = [];
    const partRing: number[] = [0];
    const ringStart: number[] = [0];
    /** The kept rings in order; copied once into `xy` when their total length is known. */
    const kept: ArrayLike<number>[] = [];
    let vertices = 0;
    const box: Rect | null = clip
      ? ([0, 1, 2, 3].map((k) => Math.round(clip[k]! * COORD_SCALE)) as unknown as Rect)
      : null;
    for (const unit of [...this.wards.keys()].sort((a, b) => a - b)) {
      const w = units.length;
      let partsKept = 0;
      for (const part of this.wards.get(unit)!) {
        const rings: ArrayLike<number>[] = [];
        for (const ring of part) {
          const pts = box ? clipRing(ring, box) : ring;
          if (pts.length >= 6) rings.push(pts);
          else if (rings.length === 0) break; // the outer ring is gone (outside the rectangle): so is the part
        }
        if (rings.length === 0) continue;
        for (const r of rings) {
          kept.push(r);
          vertices += r.length / 2;
          ringStart.push(vertices);
        }
        partWard.push(w);
        partRing.push(ringStart.length - 1);
        partsKept++;
      }
      if (partsKept > 0) units.push(unit);
    }
    const xyArr = new Int32Array(vertices * 2);
    let at = 0;
    for (const r of kept) {
      xyArr.set(r, at);
      at += r.length;
    }
    const index = new Flatbush(Math.max(1, partWard.length), NODE_SIZE, Int32Array);
    for (let p = 0; p < partWard.length; p++) {
      let x0 = Infinity,
        y0 = Infinity,
        x1 = -Infinity,
        y1 = -Infinity;
      for (let v = ringStart[partRing[p]!]!; v < ringStart[partRing[p + 1]!]!; v++) {
        x0 = Math.min(x0, xyArr[2 * v]!);
        x1 = Math.max(x1, xyArr[2 * v]!);
        y0 = Math.min(y0, xyArr[2 * v + 1]!);
        y1 = Math.max(y1, xyArr[2 * v + 1]!);
      }
      index.add(x0, y0, x1, y1);
    }
    // Flatbush needs one item: an empty set gets a box no point reaches (-2^31 corner), pointing at no part.
    if (partWard.length === 0) index.add(-2147483648, -2147483648, -2147483648, -2147483648);
    index.finish();
    const arrays: WardPolygonArrays = {
      unit: Int32Array.from(units),
      partWard: Uint32Array.from(partWard),
      partRing: Uint32Array.from(partRing),
      ringStart: Uint32Array.from(ringStart),
      xy: xyArr,
      index: new Uint8Array(index.data as ArrayBuffer),
    };
    new WardPolygons(arrays); // checks the arrays agree
    return arrays;
  }
}

/** Ring vertices as flat [x, y] in 1e-7 degree, without a repeated closing vertex (compared after rounding). */
function toUnits(ring: Ring): Int32Array {
  const out = new Int32Array(2 * ring.length);
  for (let i = 0; i < ring.length; i++) {
    out[2 * i] = Math.round(ring[i]![0]! * COORD_SCALE);
    out[2 * i + 1] = Math.round(ring[i]![1]! * COORD_SCALE);
  }
  const n = out.length;
  return n >= 4 && out[0] === out[n - 2] && out[1] === out[n - 1] ? out.subarray(0, n - 2) : out;
}

/**
 * Sutherland–Hodgman clipping of a ring (flat x, y) to a rectangle in the same units. The result may run along
 * the rectangle's sides; inside the rectangle it holds exactly the points the ring held.
 */
function clipRing(pts: ArrayLike<number>, box: Rect): ArrayLike<number> {
  const [x0, y0, x1, y1] = box;
  let out: ArrayLike<number> = pts;
  const edges: Array<
    [(x: number, y: number) => boolean, (ax: number, ay: number, bx: number, by: number) => [number, number]]
  > = [
    [(x) => x >= x0, (ax, ay, bx, by) => [x0, Math.round(ay + ((x0 - ax) * (by - ay)) / (bx - ax))]],
    [(x) => x <= x1, (ax, ay, bx, by) => [x1, Math.round(ay + ((x1 - ax) * (by - ay)) / (bx - ax))]],
    [(_, y) => y >= y0, (ax, ay, bx, by) => [Math.round(ax + ((y0 - ay) * (bx - ax)) / (by - ay)), y0]],
    [(_, y) => y <= y1, (ax, ay, bx, by) => [Math.round(ax + ((y1 - ay) * (bx - ax)) / (by - ay)), y1]],
  ];
  for (const [inside, cross] of edges) {
    const src = out;
    const next: number[] = [];
    const n = src.length / 2;
    for (let i = 0; i < n; i++) {
      const ax = src[2 * ((i + n - 1) % n)]!,
        ay = src[2 * ((i + n - 1) % n) + 1]!;
      const bx = src[2 * i]!,
        by = src[2 * i + 1]!;
      const aIn = inside(ax, ay);
      const bIn = inside(bx, by);
      if (bIn) {
        if (!aIn) next.push(...cross(ax, ay, bx, by));
        next.push(bx, by);
      } else if (aIn) {
        next.push(...cross(ax, ay, bx, by));
      }
    }
    out = next;
    if (out.length === 0) break;
  }
  return out;
}
