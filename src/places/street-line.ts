/**
 * A street's roads as one set of segments — every road edge carrying one of its names, with their shape — for the
 * test "within so many metres of the street" (a place on it, or near it). Built once per street and kept: a scan of
 * its own few hundred segments is cheaper than a search of the whole road grid per candidate place.
 */
import type { PlacesRegion } from './region-places';
import { withoutNote } from './text/name-note';

/** Metres per degree of latitude. */
const M_PER_DEG = 111_320;

/** Edge ids by their name without a note at its end, per region, built at first use. */
const edgesByName = new WeakMap<PlacesRegion, Map<string, number[]>>();
/** Street lines per region, by their names without their notes (sorted, joined). */
const lines = new WeakMap<PlacesRegion, Map<string, StreetLine>>();

/** The road edges whose name, without a note at its end, is `name`. */
function edgesOfName(r: PlacesRegion, name: string): readonly number[] {
  let byName = edgesByName.get(r);
  if (!byName) {
    byName = new Map();
    const textOf = new Map<number, string>(); // name string id → text: names repeat along a street's edges
    const names = r.region.graph.edgeName;
    for (let e = 0; e < names.length; e++) {
      const id = names.at(e);
      let k = textOf.get(id);
      if (k === undefined) textOf.set(id, (k = id === 0 ? '' : withoutNote(r.region.strings.get(id))));
      if (k === '') continue;
      const list = byName.get(k);
      if (list) list.push(e);
      else byName.set(k, [e]);
    }
    edgesByName.set(r, byName);
  }
  return byName.get(name) ?? [];
}

/**
 * The road edges carrying the name (string id `name`) in region `r`, with a note at its end or none (the roads of the
 * street "Ðồng Khởi" are named "Ðồng Khởi (ex Catinat)").
 */
export function edgesNamed(r: PlacesRegion, name: number): readonly number[] {
  return edgesOfName(r, withoutNote(r.region.strings.get(name)));
}

/** The roads of a street. */
export class StreetLine {
  /** Segments as x0, y0, x1, y1 in metres east and north of (lat0, lon0). */
  private readonly xy: Float64Array;
  private readonly lat0: number;
  private readonly lon0: number;
  private readonly kx: number;
  /** Bounding box of the roads, metres (minX, minY, maxX, maxY); empty when the street has no road. */
  private readonly box: [number, number, number, number];

  private constructor(r: PlacesRegion, names: readonly string[]) {
    const g = r.region.graph;
    const pts: number[] = []; // per segment: lat0, lon0, lat1, lon1 (degrees)
    for (const name of names)
      for (const e of edgesOfName(r, name)) {
        const s0 = g.edgeShape.at(e);
        const s1 = g.edgeShape.at(e + 1);
        let lat = g.lat(g.edgeNodes[2 * e]!);
        let lon = g.lon(g.edgeNodes[2 * e]!);
        for (let s = s0; s <= s1; s++) {
          const last = s === s1;
          const nlat = last ? g.lat(g.edgeNodes[2 * e + 1]!) : g.shapeLat[s]! / 1e7;
          const nlon = last ? g.lon(g.edgeNodes[2 * e + 1]!) : g.shapeLon[s]! / 1e7;
          pts.push(lat, lon, nlat, nlon);
          lat = nlat;
          lon = nlon;
        }
      }
    this.lat0 = pts[0] ?? 0;
    this.lon0 = pts[1] ?? 0;
    this.kx = M_PER_DEG * Math.cos(this.lat0 * (Math.PI / 180));
    this.xy = new Float64Array(pts.length);
    this.box = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < pts.length; i += 2) {
      const x = (pts[i + 1]! - this.lon0) * this.kx;
      const y = (pts[i]! - this.lat0) * M_PER_DEG;
      this.xy[i] = x;
      this.xy[i + 1] = y;
      this.box = [
        Math.min(this.box[0], x),
        Math.min(this.box[1], y),
        Math.max(this.box[2], x),
        Math.max(this.box[3], y),
      ];
    }
  }

  /** The roads carrying any of the names (string ids; see edgesNamed), cached per region. */
  static of(r: PlacesRegion, names: Iterable<number>): StreetLine {
    const texts = [...new Set([...names].map((id) => withoutNote(r.region.strings.get(id))))].sort();
    let byNames = lines.get(r);
    if (!byNames) lines.set(r, (byNames = new Map()));
    const joined = texts.join('|');
    let line = byNames.get(joined);
    if (!line) byNames.set(joined, (line = new StreetLine(r, texts)));
    return line;
  }

  /** Whether the street has roads at all. */
  get empty(): boolean {
    return this.xy.length === 0;
  }

  /** Whether (lat, lon) degrees lies within `metres` of a road of the street. */
  near(lat: number, lon: number, metres: number): boolean {
    const x = (lon - this.lon0) * this.kx;
    const y = (lat - this.lat0) * M_PER_DEG;
    const b = this.box;
    if (x < b[0] - metres || y < b[1] - metres || x > b[2] + metres || y > b[3] + metres) return false;
    return this.closest(x, y, metres * metres) <= metres * metres;
  }

  /**
   * The point of the street's roads nearest (lat, lon) degrees: [lat, lon, metres away]; null for a street without
   * roads.
   */
  nearest(lat: number, lon: number): [number, number, number] | null {
    if (this.empty) return null;
    const d2 = this.closest((lon - this.lon0) * this.kx, (lat - this.lat0) * M_PER_DEG, 0);
    return [this.at[1] / M_PER_DEG + this.lat0, this.at[0] / this.kx + this.lon0, Math.sqrt(d2)];
  }

  /**
   * A point of the street's roads (a segment's end, degrees) within `metres` of a road of `other`, or null: where two
   * streets come that near each other.
   */
  pointNear(other: StreetLine, metres: number): [number, number] | null {
    const xy = this.xy;
    for (let i = 0; i < xy.length; i += 2) {
      const lat = xy[i + 1]! / M_PER_DEG + this.lat0;
      const lon = xy[i]! / this.kx + this.lon0;
      if (other.near(lat, lon, metres)) return [lat, lon];
    }
    return null;
  }

  /** The nearest point of the roads found by the last `closest` (metres east and north of lat0, lon0). */
  private readonly at: [number, number] = [0, 0];

  /**
   * The squared distance, metres², from (x, y) to the nearest road segment, the scan stopping at the first within
   * `enough` (m²); the point found is left in `at`.
   */
  private closest(x: number, y: number, enough: number): number {
    const xy = this.xy;
    let best = Infinity;
    for (let i = 0; i < xy.length; i += 4) {
      const ax = xy[i]!,
        ay = xy[i + 1]!;
      const ex = xy[i + 2]! - ax,
        ey = xy[i + 3]! - ay;
      const l2 = ex * ex + ey * ey;
      let t = l2 > 0 ? ((x - ax) * ex + (y - ay) * ey) / l2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const px = ax + t * ex,
        py = ay + t * ey;
      const d2 = (px - x) * (px - x) + (py - y) * (py - y);
      if (d2 < best) {
        best = d2;
        this.at[0] = px;
        this.at[1] = py;
        if (d2 <= enough) break;
      }
    }
    return best;
  }
}
