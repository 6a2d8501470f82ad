/**
 * place_id: opaque, URL-safe (lower-case letters, digits and dots), stable for a given pack, and naming its pack
 * so an engine with several packs resolves it: `<pack tag>.<place number>.<check>`, e.g. "k3f9qa.1z.x0p".
 * - pack tag: 6 base-36 characters from the checksums of the pack's place sections and its name; a rebuilt pack
 *   with other places gets another tag, so an old id gives NOT_FOUND rather than another place;
 * - place number: the place's index in the pack, base 36;
 * - check: 3 base-36 characters from the tag, number, OSM origin and coordinates, so a made-up or mistyped id
 *   gives NOT_FOUND rather than some other place.
 * A house the data lacks, estimated on a street (forward.ts estimatedHouse), keeps its house and position in its id,
 * so that it names the address, not the street: `<tag>.<street piece>.<house>.<lat>.<lng>.<check>`, the house key
 * with "_" for "/" ("185_2"), the position in base-36 ten-millionths of a degree ("-" before a negative one), and
 * the check over all of it, e.g. "1xww6e.po6.12.1s5bb0.hn9mv5.oaj".
 * `reference` carries the same string.
 */
import { crc32 } from '../pack/crc32';
import type { Region } from '../region';
import { PlaceKind } from './kinds';

const TAG_LENGTH = 6;
const CHECK_LENGTH = 3;
const SHAPE = /^([0-9a-z]{6})\.([0-9a-z]{1,8})\.([0-9a-z]{3})$/;
const ADDRESS_SHAPE =
  /^([0-9a-z]{6})\.([0-9a-z]{1,8})\.([0-9a-z_-]{1,24})\.(-?[0-9a-z]{1,7})\.(-?[0-9a-z]{1,7})\.([0-9a-z]{3})$/;
/** House keys an id can keep: folded digits and letters, "-", and "/" (between alley and house numbers). */
const HOUSE_KEY = /^[0-9a-z/-]{1,24}$/;
/** An estimated house's position is kept in ten-millionths of a degree (about a centimetre). */
const POSITION_SCALE = 1e7;
/** Longest string worth parsing; anything longer is rejected as malformed. */
const MAX_PLACE_ID_LENGTH = 64;

const enc = new TextEncoder();

/** The pack tag of a region (see the module comment). */
export function packTag(region: Region): string {
  let crc = crc32(enc.encode(region.meta.name ?? ''));
  for (const s of ['place.lat', 'place.lon', 'place.osm', 'place.name', 'str.data']) {
    const e = region.pack.sections.get(s);
    if (e) crc = crc32(enc.encode(`${s}:${e.crc}:${e.byteLength}`), crc);
  }
  return base36(crc % 36 ** TAG_LENGTH, TAG_LENGTH);
}

function base36(n: number, width: number): string {
  return n.toString(36).padStart(width, '0');
}

/**
 * A house the data lacks, estimated on a street piece: its house key as houseKey writes it (lower case, "185/2") and
 * where it lies (degrees; an id keeps it to a POSITION_SCALE-th: estimatedPosition).
 */
export interface EstimatedAddress {
  house: string;
  lat: number;
  lng: number;
}

/** A coordinate (degrees) as an estimated address keeps it: rounded to a ten-millionth of a degree. */
export function estimatedPosition(degrees: number): number {
  return Math.round(degrees * POSITION_SCALE) / POSITION_SCALE || 0; // never -0: an id gives back 0
}

function check(tag: string, place: number, region: Region, address?: EstimatedAddress): string {
  const p = region.places!;
  let s = `${tag}|${place}|${p.osm[place]}|${p.lat[place]}|${p.lon[place]}`;
  if (address) s += `|${address.house}|${address.lat}|${address.lng}`;
  return base36(crc32(enc.encode(s)) % 36 ** CHECK_LENGTH, CHECK_LENGTH);
}

/**
 * The place_id of place number `place` of a region with tag `tag`; with `address`, of that house estimated on street
 * piece `place` (the street's own id when the house key is not one an id keeps).
 */
export function encodePlaceId(tag: string, region: Region, place: number, address?: EstimatedAddress): string {
  const num = place.toString(36);
  if (!address || !HOUSE_KEY.test(address.house)) return `${tag}.${num}.${check(tag, place, region)}`;
  // The check over the position the id gives back (decodePlaceId), whatever was passed.
  const kept = { ...address, lat: estimatedPosition(address.lat), lng: estimatedPosition(address.lng) };
  const at = (degrees: number) => Math.round(degrees * POSITION_SCALE).toString(36);
  const house = address.house.replace(/\//g, '_');
  return `${tag}.${num}.${house}.${at(kept.lat)}.${at(kept.lng)}.${check(tag, place, region, kept)}`;
}

/** Result of reading a place_id: malformed (BAD_REQUEST), unknown (NOT_FOUND) or a place of a region. */
export type PlaceIdLookup =
  | { status: 'malformed' }
  | { status: 'unknown' }
  | { status: 'ok'; regionIndex: number; place: number; address?: EstimatedAddress };

/**
 * Finds the place a place_id names among regions (with their tags, same order). Never throws: non-strings,
 * wrong shapes and over-long strings are 'malformed'; well-formed ids of another pack, out-of-range numbers and
 * wrong checks are 'unknown'.
 */
export function decodePlaceId(id: unknown, regions: readonly Region[], tags: readonly string[]): PlaceIdLookup {
  if (typeof id !== 'string' || id.length > MAX_PLACE_ID_LENGTH) return { status: 'malformed' };
  const text = id.trim();
  const m = SHAPE.exec(text);
  const a = m ? null : ADDRESS_SHAPE.exec(text);
  if (!m && !a) return { status: 'malformed' };
  const [tag, num, chk] = m ? [m[1]!, m[2]!, m[3]!] : [a![1]!, a![2]!, a![6]!];
  const regionIndex = tags.indexOf(tag);
  const region = regions[regionIndex];
  const place = parseInt(num, 36);
  if (!region?.places || !Number.isSafeInteger(place) || place >= region.places.count) return { status: 'unknown' };
  const address = a ? addressOf(a[3]!, a[4]!, a[5]!) : undefined;
  // Only a street holds an estimated house, at a coordinate.
  if (address === null || (address && region.places.kind[place] !== PlaceKind.street)) return { status: 'unknown' };
  if (check(tag, place, region, address) !== chk) return { status: 'unknown' };
  return address ? { status: 'ok', regionIndex, place, address } : { status: 'ok', regionIndex, place };
}

/** The estimated address an address id's parts keep, or null when its position is no coordinate. */
function addressOf(house: string, lat36: string, lng36: string): EstimatedAddress | null {
  const [lat, lng] = [parseInt(lat36, 36) / POSITION_SCALE, parseInt(lng36, 36) / POSITION_SCALE];
  if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) return null;
  return { house: house.replace(/_/g, '/'), lat, lng };
}
