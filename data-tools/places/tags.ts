/** What a place takes from its OSM tags: category, importance, alternative names, and a centre from node refs. */
import { COORD_SCALE } from '../../src/pack/format.js';
import type { OsmStore } from '../store.js';
import type { Center, Tags } from '../osm/types.js';
import { AltKind } from '../../src/places/kinds.js';

const CATEGORY_KEYS = [
  'amenity',
  'shop',
  'tourism',
  'leisure',
  'office',
  'healthcare',
  'historic',
  'craft',
  'club',
  'sport',
  'man_made',
  'railway',
  'aeroway',
  'public_transport',
  'place',
  'natural',
  'building',
];

/** The place's category: the value of its first category key ("hospital", "cafe"), or the key for `=yes`. */
export function categoryOf(tags: Tags): string | undefined {
  for (const k of CATEGORY_KEYS) {
    const v = tags[k];
    if (v && v !== 'no' && v !== 'yes') return v;
    if (v === 'yes' && k !== 'building') return k;
  }
  return undefined;
}

const IMPORTANT = new Set([
  'hospital',
  'university',
  'college',
  'school',
  'museum',
  'attraction',
  'station',
  'marketplace',
  'place_of_worship',
  'townhall',
  'stadium',
  'park',
  'water',
  'lake',
]);

/** 0..255: how well known a place is likely to be (wikidata, wikipedia, an English name, a landmark category). */
export function importanceOf(tags: Tags, category: string | undefined): number {
  let s = 40;
  if (tags.wikidata) s += 60;
  if (tags.wikipedia) s += 30;
  if (category && IMPORTANT.has(category)) s += 40;
  if (tags['name:en']) s += 10;
  if (tags.tourism) s += 20;
  return Math.min(255, s);
}

/** Tags holding other names of the place itself, in the order they are stored. */
const NAME_KEYS = [
  'name:vi',
  'name:en',
  'official_name',
  'official_name:vi',
  'alt_name',
  'alt_name:vi',
  'short_name',
  'old_name',
  'int_name',
  'loc_name',
];
const BRAND_KEYS = ['brand', 'operator'];

/** One alternative name. */
export interface AltName {
  name: string;
  kind: number;
}

/**
 * The place's other names (name:vi, name:en, official, alternative, short, old names; `;`-separated lists split)
 * and its brand and operator, without repeats of its name or of each other (compared case-insensitively).
 */
export function altNamesOf(tags: Tags, name: string | undefined): AltName[] {
  const seen = new Set<string>(name ? [name.normalize('NFC').toLowerCase()] : []);
  const out: AltName[] = [];
  const take = (keys: string[], kind: number) => {
    for (const k of keys) {
      for (const v of (tags[k] ?? '').split(';')) {
        const s = v.trim().replace(/\s+/g, ' ');
        const key = s.normalize('NFC').toLowerCase();
        if (s === '' || seen.has(key)) continue;
        seen.add(key);
        out.push({ name: s, kind });
      }
    }
  };
  take(NAME_KEYS, AltKind.name);
  take(BRAND_KEYS, AltKind.brand);
  return out;
}

/** The mean of the distinct nodes' coordinates (degrees), or null when none is known. */
export function centroid(store: OsmStore, refs: number[]): Center | null {
  let lat = 0,
    lon = 0,
    n = 0;
  const seen = new Set<number>();
  for (const ref of refs) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    const r = store.nodeIndex(ref);
    if (r < 0) continue;
    lat += store.latE7(r);
    lon += store.lonE7(r);
    n++;
  }
  return n ? { lat: lat / n / COORD_SCALE, lon: lon / n / COORD_SCALE } : null;
}
