/**
 * Localities: places that are areas people live in (OSM `place=*`: a city, a suburb, a neighbourhood, a hamlet, an old
 * ward's label), not spots on a street. The builder gives them no nearest street (their address is their units),
 * and a query's trailing words may name one (locality.ts).
 */

/**
 * How far from its point a locality reaches, metres, by its OSM `place=*` value: about the radius of such an area
 * (a city's centre to its edge, a neighbourhood a few streets across). Other kinds of place are not localities.
 */
const LOCALITY_REACH_M: ReadonlyMap<string, number> = new Map([
  ['city', 20_000],
  ['town', 8_000],
  ['borough', 5_000],
  ['suburb', 3_000],
  ['village', 3_000],
  ['quarter', 2_000],
  ['neighbourhood', 1_500],
  ['hamlet', 1_500],
  ['locality', 1_000],
  ['isolated_dwelling', 500],
]);

/** The reach of a locality of `category` (its `place=*` value), metres; undefined for a category of no locality. */
export function localityReach(category: string): number | undefined {
  return LOCALITY_REACH_M.get(category);
}

/** Whether a place of `category` is a locality. */
export function isLocality(category: string): boolean {
  return LOCALITY_REACH_M.has(category);
}
