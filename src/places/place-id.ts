/**
 * place_id: opaque, URL-safe (lower-case letters, digits and dots), stable for a given pack, and naming its pack
 * so an engine with several packs resolves it: `<pack tag>.<place number>.<check>`, e.g. "k3f9qa.1z.x0p".
 * - pack tag: 6 base-36 characters from the checksums of the pack's place sections and its name; a rebuilt pack
 *   with other places gets another tag, so an old id gives NOT_FOUND rather than another place;
 * - place number: the place's index in the pack, base 36;
 * - check: 3 base-36 characters from the tag, number, OSM origin and coordinates, so a made-up or mistyped id
 *   gives NOT_FOUND rather than some other place.
 * `reference` carries the same string.
 */
import { crc32 } from '../pack/crc32';
import type { Region } from '../region';

const TAG_LENGTH = 6;
const CHECK_LENGTH = 3;
const SHAPE = /^([0-9a-z]{6})\.([0-9a-z]{1,8})\.([0-9a-z]{3})$/;
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

function check(tag: string, place: number, region: Region): string {
  const p = region.places!;
  const s = `${tag}|${place}|${p.osm[place]}|${p.lat[place]}|${p.lon[place]}`;
  return base36(crc32(enc.encode(s)) % 36 ** CHECK_LENGTH, CHECK_LENGTH);
}

/** The place_id of place number `place` of a region with tag `tag`. */
export function encodePlaceId(tag: string, region: Region, place: number): string {
  return `${tag}.${place.toString(36)}.${check(tag, place, region)}`;
}

/** Result of reading a place_id: malformed (BAD_REQUEST), unknown (NOT_FOUND) or a place of a region. */
export type PlaceIdLookup =
  { status: 'malformed' } | { status: 'unknown' } | { status: 'ok'; regionIndex: number; place: number };

/**
 * Finds the place a place_id names among regions (with their tags, same order). Never throws: non-strings,
 * wrong shapes and over-long strings are 'malformed'; well-formed ids of another pack, out-of-range numbers and
 * wrong checks are 'unknown'.
 */
export function decodePlaceId(id: unknown, regions: readonly Region[], tags: readonly string[]): PlaceIdLookup {
  if (typeof id !== 'string' || id.length > MAX_PLACE_ID_LENGTH) return { status: 'malformed' };
  const m = SHAPE.exec(id.trim());
  if (!m) return { status: 'malformed' };
  const [, tag, num, chk] = m;
  const regionIndex = tags.indexOf(tag!);
  const region = regions[regionIndex];
  const place = parseInt(num!, 36);
  if (!region?.places || !Number.isSafeInteger(place) || place >= region.places.count) return { status: 'unknown' };
  if (check(tag!, place, region) !== chk) return { status: 'unknown' };
  return { status: 'ok', regionIndex, place };
}
