/**
 * The building outlines of a region's basemap (its `building` layer: closed ways and multipolygons tagged
 * `building=*` that no park or water tag claimed first), indexed for reverse geocoding: which buildings hold a point.
 * An outline carries only its rings and its name in the pack (no OSM id, no house number); reverse.ts matches it to
 * the places that stand for it.
 */
import Flatbush from 'flatbush';
import type { Basemap } from '../map/basemap';
import { GeomType, KIND_INDEX } from '../map/kinds';
import { COORD_SCALE } from '../pack/format';

const BUILDING = KIND_INDEX['building/building']!;

/** The buildings of one basemap. */
export class BuildingIndex {
  /** Basemap feature id of each indexed building (flatbush item k is building[k]). */
  private readonly building: Uint32Array;
  /** Flatbush over the buildings' bounding boxes in 1e-7 degree; null when the basemap has no building. */
  private readonly index: Flatbush | null;

  constructor(readonly map: Basemap) {
    const ids: number[] = [];
    for (let f = 0; f < map.count; f++) if (map.kind[f] === BUILDING && map.type[f] === GeomType.polygon) ids.push(f);
    this.building = Uint32Array.from(ids);
    if (ids.length === 0) {
      this.index = null;
      return;
    }
    const index = new Flatbush(ids.length, 16, Int32Array);
    for (const f of ids) index.add(map.bbox[4 * f]!, map.bbox[4 * f + 1]!, map.bbox[4 * f + 2]!, map.bbox[4 * f + 3]!);
    index.finish();
    this.index = index;
  }

  /** The buildings (basemap feature ids) whose outline holds the point (degrees), smallest bounding box first. */
  holding(lat: number, lng: number): number[] {
    if (!this.index) return [];
    const x = Math.round(lng * COORD_SCALE);
    const y = Math.round(lat * COORD_SCALE);
    const b = this.map.bbox;
    const area = (f: number) => (b[4 * f + 2]! - b[4 * f]!) * (b[4 * f + 3]! - b[4 * f + 1]!);
    return this.index
      .search(x, y, x, y)
      .map((k) => this.building[k]!)
      .filter((f) => this.contains(f, lat, lng))
      .sort((f, g) => area(f) - area(g) || f - g);
  }

  /**
   * True when building `f`'s outline holds the point (degrees): a ray towards +x crosses its rings (outer and holes)
   * an odd number of times, an edge counting when its ends lie on different sides of the point's y (lower end in).
   */
  contains(f: number, lat: number, lng: number): boolean {
    const { featPart } = this.map;
    const x = lng * COORD_SCALE;
    const y = lat * COORD_SCALE;
    let inside = false;
    // Each edge from point j to point i once, the ring's closing edge (last to first) after the others.
    const cross = (xi: number, yi: number, xj: number, yj: number) => {
      if (yi > y !== yj > y && x < xi + ((y - yi) * (xj - xi)) / (yj - yi)) inside = !inside;
    };
    for (let p = featPart.at(f); p < featPart.at(f + 1); p++) {
      let x0 = 0,
        y0 = 0,
        xj = 0,
        yj = 0,
        k = 0;
      this.map.forEachPoint(p, (xi, yi) => {
        if (k++ === 0) {
          x0 = xi;
          y0 = yi;
        } else cross(xi, yi, xj, yj);
        xj = xi;
        yj = yi;
      });
      if (k > 0) cross(x0, y0, xj, yj);
    }
    return inside;
  }

  /** Building `f`'s bounding box [minLon, minLat, maxLon, maxLat], degrees. */
  box(f: number): [number, number, number, number] {
    const b = this.map.bbox;
    return [
      b[4 * f]! / COORD_SCALE,
      b[4 * f + 1]! / COORD_SCALE,
      b[4 * f + 2]! / COORD_SCALE,
      b[4 * f + 3]! / COORD_SCALE,
    ];
  }
}
