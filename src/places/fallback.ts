/**
 * The answer when no place accounts for a whole query: the most specific thing it named that the pack holds — a
 * street (partial), a place on that street, the ward, or the area it named — or nothing.
 */
import type { AdminResolution } from '../admin/resolve';
import type { AdminTable } from '../admin/types';
import { adminAgreement, systemOf, wantedUnits } from './admin-agreement';
import { inArea, queryArea, Within } from './area';
import { isAreaPlace, PlaceKind } from './kinds';
import type { ForwardHit } from './rank';
import type { PlacesRegion } from './region-places';
import type { PlaceQuery, QueryTerm } from './search/query';
import { StreetLine } from './street-line';
import { crossingOf } from './crossing';
import { pointOptions } from './describe';
import { isSubsequence } from './search/written-order';
import { adminNameKeys } from './text/admin-names';
import { nameKey } from './text/fold';

/** Words that join two streets into where they meet ("góc A B", "A giao B", "A và B", "A x B"), folded. */
const CROSSING_WORDS = new Set(['goc', 'giao', 'va', 'x', 'and', 'corner', 'of']);
/** Streets of the other name tried for where they meet (its pieces and its namesakes: a roundabout named after it). */
const CROSSING_CANDIDATES = 8;
/** Farthest a place may lie from a street's road to be "on" it (metres): a deep building still faces it. */
const ON_STREET_M = 80;
/** Farthest a place mapped as an area may lie from a street's road to be beside it (metres): a few minutes' walk. */
const BESIDE_STREET_M = 300;
/** The run itself, then its suffixes and prefixes of two words or more, longest first. */
function subRuns(run: number[]): number[][] {
  const out = run.length > 0 ? [run] : [];
  for (let n = run.length - 1; n >= 2; n--) out.push(run.slice(run.length - n), run.slice(0, n));
  return out;
}

/**
 * The most specific thing the query named when no place accounts for all of it: a street it names (partial) — its
 * street part, or an admin name that is also a street of the region ("Vincom Bà Triệu": Phố Bà Triệu) — else the
 * ward it names (partial; a legacy ward asked for alone and without a place of its own answers with the one 2025 ward
 * it went into). A district or a province alone is too coarse to stand for a place: no answer. Matching here is exact
 * (no typos): a stand-in must be what the query wrote.
 */
