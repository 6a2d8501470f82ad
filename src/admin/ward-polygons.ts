/**
 * The official polygons of 2025 wards/communes, as flat typed arrays with a flatbush index over the bounding boxes
 * of their parts, and the point-in-polygon rule every part of bando uses to name the ward of a point.
 *
 * Layout (one typed array per pack section, opened in place):
 * - `unit[w]`: admin unit id of ward w; wards are in ascending unit id (official code order).
 * - `partWard[p]`: the ward of polygon part p (an outer ring with its holes); parts are grouped by ward, in order.
 * - `partRing[p] .. partRing[p + 1]`: the rings of part p; `ringStart[r] .. ringStart[r + 1]`: the vertices of ring r.
 * - `xy[2v], xy[2v + 1]`: longitude, latitude of vertex v, in 1e-7 degree (int32, as every coordinate of a pack).
 * - `index`: a flatbush over the parts' bounding boxes (int32, same units), item p = part p.
 *
 * The rule (deterministic, the same at build time and in the engine):
 * 1. A point lies in a part when a ray towards +x crosses the part's rings an odd number of times (even-odd, so holes
 *    need no orientation); an edge counts when its ends lie on different sides of the point's y, the lower end
 *    included and the upper excluded, so a point on an edge shared by two polygons falls in exactly one of them when
 *    both carry the edge with the same vertices.
 * 2. Of the wards holding the point, the first in unit order wins (official polygons overlap only by mistake: a
 *    known upstream defect overlaps three wards in Lào Cai).
 * 3. A point in no polygon (a sliver between two simplified neighbours) takes the ward whose boundary is nearest,
 *    if within GAP_METRES; else it has no ward.
 */
import Flatbush from 'flatbush';
import { COORD_SCALE } from '../pack/format';
import { isOffsetArray } from '../pack/offsets';
import type { Pack } from '../pack/reader';
import { PackError } from '../pack/reader';

/** Section names of the ward polygons in a pack. */
export const WARD_SECTIONS = {
  unit: 'ward.unit',
  partWard: 'ward.part.ward',
  partRing: 'ward.part.ring',
  ringStart: 'ward.ring.start',
  xy: 'ward.xy',
  index: 'ward.index',
} as const;

/** A point in no polygon takes the nearest ward whose boundary is at most this far, metres. */
const GAP_METRES = 30;
/** Metres per 1e-7 degree of latitude. */
const M_PER_UNIT = 111_320 / COORD_SCALE;

/** The arrays of a set of ward polygons (what a pack stores). */
export interface WardPolygonArrays {
  unit: Int32Array;
  partWard: Uint32Array;
  partRing: Uint32Array;
  ringStart: Uint32Array;
  xy: Int32Array;
  /** The flatbush index's bytes. */
  index: Uint8Array;
}

/**
 * True when `e`, thrown while opening the polygons, is a failed check of the data: the constructor's checks and
 * flatbush's header checks throw plain Errors, typed arrays over bytes that do not fit a RangeError. Anything else (a
 * TypeError, a ReferenceError) is a fault of the code, which must reach the caller as it is (an engine error), never
 * as a corrupt pack.
 */
export function isDataFailure(e: unknown): boolean {
  return e instanceof Error && (e.constructor === Error || e instanceof RangeError);
}

/** Ward polygons, queried by point. */
export class WardPolygons {
  readonly unit: Int32Array;
  readonly partWard: Uint32Array;
  readonly partRing: Uint32Array;
  readonly ringStart: Uint32Array;
  readonly xy: Int32Array;
  private readonly index: Flatbush;

  constructor(a: WardPolygonArrays) {
    this.unit = a.unit;
    this.partWard = a.partWard;
    this.partRing = a.partRing;
    this.ringStart = a.ringStart;
    this.xy = a.xy;
    this.index = Flatbush.from(a.index.buffer, a.index.byteOffset);
    const parts = this.partWard.length;
    const rings = this.ringStart.length - 1;
    // An empty set still has one index item (flatbush needs one), pointing at no part.
    if (
      this.partRing.length !== parts + 1 ||
      this.index.numItems !== Math.max(1, parts) ||
      !isOffsetArray(this.partRing, rings) ||
      !isOffsetArray(this.ringStart, this.xy.length / 2)
    ) {
      throw new Error('ward polygons: arrays disagree in length');
    }
    for (let p = 0; p < parts; p++)
      if (this.partWard[p]! >= this.unit.length) throw new Error('ward polygons: part of an unknown ward');
  }

