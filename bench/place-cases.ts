/**
 * The generated place-search evaluation shared by bench/places.ts and bench/places-index.ts: every named place (POI,
 * street, admin unit) and every address of the loaded packs, queried plainly, without diacritics, abbreviated, with
 * one typo, with parts reordered, and with its legacy and its 2025 admin names; what counts as a hit (hitsPlace).
 */
import { haversine } from '../src/geo';
import { placeTexts } from '../src/places/search/index';
import { PlaceKind } from '../src/places/kinds';
import { decodePlaceId } from '../src/places/place-id';
import { fold } from '../src/places/text/fold';
import type { PlacesRegion } from '../src/places/region-places';
import type { PlacesState } from '../src/places/state';
import { stripDiacritics } from '../src/text/diacritics';

const ABBREV: Array<[RegExp, string]> = [
  [/^Phường /u, 'P. '],
  [/^Quận /u, 'Q.'],
  [/^Huyện /u, 'H. '],
  [/^Thị xã /u, 'TX '],
  [/^Thị trấn /u, 'TT '],
  [/^Xã /u, 'X. '],
  [/^Thành phố Hà Nội$/u, 'HN'],
  [/^Thành phố Hồ Chí Minh$/u, 'TP.HCM'],
  [/^Thành phố /u, 'TP '],
  [/^Đường /u, 'Đ. '],
  [/^Ngõ /u, 'Ng. '],
  [/^Phố /u, ''],
];
const abbreviate = (s: string): string => {
  for (const [re, to] of ABBREV) if (re.test(s)) return s.replace(re, to);
  return s;
};
/** The three typos of `typo`, by the kind name the cases carry (typo_swap, typo_drop, typo_double). */
const TYPO_KINDS = ['swap', 'drop', 'double'] as const;

/**
 * One typo in the longest word of at least 4 letters: a swap of two adjacent letters (not the first with the second),
 * a deletion or a doubling; with its kind.
 */
function typo(s: string, rand: () => number): { kind: string; query: string } | null {
  const words = s.split(' ');
  let k = -1;
  words.forEach((w, i) => {
    if (/^\p{L}{4,}$/u.test(w) && (k < 0 || w.length > words[k]!.length)) k = i;
  });
  if (k < 0) return null;
  const w = [...words[k]!];
  const at = 1 + Math.floor(rand() * (w.length - 2));
  const kind = Math.floor(rand() * 3);
  if (kind === 0) [w[at], w[at + 1]] = [w[at + 1]!, w[at]!];
  else if (kind === 1) w.splice(at, 1);
  else w.splice(at, 0, w[at]!);
  words[k] = w.join('');
  return { kind: `typo_${TYPO_KINDS[kind]}`, query: words.join(' ') };
}

/** One query of the evaluation and the place it should find. */
export interface Case {
  kind: string;
  query: string;
  region: PlacesRegion;
  place: number;
}

/**
 * The evaluation of every region of `state`.
 * @param rand random source in [0, 1) for the typos (the same seed gives the same cases)
 */
export function placeCases(state: PlacesState, rand: () => number): Case[] {
  const cases: Case[] = [];
  for (const r of state.regions) {
    const p = r.places;
    for (let i = 0; i < p.count; i++) {
      const text = placeTexts(p, r.region.strings, r.admin, i);
      const base = text.main;
      if (!base) continue;
      const a = r.admin.of(p, i);
      const isUnit = p.kind[i]! >= PlaceKind.ward;
      const add = (kind: string, query: string | null) => query && cases.push({ kind, query, region: r, place: i });
      add('plain', base);
      add('no_diacritics', stripDiacritics(base));
      const t = typo(base, rand);
      if (t) add(t.kind, t.query);
      if (isUnit) {
        add('abbreviated', abbreviate(base));
        continue;
      }
      const house = r.region.strings.get(p.house[i]!);
      const street = p.kind[i] === PlaceKind.address ? r.region.strings.get(p.street.at(i)) : '';
      const mainAbbrev = p.kind[i] === PlaceKind.address && house ? `${house} ${abbreviate(street)}` : abbreviate(base);
      if (a.ward && a.district)
        add(
          'abbreviated',
          `${mainAbbrev}, ${abbreviate(a.ward.nameWithType)}, ${abbreviate(a.district.nameWithType)}, ${abbreviate((a.province ?? a.province2025)!.nameWithType)}`,
        );
      if (a.ward2025)
        add(
          'reordered',
          `${(a.province2025 ?? a.province)!.name}, ${a.ward2025.name}, ${p.kind[i] === PlaceKind.address && house ? `${street} ${house}` : base}`,
        );
      if (a.ward && a.district)
        add(
          'old_admin',
          `${base}, ${a.ward.nameWithType}, ${a.district.nameWithType}, ${a.province?.nameWithType ?? ''}`,
        );
      if (a.ward2025)
        add('new_admin', `${base}, ${a.ward2025.nameWithType}, ${(a.province2025 ?? a.province)!.nameWithType}`);
    }
  }
  return cases;
}

/**
 * Whether place `place` of region `r` answers the case: the expected place, one within 50 m of it, or another piece
 * of the same street within 2 km (a street is stored as one piece per ward: any piece answers a query naming no
 * ward). With `sameName`, also a place of the same folded name, kind and 2025 ward (chain branches in one ward: a query
 * made from the name cannot tell them apart; the bench counts these apart, as "same-name" hits).
 */
export function hitsPlace(c: Case, r: PlacesRegion, place: number, sameName = false): boolean {
  if (r === c.region && place === c.place) return true;
  const metres = haversine(r.lat(place), r.lon(place), c.region.lat(c.place), c.region.lon(c.place));
  if (metres <= 50) return true;
  if (r !== c.region) return false;
  const p = r.places;
  if (
    p.kind[place] === PlaceKind.street &&
    p.kind[c.place] === PlaceKind.street &&
    p.name[place] === p.name[c.place] &&
    metres <= 2000
  )
    return true;
  if (
    !sameName ||
    p.kind[place] !== p.kind[c.place] ||
    r.admin.of(p, place).ward2025 !== r.admin.of(p, c.place).ward2025
  )
    return false;
  return (
    fold(placeTexts(p, r.region.strings, r.admin, place).main) ===
    fold(placeTexts(p, r.region.strings, r.admin, c.place).main)
  );
}

/** Whether an engine result (its place_id) answers the case (see hitsPlace). */
export function isHit(state: PlacesState, c: Case, placeId: string, sameName = false): boolean {
  const d = decodePlaceId(placeId, state.packs, state.tags);
  return d.status === 'ok' && hitsPlace(c, state.regions[d.regionIndex]!, d.place, sameName);
}