export function fallback(r: PlacesRegion, q: PlaceQuery): ForwardHit[] {
  const table = r.admin.table;
  const res = q.resolution;
  const system = table && res ? systemOf(r, table, q, res) : '2025';
  const kinds = r.places.kind;
  const checks = res ? wantedUnits(res, q) : [];
  // A stand-in street is one the query names whole, in its order: every word of its name is written ("Thăng Long" is
  // not "Ngõ 294 Thăng Long Mới"; "Số 3 ngõ 107A Tôn Đức Thắng" names "Ngõ 107A Phố Tôn Đức Thắng"; "Hồ Tây" does not
  // name "Phủ Tây Hồ").
  // The run tried must not hold more name words than the street ("Phúc Long Phan Xích Long" is Phan Xích Long and
  // "Phúc Long", not Phan Xích Long and "Phúc").
  const written = q.terms.map((t) => t.folded);
  const namedWhole = (p: number, run: readonly number[]): boolean => {
    const words = r
      .streetKeyOf(r.places.name[p]!)
      .split(' ')
      .filter((w) => w !== '');
    return isSubsequence(words, written) && words.length >= run.length;
  };
  const area = queryArea(r.admin, q.parsed, res);
  // Runs of words that may name a street, and whether the street must lie in the area the query names (not when the
  // run is the area's own words: "Vincom Bà Triệu" is on Phố Bà Triệu, wherever the ward of that name is).
  const streetRuns: Array<{ words: number[]; inArea: boolean }> = [];
  const run = (keep: (t: QueryTerm) => boolean): number[] => q.terms.flatMap((t, j) => (keep(t) ? [j] : []));
  // The street's own name words (not the category words that may lead the run: "Hồ Thiền Quang" names Phố Thiền Quang).
  streetRuns.push({ words: run((t) => t.part === 'street' && t.role === 'name'), inArea: true });
  // A unit's words that are also a street's name, written without the unit's type word ("Phường Võ Thị Sáu" is the
  // unit's, "Võ Thị Sáu" may be the street): they may name a street, then they say nothing of where (the runs not
  // bound to the area). Units alone, a ward among them written with its type word ("P.17 Gò Vấp"), ask for the ward.
  const alone = !q.terms.some((t) => t.role === 'name' || t.role === 'category');
  for (const part of ['ward', 'district'] as const) {
    if (q.parsed.types[part] !== undefined || (alone && q.parsed.types.ward !== undefined)) continue;
    const words = run((t) => t.role === 'admin' && t.part === part);
    if (words.length > 0 && r.streetKeys.has(words.map((j) => q.terms[j]!.folded).join(' ')))
      streetRuns.push({ words, inArea: false });
  }
  // Name words the parser could not place, part by comma-separated part ("Hanoi Railway Station, Lê Duẩn").
  for (const segment of new Set(q.terms.map((t) => t.segment))) {
    const words = run((t) => t.segment === segment && t.role === 'name' && t.part === undefined);
    if (words.length > 0) streetRuns.push({ words, inArea: true });
  }
  /**
   * Where the street found for the words `sub` meets another street that the query's other name words name whole, in
   * the area it names ("ngã tư Lê Văn Sỹ Huỳnh Văn Bánh", "góc Nguyễn Thị Minh Khai Cao Thắng"); null when they name
   * none, or it does not meet this one at one place.
   */
  const crossingWith = (
    sub: readonly number[],
    street: number,
    bound: boolean,
  ): Pick<ForwardHit, 'at' | 'crossing'> | null => {
    // Its numbers too, where the parser saw a street's ("3 Tháng 2"), but for the first street's own ("Đường số 17").
    const own = r.streetKeyOf(r.places.name[street]!).split(' ');
    let rest = q.terms.flatMap((t, j) =>
      (t.role === 'name' || (t.role === 'number' && t.part === 'street' && !own.includes(t.folded))) &&
      !sub.includes(j) &&
      !CROSSING_WORDS.has(t.folded)
        ? [j]
        : [],
    );
    // The other street named by a unit's words ("ngã tư Hàng Bài Tràng Tiền": Tràng Tiền is a ward too), where no
    // other words name one, written with the first street, not as an address's ward ("78 Giải Phóng, Phương Mai").
    const segment = q.terms[sub[0]!]!.segment;
    const unitNamed =
      rest.length === 0 && q.parsed.house === undefined
        ? streetRuns.find(
            (u) => !u.inArea && !u.words.some((j) => sub.includes(j)) && q.terms[u.words[0]!]!.segment === segment,
          )?.words
        : undefined;
    if (unitNamed) rest = unitNamed;
    if (rest.length === 0) return null;
    let required = 0;
    for (const j of rest) required |= 1 << j;
    // The other street is named by those words alone ("Lê Văn Sỹ" is not "Vòng xoay Ngã Sáu Lê Văn Sỹ").
    const restKey = rest.map((j) => written[j]).join(' ');
    const names = r.places.name;
    const others = r.searcher.search(
      q.terms.map((t, j) => ({ ...t, optional: ((required >> j) & 1) === 0 })),
      {
        prefix: false,
        limit: CROSSING_CANDIDATES,
        importance: r.places.importance,
        required,
        exact: true,
        keep: (p) =>
          kinds[p] === PlaceKind.street && names[p] !== names[street] && r.streetKeyOf(names[p]!) === restKey,
      },
    );
    const there = (lat: number, lng: number): boolean =>
      !bound || unitNamed !== undefined || !area?.wards || area.wards.has(r.wardAt(lat, lng));
    for (const name of new Set(others.map((h) => names[h.place]!))) {
      const at = crossingOf(r, names[street]!, name, there);
      if (at) return pointOptions(r, { ...at, crossing: name });
    }
    return null;
  };
  for (const { words, inArea: areaBound } of streetRuns) {
    const there = (p: number): boolean => !area || !areaBound || inArea(r, area, p) !== Within.out;
    // A run that also carries the place's name ("Phở Thìn Lò Đúc") is tried by its ends, longest first.
    for (const sub of subRuns(words)) {
      let required = 0;
      for (const j of sub) required |= 1 << j;
      // A number right after the run may be its street's ("đường số 6"); others only add to the score (the "2" of "Lý
      // Thường Kiệt 3 Tháng 2" names the other street, not this one).
      const after = sub[sub.length - 1]! + 1;
      const terms = q.terms.map((t, j): QueryTerm => {
        if ((required >> j) & 1) return { ...t, optional: false };
        return t.numeric && j !== after ? { ...t, optional: true, role: 'filler' } : { ...t, optional: true };
      });
      const hits = r.searcher.search(terms, {
        prefix: false,
        limit: CROSSING_CANDIDATES,
        importance: r.places.importance,
        required,
        exact: true,
        keep: (p) => kinds[p] === PlaceKind.street && namedWhole(p, sub) && there(p),
        boost: (p, own) => adminAgreement(r, p, own, checks),
      });
      if (hits.length === 0) continue;
      // Where it meets the other street named, by any street the words name whole (Nguyễn Tri Phương, not only the
      // best-named "Ngã Sáu Nguyễn Tri Phương").
      const tried = new Set<number>();
      for (const h of hits) {
        if (tried.has(r.places.name[h.place]!)) continue;
        tried.add(r.places.name[h.place]!);
        const meeting = crossingWith(sub, h.place, areaBound);
        if (meeting) return [{ region: r, place: h.place, score: h.score, partial: false, system, ...meeting }];
      }
      const street = hits[0]!.place;
      // "Popeyes Hai Bà Trưng", "Phở Thìn Lò Đúc": the rest of the query names a place on that street.
      const rest = q.required & ~required & ~(q.adminMask.ward | q.adminMask.district | q.adminMask.province);
      const onIt = placeOnStreet(r, q, rest, street, ON_STREET_M);
      // A street named where the query says "near" ("gần vòng xoay Dân Chủ", whose anchor was not found) is no more
      // than a guess at where: a place on it is partly what was asked.
      const nearGuess = (required & q.near) !== 0;
      if (onIt) return [{ region: r, place: onIt.place, score: onIt.score, partial: nearGuess, system }];
      // A large place stands back from its street (a hospital's or a zoo's point, inside its grounds, may lie hundreds
      // of metres from the road it faces): one mapped as an area, beside the street, is partly what was asked ("bv chợ
      // rẫy nguyễn chí thanh"). Not with a house number written: the house on the street says where.
      const byIt = q.parsed.house === undefined ? placeOnStreet(r, q, rest, street, BESIDE_STREET_M, true) : null;
      if (byIt) return [{ region: r, place: byIt.place, score: byIt.score, partial: true, system }];
      return [{ region: r, place: street, score: hits[0]!.score, partial: true, system }];
    }
  }
  const ward = namedWard(table, q, res);
  let place = ward !== undefined ? r.unitPlace.get(ward) : undefined;
  if (place === undefined && alone && res?.legacy.ward !== undefined && res.v2025.wards.length > 0) {
    // The 2025 ward a legacy ward went into whole is what was asked for; one it went into in part (a ward split
    // between several: the one it gave most, see resolveAdmin) only partly.
    const successor = r.unitPlace.get(res.v2025.ward ?? res.v2025.wards[0]!);
    const whole =
      res.v2025.wards.length === 1 && table?.wardLinks.some((l) => l.legacy === res.legacy.ward && l.full) === true;
    if (successor !== undefined) return [{ region: r, place: successor, score: 0, partial: !whole, system }];
  }
  // A name or a kind of place that the named ward or district lacks ("nhà thuốc Quận 5"): the area itself, partial;
  // so is a district dissolved before 2025 asked alone ("Quận 2": Thành phố Thủ Đức, which it went into).
  if (place === undefined && (!alone || res?.former) && area?.wards) place = r.unitPlace.get(area.unit);
  return place !== undefined ? [{ region: r, place, score: 0, partial: true, system }] : [];
}

