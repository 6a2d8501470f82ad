/** What a place takes from its OSM tags: category, importance, alternative names, and a centre from node refs. */
import { COORD_SCALE } from '../../src/pack/format.js';
import type { OsmStore } from '../store.js';
import type { Center, Tags } from '../osm/types.js';
import { AltKind } from '../../src/places/kinds.js';
import { withoutNote } from '../../src/places/text/name-note.js';

/** Keys that may name a place, best first: a place known only by its English or official name is still a place. */
const PLACE_NAME_KEYS = ['name', 'name:vi', 'name:en', 'official_name', 'alt_name', 'short_name'];

/** The place's name: the first of PLACE_NAME_KEYS it has, without a note at its end (withoutNote). */
export function nameOf(tags: Tags): string | undefined {
  for (const k of PLACE_NAME_KEYS) if (tags[k]) return withoutNote(tags[k]);
  return undefined;
}

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
  // Before natural: a river's water area (natural=water, waterway=riverbank) is a river, no lake.
  'waterway',
  'natural',
  'building',
];

/**
 * Religions of denominations mapped without their religion (`denomination=roman_catholic` and no `religion=*`: a
 * Catholic convent is no pagoda), by the denomination as the OSM wiki spells it (lower case, words joined by "_").
 */
const DENOMINATION_RELIGION = new Map<string, string>([
  ...[
    'catholic',
    'roman_catholic',
    'greek_catholic',
    'protestant',
    'evangelical',
    'baptist',
    'methodist',
    'lutheran',
    'anglican',
    'presbyterian',
    'pentecostal',
    'adventist',
    'seventh_day_adventist',
    'orthodox',
    'reformed',
  ].map((d) => [d, 'christian'] as const),
  ...['mahayana', 'theravada', 'vajrayana', 'zen', 'pure_land', 'hoa_hao'].map((d) => [d, 'buddhist'] as const),
  ...['cao_dai', 'caodai'].map((d) => [d, 'caodaism'] as const),
]);

/** A place of worship's religion: its `religion` tag, or the religion of its `denomination`. */
function religionOf(tags: Tags): string | undefined {
  if (tags.religion) return tags.religion;
  const d = tags.denomination
    ?.trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return d ? DENOMINATION_RELIGION.get(d) : undefined;
}

/**
 * What a café serves when that makes it another kind of place: a milk tea shop ("trà sữa": cuisine=bubble_tea) or a
 * tea house (cuisine=tea) is no coffee shop. Its `cuisine`'s first value (the main one; a café listing tea among
 * breakfast and coffee is a café) when it is one of those, or none.
 */
function cafeKindOf(tags: Tags): string | undefined {
  const first = (tags.cuisine ?? '').toLowerCase().split(';')[0]!.trim();
  return first === 'bubble_tea' || first === 'tea' ? first : undefined;
}

/**
 * The place's category: the value of its first category key ("hospital", "cafe"), or the key for `=yes`; a place of
 * worship with its religion ("place_of_worship:buddhist": a pagoda is no church); a café of milk tea or tea with what
 * it serves ("cafe:bubble_tea").
 */
export function categoryOf(tags: Tags): string | undefined {
  for (const k of CATEGORY_KEYS) {
    const v = tags[k];
    const religion = v === 'place_of_worship' ? religionOf(tags) : undefined;
    if (religion) return `${v}:${religion}`;
    const serves = v === 'cafe' ? cafeKindOf(tags) : undefined;
    if (serves) return `${v}:${serves}`;
    if (v && v !== 'no' && v !== 'yes') return v;
    if (v === 'yes' && k !== 'building') return k;
  }
  return undefined;
}

/**
 * Keys of areas that are places when they have a name though no category key says what they are (a named building,
 * "Tả Môn" building=yes; a named piece of land, landuse=commercial; a military or power site), with the category of
 * `key=yes`; other values are their own category ("commercial", "substation").
 */
const NAMED_AREA_KEYS: readonly [key: string, yes: string][] = [
  ['building', 'building'],
  ['building:part', 'building'],
  ['landuse', 'landuse'],
  ['military', 'military'],
  ['power', 'power'],
];

/**
 * The category of a named area without one of its own (NAMED_AREA_KEYS), or none. None too when no two letters of the
 * name stand together ("12", "B", "K690"): a number or a lone letter names a block of a compound, not a place.
 */