  /** The polygons of a pack, or null when it has none. Throws PackError when the sections are inconsistent. */
  static fromPack(pack: Pack): WardPolygons | null {
    if (!pack.has(WARD_SECTIONS.unit)) return null;
    try {
      return new WardPolygons({
        unit: pack.array(WARD_SECTIONS.unit),
        partWard: pack.array(WARD_SECTIONS.partWard),
        partRing: pack.array(WARD_SECTIONS.partRing),
        ringStart: pack.array(WARD_SECTIONS.ringStart),
        xy: pack.array(WARD_SECTIONS.xy),
        index: pack.array(WARD_SECTIONS.index),
      });
    } catch (e) {
      if (!isDataFailure(e)) throw e;
      throw new PackError(pack.source, `corrupt ward polygons: ${(e as Error).message}`);
    }
  }

  /** Number of wards. */
  get count(): number {
    return this.unit.length;
  }

  /** The ward (index into `unit`) holding the point (degrees), by the module's rule; -1 for none. */
  wardAt(lat: number, lon: number): number {
    const x = Math.round(lon * COORD_SCALE);
    const y = Math.round(lat * COORD_SCALE);
    let best = -1;
    for (const p of this.index.search(x, y, x, y)) {
      if (p >= this.partWard.length) continue;
      const w = this.partWard[p]!;
      if ((best < 0 || w < best) && this.partContains(p, x, y)) best = w;
    }
    return best >= 0 ? best : this.nearestWithin(x, y, GAP_METRES);
  }

  /** The admin unit id of the ward holding the point (degrees), or -1. */
  unitAt(lat: number, lon: number): number {
    const w = this.wardAt(lat, lon);
    return w < 0 ? -1 : this.unit[w]!;
  }

  /**
   * True when a ward whose admin unit id `units` holds lies within `metres` of the point (degrees): holds it, or has
   * its boundary that near.
   */
  nearAny(lat: number, lon: number, metres: number, units: ReadonlySet<number>): boolean {
    const x = Math.round(lon * COORD_SCALE);
    const y = Math.round(lat * COORD_SCALE);
    const ky = 1 / M_PER_UNIT;
    const kx = ky / Math.max(0.01, Math.cos(lat * (Math.PI / 180)));
    const dy = metres * ky;
    const dx = metres * kx;
    for (const p of this.index.search(x - dx, y - dy, x + dx, y + dy)) {
      if (p >= this.partWard.length || !units.has(this.unit[this.partWard[p]!]!)) continue;
      if (this.partContains(p, x, y) || this.partDistance2(p, x, y, kx / ky) <= metres * metres) return true;
    }
    return false;
  }

  /**
   * The bounding box [minLat, minLon, maxLat, maxLon] (degrees) of the wards whose admin unit id `units` holds, or null
   * when none of them is here.
   */
  boxOf(units: ReadonlySet<number>): [number, number, number, number] | null {
    let box: [number, number, number, number] | null = null;
    for (let p = 0; p < this.partWard.length; p++) {
      if (!units.has(this.unit[this.partWard[p]!]!)) continue;
      const [x0, y0, x1, y1] = this.partBox(p);
      box = box
        ? [Math.min(box[0], y0), Math.min(box[1], x0), Math.max(box[2], y1), Math.max(box[3], x1)]
        : [y0, x0, y1, x1];
    }
    return box && [box[0] / COORD_SCALE, box[1] / COORD_SCALE, box[2] / COORD_SCALE, box[3] / COORD_SCALE];
  }

  /** True when part `p` holds the point (1e-7 degree units), by the even-odd rule. */
  partContains(p: number, x: number, y: number): boolean {
    const xy = this.xy;
    let inside = false;
    for (let r = this.partRing[p]!; r < this.partRing[p + 1]!; r++) {
      const start = this.ringStart[r]!;
      const end = this.ringStart[r + 1]!;
      for (let i = start, j = end - 1; i < end; j = i++) {
        const xi = xy[2 * i]!,
          yi = xy[2 * i + 1]!;
        const xj = xy[2 * j]!,
          yj = xy[2 * j + 1]!;
        if (yi > y !== yj > y && x < xi + ((y - yi) * (xj - xi)) / (yj - yi)) inside = !inside;
      }
    }
    return inside;
  }