/**
 * The best place that accounts for the `rest` words of the query (its name and category words besides the street's)
 * and lies within `metres` of a road named as `street` is, or null (also when `rest` is empty).
 * @param areas only places mapped as areas (OSM ways and relations)
 */
function placeOnStreet(
  r: PlacesRegion,
  q: PlaceQuery,
  rest: number,
  street: number,
  metres: number,
  areas = false,
): { place: number; score: number } | null {
  if (rest === 0 || r.region.graph.edgeCount === 0) return null;
  const line = StreetLine.of(r, [r.places.name[street]!]);
  const onStreet = (p: number): boolean =>
    r.places.kind[p] === PlaceKind.poi &&
    (!areas || isAreaPlace(r.places.osm.at(p)!)) &&
    line.near(r.lat(p), r.lon(p), metres);
  const terms = q.terms.map((t, j) => ({ ...t, optional: ((rest >> j) & 1) === 0 }));
  const hits = r.searcher.search(terms, {
    prefix: false,
    limit: 1,
    importance: r.places.importance,
    required: rest,
    categories: q.categories,
    placeCategories: r.categories,
    keep: onStreet,
  });
  return hits[0] ?? null;
}

/** The ward the query wrote: the 2025 ward of that name, else the legacy one (not a successor the mapping implies). */
function namedWard(table: AdminTable | null, q: PlaceQuery, res: AdminResolution | null): number | undefined {
  if (!table || !res || !q.parsed.ward) return undefined;
  const written = (id: number | undefined) =>
    id !== undefined && adminNameKeys(q.parsed.ward!).some((k) => nameKey(table.byId.get(id)!.name) === k);
  if (written(res.v2025.ward)) return res.v2025.ward;
  return res.legacy.ward;
}