export function namedAreaCategoryOf(tags: Tags, name: string): string | undefined {
  if (!/\p{L}{2}/u.test(name)) return undefined;
  // A named square or pedestrian area ("Phố đi bộ Nguyễn Huệ", "Công trường Mê Linh") is a landmark, not a road.
  if (isHighwayArea(tags)) return tags.highway;
  for (const [k, yes] of NAMED_AREA_KEYS) {
    const v = tags[k];
    if (v && v !== 'no') return v === 'yes' ? yes : v;
  }
  return undefined;
}

/**
 * The category of a named point without one of its own: a junction ("Ngã năm Đại Học", junction=yes), a toll booth or
 * other barrier, or a point named and nothing else ("Ngã ba Dã Quỳ", "Sisi Piano Center": a landmark someone put on
 * the map); none for a road's point (a named bus stop is its landmark's namesake, a crossing no place) or a name of no
 * two letters together.
 */
export function namedPointCategoryOf(tags: Tags, name: string): string | undefined {
  if (!/\p{L}{2}/u.test(name)) return undefined;
  if (tags.junction === 'yes') return 'junction';
  if (tags.barrier) return tags.barrier;
  return tags.highway || tags.railway || tags.power || tags.public_transport ? undefined : 'named_point';
}

/** Whether the tags are of a road drawn as an area (a square, a pedestrian area): a place, where a road is none. */
export function isHighwayArea(tags: Tags): boolean {
  return !!tags.highway && tags.area === 'yes';
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
  'waterfall',
]);

/** 0..255: how well known a place is likely to be (wikidata, wikipedia, an English name, a landmark category). */
export function importanceOf(tags: Tags, category: string | undefined): number {
  let s = 40;
  if (tags.wikidata) s += 60;
  if (tags.wikipedia) s += 30;
  if (category && IMPORTANT.has(category.split(':')[0]!)) s += 40; // "place_of_worship:buddhist" too
  if (tags['name:en']) s += 10;
  if (tags.tourism) s += 20;
  return Math.min(255, s);
}

/**
 * Tags holding other names of the place, each read as written and in Vietnamese and English (`short_name:en`, the only
 * place "UEH" is written in the HCMC data), in the order they are stored: other names of the place itself, then its
 * brand and operator. `name` is the place's own name unless it has none (see nameOf).
 */
const ALT_NAME_KEYS: readonly { key: string; kind: number }[] = [
  { key: 'name', kind: AltKind.name },
  { key: 'official_name', kind: AltKind.name },
  { key: 'alt_name', kind: AltKind.name },
  { key: 'short_name', kind: AltKind.name },
  { key: 'old_name', kind: AltKind.name },
  { key: 'loc_name', kind: AltKind.name },
  { key: 'int_name', kind: AltKind.name },
  { key: 'brand', kind: AltKind.brand },
  { key: 'operator', kind: AltKind.brand },
];
/** The forms of each ALT_NAME_KEYS key read: as written, Vietnamese, English. */
const NAME_LANGUAGES = ['', ':vi', ':en'];
/** Every tag read, in order, with the kind of name it holds. */
const ALT_NAME_TAGS = ALT_NAME_KEYS.flatMap(({ key, kind }) =>
  NAME_LANGUAGES.map((lang) => ({ tag: key + lang, kind })),
);

/** One alternative name. */
export interface AltName {
  name: string;
  kind: number;
}

/**
 * The place's other names (ALT_NAME_KEYS: name:vi, name:en, official, alternative, short, old, local names in each
 * language; `;`-separated lists split) and its brand and operator, without repeats of its name or of each other
 * (compared case-insensitively).
 */
export function altNamesOf(tags: Tags, name: string | undefined): AltName[] {
  const seen = new Set<string>(name ? [name.normalize('NFC').toLowerCase()] : []);
  const out: AltName[] = [];
  for (const { tag, kind } of ALT_NAME_TAGS) {
    const value = tags[tag];
    if (!value) continue;
    for (const v of value.split(';')) {
      const s = v.trim().replace(/\s+/g, ' ');
      const folded = s.normalize('NFC').toLowerCase();
      if (s === '' || seen.has(folded)) continue;
      seen.add(folded);
      out.push({ name: s, kind });
    }
  }
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