  /** The ward whose boundary is nearest to the point within `metres` (ties: lower ward); -1 for none. */
  private nearestWithin(x: number, y: number, metres: number): number {
    const ky = 1 / M_PER_UNIT;
    const kx = ky / Math.max(0.01, Math.cos((y / COORD_SCALE) * (Math.PI / 180)));
    const dy = metres * ky;
    const dx = metres * kx;
    let best = -1;
    let bestD = metres * metres;
    for (const p of this.index.search(x - dx, y - dy, x + dx, y + dy)) {
      if (p >= this.partWard.length) continue;
      const d = this.partDistance2(p, x, y, kx / ky);
      const w = this.partWard[p]!;
      if (d < bestD || (d === bestD && best >= 0 && w < best)) {
        bestD = d;
        best = w;
      }
    }
    return best;
  }

  /** Squared distance in metres from the point to the nearest edge of part `p`; `aspect` = x units per y unit. */
  private partDistance2(p: number, x: number, y: number, aspect: number): number {
    const xy = this.xy;
    let best = Infinity;
    for (let r = this.partRing[p]!; r < this.partRing[p + 1]!; r++) {
      const start = this.ringStart[r]!;
      const end = this.ringStart[r + 1]!;
      for (let i = start, j = end - 1; i < end; j = i++) {
        // Metres in a local equirectangular frame around the point.
        const ax = ((xy[2 * j]! - x) / aspect) * M_PER_UNIT,
          ay = (xy[2 * j + 1]! - y) * M_PER_UNIT;
        const bx = ((xy[2 * i]! - x) / aspect) * M_PER_UNIT,
          by = (xy[2 * i + 1]! - y) * M_PER_UNIT;
        const ex = bx - ax,
          ey = by - ay;
        const l2 = ex * ex + ey * ey;
        let t = l2 > 0 ? -(ax * ex + ay * ey) / l2 : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const px = ax + t * ex,
          py = ay + t * ey;
        const d = px * px + py * py;
        if (d < best) best = d;
      }
    }
    return best;
  }

  /**
   * A point inside ward `w` (degrees): the middle of the widest interior stretch of the horizontal line through the
   * middle of its largest part's bounding box (always inside, unlike a centroid).
   */
  pointInside(w: number): { lat: number; lon: number } | null {
    let bestPart = -1;
    let bestArea = -1;
    for (let p = 0; p < this.partWard.length; p++) {
      if (this.partWard[p] !== w) continue;
      const b = this.partBox(p);
      const area = (b[2] - b[0]) * (b[3] - b[1]);
      if (area > bestArea) {
        bestArea = area;
        bestPart = p;
      }
    }
    if (bestPart < 0) return null;
    const box = this.partBox(bestPart);
    // The scan line sits between vertex latitudes so no vertex lies on it.
    const y = (box[1] + box[3]) / 2 + 0.5;
    const xs: number[] = [];
    const xy = this.xy;
    for (let r = this.partRing[bestPart]!; r < this.partRing[bestPart + 1]!; r++) {
      const start = this.ringStart[r]!;
      const end = this.ringStart[r + 1]!;
      for (let i = start, j = end - 1; i < end; j = i++) {
        const xi = xy[2 * i]!,
          yi = xy[2 * i + 1]!,
          xj = xy[2 * j]!,
          yj = xy[2 * j + 1]!;
        if (yi > y !== yj > y) xs.push(xi + ((y - yi) * (xj - xi)) / (yj - yi));
      }
    }
    xs.sort((a, b) => a - b);
    let mid = -1;
    let width = -1;
    for (let k = 0; k + 1 < xs.length; k += 2) {
      if (xs[k + 1]! - xs[k]! > width) {
        width = xs[k + 1]! - xs[k]!;
        mid = (xs[k]! + xs[k + 1]!) / 2;
      }
    }
    return width < 0 ? null : { lat: y / COORD_SCALE, lon: mid / COORD_SCALE };
  }

  /** Bounding box [minX, minY, maxX, maxY] of part `p`, 1e-7 degree. */
  private partBox(p: number): [number, number, number, number] {
    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (let v = this.ringStart[this.partRing[p]!]!; v < this.ringStart[this.partRing[p + 1]!]!; v++) {
      const x = this.xy[2 * v]!,
        y = this.xy[2 * v + 1]!;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    return [x0, y0, x1, y1];
  }
}
