/**
 * A query that ends with the name of a town, suburb or neighbourhood the admin table does not hold ("Crescent Mall
 * Phú Mỹ Hưng", "Aeon Mall Celadon", "Musée océanographique, Monaco"): the words before it name the place, the last
 * words say where it is. Read so only when the whole text finds no whole answer (the locality's name is rarely part
 * of the place's): the words before it are searched alone, and their whole answers within the locality's reach are
 * the answer.
 */
import { haversine } from '../geo';
import { PlaceKind } from './kinds';
import { isLocality, localityReach } from './locality-kinds';
import { rankInRegion, regionQuery, type ForwardHit } from './rank';
import type { PlacesRegion } from './region-places';
import type { PlaceQuery } from './search/query';
import { fold } from './text/fold';

/**
 * Score added to a place at the locality's point, falling to none at its reach: nearer first among places the words
 * fit alike (every ATM of the area), too little to reorder places they fit differently.
 */
const NEARER_BIAS = 0.01;
/** Most words a locality's name takes at the end of a query. */
const MAX_LOCALITY_WORDS = 4;
/** Candidates for the locality looked at among the best places the trailing words find. */
const LOCALITY_CANDIDATES = 5;
/**
 * Words naming a kind of residential area, folded: written alone before a locality's name ("chung cư Vinhomes Central
 * Park", "khu đô thị Celadon City") they say what the locality is, so the locality itself is the answer.
 */
const AREA_KIND_WORDS = new Set([
  'chung cu',
  'cc',
  'can ho',
  'khu can ho',
  'khu do thi',
  'kdt',
  'khu dan cu',
  'kdc',
  'khu pho',
  'khu',
  'lang',
  'thon',
  'xom',
  'ap',
  'du an',
]);
/** Per region, every folded word of its localities' names: a text whose words are not all among them names none. */
const localityWords = new WeakMap<PlacesRegion, ReadonlySet<string>>();
/** The words of a query, as written (commas and semicolons separate them too). */
const WORD = /[^\s,;]+/gu;

/**
 * The whole answers of region `r` for `text` read as a place followed by a locality, best first; empty when the text
 * does not end with a locality's name or the words before it find no whole answer within its reach. The longest
 * trailing name is tried first ("Phú Mỹ Hưng" before "Hưng").
 * @param whole the region's query of the whole text
 */
export function localityReading(r: PlacesRegion, text: string, whole: PlaceQuery, limit: number): ForwardHit[] {
  // Ending in an admin unit's name ("trường đại học Bình Tân"): the admin table reads the end, not part of it.
  if (whole.terms.at(-1)?.role === 'admin') return [];
  const known = wordsOfLocalities(r);
  const words = [...text.matchAll(WORD)];
  for (let k = Math.min(MAX_LOCALITY_WORDS, words.length - 1); k >= 1; k--) {
    const at = words[words.length - k]!.index;
    const span = text.slice(at);
    if (
      !fold(span)
        .split(' ')
        .every((w) => known.has(w))
    )
      continue;
    const locality = localityNamed(r, span);
    if (!locality) continue;
    const head = text.slice(0, at);
    if (AREA_KIND_WORDS.has(fold(head))) return [locality.hit];
    const { place } = locality.hit;
    const lat = r.lat(place),
      lon = r.lon(place);
    const away = (p: number) => haversine(lat, lon, r.lat(p), r.lon(p)) / locality.reach;
    const keep = (p: number) => p !== place && away(p) <= 1;
    const bias = (p: number) => NEARER_BIAS * (1 - away(p));
    const q = regionQuery(r, head);
    // Named places must be called what the words before say ("Gare de Carnolès" is not "gare de … Monaco"); a kind
    // of place written alone ("ATM Phú Mỹ Hưng") takes every place of the kind.
    const named = q.terms.some((t) => t.role === 'name');
    const hits = rankInRegion(r, q, { prefix: false, limit, keep, bias }).filter(
      (h) => !h.partial && (h.calledSo || !named),
    );
    if (hits.length > 0) return hits;
  }
  return [];
}

/**
 * The locality `span` names (its best hit), with its reach in metres, or null: the best of the places the span finds
 * that is a locality and whose name is the span's words, give or take one ("Celadon" for "Celadon City"); null when
 * the span names an admin unit.
 */
function localityNamed(r: PlacesRegion, span: string): { hit: ForwardHit; reach: number } | null {
  const q = regionQuery(r, span);
  // An admin unit's name ("Bình Thạnh", "Tân Định") is the admin table's to read: its area, not a circle.
  if (q.terms.some((t) => t.role === 'admin')) return null;
  const spanWords = fold(span).split(' ');
  for (const hit of rankInRegion(r, q, { prefix: false, limit: LOCALITY_CANDIDATES })) {
    if (hit.partial || r.places.kind[hit.place] !== PlaceKind.poi) continue;
    const reach = localityReach(r.region.strings.get(r.places.category.at(hit.place)));
    if (reach === undefined) continue;
    const nameWords = fold(r.region.strings.get(r.places.name[hit.place]!)).split(' ');
    if (nameWords.length <= spanWords.length + 1 && spanWords.every((w) => nameWords.includes(w)))
      return { hit, reach };
  }
  return null;
}

/** The words of region `r`'s localities' names, folded; made on first use (one pass over the places). */
function wordsOfLocalities(r: PlacesRegion): ReadonlySet<string> {
  let words = localityWords.get(r);
  if (words) return words;
  const set = new Set<string>();
  const places = r.places;
  for (let p = 0; p < places.count; p++)
    if (places.kind[p] === PlaceKind.poi && isLocality(r.region.strings.get(places.category.at(p))))
      for (const w of fold(r.region.strings.get(places.name[p]!)).split(' ')) set.add(w);
  localityWords.set(r, (words = set));
  return words;
}
