/**
 * place_id: opaque, URL-safe (lower-case letters, digits and dots; "_" and "-" too in a street point's, below),
 * stable for a given pack, and naming its pack so an engine with several packs resolves it:
 * `<pack tag>.<place number>.<check>`, e.g. "k3f9qa.1z.x0p".
 * - pack tag: 6 base-36 characters from the checksums of the pack's place sections and its name; a rebuilt pack
 *   with other places gets another tag, so an old id gives NOT_FOUND rather than another place;
 * - place number: the place's index in the pack, base 36;
 * - check: 3 base-36 characters from the tag, number, OSM origin and coordinates, so a made-up or mistyped id
 *   gives NOT_FOUND rather than some other place.
 * A street shown at a point keeps what it stands for and where in its id, so that the id names that, not the street:
 * a house the data lacks, estimated on it (forward.ts estimatedHouse), or where another street meets it (fallback.ts).
 * `<tag>.<street piece>.<what>.<lat>.<lng>.<check>`: `h` and the house key with "_" for "/" ("h185_2"), or `x` and
 * the other street's name (its string id, base 36); the position in base-36 ten-millionths of a degree ("-" before a
 * negative one); the check over all of it. E.g. "1xww6e.po6.h12.1s5bb0.hn9mv5.ui2".
 * `reference` carries the same string.
 */
import { crc32 } from '../pack/crc32';
import type { Region } from '../region';
import { PlaceKind } from './kinds';
import { OSM_IDS } from '../pack/osm-ids';

const TAG_LENGTH = 6;
const CHECK_LENGTH = 3;
const SHAPE = /^([0-9a-z]{6})\.([0-9a-z]{1,8})\.([0-9a-z]{3})$/;
const POINT_SHAPE =
  /^([0-9a-z]{6})\.([0-9a-z]{1,8})\.([hx][0-9a-z_-]{1,24})\.(-?[0-9a-z]{1,7})\.(-?[0-9a-z]{1,7})\.([0-9a-z]{3})$/;
/** House keys an id can keep: folded digits and letters, "-", and "/" (between alley and house numbers). */
const HOUSE_KEY = /^[0-9a-z/-]{1,24}$/;
/** A street point's position is kept in ten-millionths of a degree (about a centimetre). */
const POSITION_SCALE = 1e7;
/** Longest string worth parsing; anything longer is rejected as malformed. */
const MAX_PLACE_ID_LENGTH = 64;

const enc = new TextEncoder();

/** The pack tag of a region (see the module comment). */
export function packTag(region: Region): string {
  let crc = crc32(enc.encode(region.meta.name ?? ''));
  for (const s of ['place.lat', 'place.lon', 'place.osm', OSM_IDS.place.bytes, 'place.name', 'str.data']) {
    const e = region.pack.sections.get(s);
    if (e) crc = crc32(enc.encode(`${s}:${e.crc}:${e.byteLength}`), crc);
  }
  return base36(crc % 36 ** TAG_LENGTH, TAG_LENGTH);
}

function base36(n: number, width: number): string {
  return n.toString(36).padStart(width, '0');
}

/**
 * A street piece shown at a point (degrees; an id keeps it to a POSITION_SCALE-th: streetPointPosition), as one of: a
 * house the data lacks estimated there (`house`: its key as houseKey writes it, lower case, "185/2"), or where the
 * street named `crossing` (a string id) meets it.
 */
export interface StreetPoint {
  lat: number;
  lng: number;
  house?: string;
  crossing?: number;
}

/** A coordinate (degrees) as a street point's id keeps it: rounded to a ten-millionth of a degree. */
export function streetPointPosition(degrees: number): number {
  return Math.round(degrees * POSITION_SCALE) / POSITION_SCALE || 0; // never -0: an id gives back 0
}

/** What a street point stands for, as its id writes it; null when an id cannot keep it. */
function pointPart(p: StreetPoint): string | null {
  if (p.house !== undefined) return HOUSE_KEY.test(p.house) ? `h${p.house.replace(/\//g, '_')}` : null;
  return p.crossing !== undefined && p.crossing > 0 ? `x${p.crossing.toString(36)}` : null;
}

