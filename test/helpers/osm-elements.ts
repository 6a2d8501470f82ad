/**
 * The tagged elements of a test pack's OSM input files, read with the OSM readers (PBF, OSM XML, Overpass JSON) and
 * nothing of the place search: tags and a position (a node's own; a way's centre when the file gives one, else the
 * mean of its nodes). Relations are left out (no position without their members' geometry). The truth of place-search
 * tests on any pack, the whole-city PBF included. Later inputs win by type and id, as in the pack builder.
 */
import { readOsmFile } from '../../data-tools/osm/read';
import { OSM, PACK_INPUTS, type TestRegion } from './packs';

/** One tagged element of the inputs. */
export interface OsmElement {
  /** "node/123", "way/456". */
  id: string;
  lat: number;
  lon: number;
  tags: Record<string, string>;
}

const cache = new Map<TestRegion, OsmElement[]>();

/** The tagged nodes and ways of a region's inputs (cached per region). */
export function osmElements(region: TestRegion): OsmElement[] {
  const hit = cache.get(region);
  if (hit) return hit;
  const byId = new Map<string, OsmElement>();
  for (const file of PACK_INPUTS[region]) {
    const nodes = new Map<number, [number, number]>();
    readOsmFile(OSM + file, {
      node(id, lat, lon, tags) {
        nodes.set(id, [lat, lon]);
        if (tags && Object.keys(tags).length > 0) byId.set(`node/${id}`, { id: `node/${id}`, lat, lon, tags });
      },
      way(id, refs, tags, center) {
        if (Object.keys(tags).length === 0) return;
        let at: [number, number] | undefined = center ? [center.lat, center.lon] : undefined;
        if (!at) {
          const pts = [...new Set(refs)].flatMap((r): [number, number][] => {
            const p = nodes.get(r);
            return p ? [p] : [];
          });
          if (pts.length === 0) return;
          at = [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];
        }
        byId.set(`way/${id}`, { id: `way/${id}`, lat: at[0], lon: at[1], tags });
      },
      relation() {},
      feature() {}, // GeoJSON inputs hold no OSM elements of their own
    });
  }
  const out = [...byId.values()];
  cache.set(region, out);
  return out;
}
