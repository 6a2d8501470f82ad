import { Pack } from '../../src/pack/reader.js';
import { StringTable } from '../../src/pack/strings.js';
import { PlaceStore } from '../../src/places/store.js';

/** One place of a pack, as stored. */
export interface PackPlace {
  /** "node/1", "way/2", "relation/3" for places from OSM elements (and GeoJSON features); "" for the others. */
  element: string;
  kind: number;
  name: string;
  house: string;
  category: string;
  lat: number;
  lon: number;
  /** Alternative names, then brands and operators, as stored. */
  alts: string[];
}

const TYPES = ['node', 'way', 'relation'];

/** Every place of a pack, read through the engine's place store. */
export function packPlaces(bytes: Uint8Array): PackPlace[] {
  const pack = Pack.from(bytes);
  const p = new PlaceStore(pack);
  const s = new StringTable(pack);
  const out: PackPlace[] = [];
  for (let i = 0; i < p.count; i++) {
    const osm = p.osm.at(i)!;
    const type = osm >= 0 ? TYPES[osm % 4] : undefined;
    const alts: string[] = [];
    for (let a = p.altFirst.at(i); a < p.altFirst.at(i + 1); a++) alts.push(s.get(p.alt[a]!));
    out.push({
      element: type ? `${type}/${Math.floor(osm / 4)}` : '',
      kind: p.kind[i]!,
      name: s.get(p.name[i]!),
      house: s.get(p.house[i]!),
      category: s.get(p.category.at(i)),
      lat: p.lat[i]! / 1e7,
      lon: p.lon[i]! / 1e7,
      alts,
    });
  }
  return out;
}