function check(tag: string, place: number, region: Region, point?: { part: string; lat: number; lng: number }): string {
  const p = region.places!;
  let s = `${tag}|${place}|${p.osm.at(place)}|${p.lat[place]}|${p.lon[place]}`;
  if (point) s += `|${point.part}|${point.lat}|${point.lng}`;
  return base36(crc32(enc.encode(s)) % 36 ** CHECK_LENGTH, CHECK_LENGTH);
}

/**
 * The place_id of place number `place` of a region with tag `tag`; with `point`, of street piece `place` shown there
 * as it says (the street's own id when an id cannot keep it).
 */
export function encodePlaceId(tag: string, region: Region, place: number, point?: StreetPoint): string {
  const num = place.toString(36);
  const part = point && pointPart(point);
  if (!point || !part) return `${tag}.${num}.${check(tag, place, region)}`;
  // The check over the position the id gives back (decodePlaceId), whatever was passed.
  const kept = { part, lat: streetPointPosition(point.lat), lng: streetPointPosition(point.lng) };
  const at = (degrees: number) => Math.round(degrees * POSITION_SCALE).toString(36);
  return `${tag}.${num}.${part}.${at(kept.lat)}.${at(kept.lng)}.${check(tag, place, region, kept)}`;
}

/** Result of reading a place_id: malformed (BAD_REQUEST), unknown (NOT_FOUND) or a place of a region. */
export type PlaceIdLookup =
  | { status: 'malformed' }
  | { status: 'unknown' }
  | { status: 'ok'; regionIndex: number; place: number; point?: StreetPoint };

/**
 * Finds the place a place_id names among regions (with their tags, same order). Never throws: non-strings,
 * wrong shapes and over-long strings are 'malformed'; well-formed ids of another pack, out-of-range numbers and
 * wrong checks are 'unknown'.
 */
export function decodePlaceId(id: unknown, regions: readonly Region[], tags: readonly string[]): PlaceIdLookup {
  if (typeof id !== 'string' || id.length > MAX_PLACE_ID_LENGTH) return { status: 'malformed' };
  const text = id.trim();
  const m = SHAPE.exec(text);
  const a = m ? null : POINT_SHAPE.exec(text);
  if (!m && !a) return { status: 'malformed' };
  const [tag, num, chk] = m ? [m[1]!, m[2]!, m[3]!] : [a![1]!, a![2]!, a![6]!];
  const regionIndex = tags.indexOf(tag);
  const region = regions[regionIndex];
  const place = parseInt(num, 36);
  if (!region?.places || !Number.isSafeInteger(place) || place >= region.places.count) return { status: 'unknown' };
  if (!a) return check(tag, place, region) === chk ? { status: 'ok', regionIndex, place } : { status: 'unknown' };
  // Only a street is shown at a point, as a house or where a street of the pack meets it, at a coordinate.
  const point = pointOf(a[3]!, a[4]!, a[5]!);
  if (!point || region.places.kind[place] !== PlaceKind.street) return { status: 'unknown' };
  if (point.crossing !== undefined && !region.strings.has(point.crossing)) return { status: 'unknown' };
  if (check(tag, place, region, { part: a[3]!, lat: point.lat, lng: point.lng }) !== chk) return { status: 'unknown' };
  return { status: 'ok', regionIndex, place, point };
}

/** The street point a point id's parts keep, or null when they keep none (no coordinate, no street name id). */
function pointOf(part: string, lat36: string, lng36: string): StreetPoint | null {
  const [lat, lng] = [parseInt(lat36, 36) / POSITION_SCALE, parseInt(lng36, 36) / POSITION_SCALE];
  if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) return null;
  const rest = part.slice(1);
  if (part[0] === 'h') return { lat, lng, house: rest.replace(/_/g, '/') };
  const crossing = /^[0-9a-z]+$/.test(rest) ? parseInt(rest, 36) : NaN;
  return Number.isSafeInteger(crossing) ? { lat, lng, crossing } : null;
}
