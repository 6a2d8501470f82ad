/**
 * The features a style layer may draw among those in view, found group by group. A basemap feature's style in a
 * layer depends only on its kind, geometry type and name (feature-styles.ts), so the features of a source layer in
 * view are grouped once per render by (kind, geometry type), and a group whose first feature the layer rejects
 * without reading its name is left out whole. A view of a city then has each of its ten road layers visit the
 * thousand or so roads it draws instead of all ten thousand in view: that loop ran about a million times in the
 * first image of whole Ho Chi Minh City, before the engine's code is optimised.
 */
import type { Basemap } from '../map/basemap.js';

/** Group keys below this are kind * 4 + geometry type (FeatureStyler's memo key) for types 0..3 and kinds 0..255. */
const TYPED_KEYS = 256 * 4;
/** The group of features with a geometry type above 3 (none in a valid pack): never left out, styled one by one. */
const OTHER_KEY = TYPED_KEYS;

/** Features of one source layer in view, grouped by (kind, geometry type), each group in pack order. */
export interface FeatureGroups {
  /** Group keys, ascending: kind * 4 + geometry type, or OTHER_KEY. */
  readonly keys: readonly number[];
  /** The features of each group, ascending (pack order). */
  readonly lists: readonly Uint32Array[];
}

/**
 * Groups features (ascending, as BasemapIndex.query gives them) by kind and geometry type.
 * @param features feature indices of `basemap`, ascending
 */
export function groupFeatures(basemap: Basemap, features: Uint32Array): FeatureGroups {
  const { kind, type } = basemap;
  const keyOf = (f: number): number => (type[f]! > 3 ? OTHER_KEY : kind[f]! * 4 + type[f]!);
  // Counting sort by key: stable, so each group keeps pack order.
  const counts = new Uint32Array(OTHER_KEY + 2);
  for (let k = 0; k < features.length; k++) counts[keyOf(features[k]!) + 1]!++;
  const keys: number[] = [];
  const lists: Uint32Array[] = [];
  const listOf: (Uint32Array | undefined)[] = [];
  for (let key = 0; key <= OTHER_KEY; key++) {
    const n = counts[key + 1]!;
    if (n === 0) continue;
    keys.push(key);
    lists.push((listOf[key] = new Uint32Array(n)));
  }
  counts.fill(0);
  for (let k = 0; k < features.length; k++) {
    const f = features[k]!;
    const key = keyOf(f);
    listOf[key]![counts[key]!++] = f;
  }
  return { keys, lists };
}

/**
 * The features of `groups` a layer may draw, ascending (pack order, the order they are drawn in): the groups of
 * geometry types the layer draws, less those it rejects whole.
 * @param draws whether the layer draws features of a geometry type (1 point, 2 line, 3 polygon)
 * @param rejectsAll whether the layer draws no feature of (kind, type), judged by one of them (FeatureStyler.rejectsAll)
 */
export function drawnFeatures(
  groups: FeatureGroups,
  draws: (type: number) => boolean,
  rejectsAll: (kind: number, type: number, feature: number) => boolean,
): Uint32Array {
  const kept: Uint32Array[] = [];
  let total = 0;
  groups.keys.forEach((key, g) => {
    const list = groups.lists[g]!;
    if (key !== OTHER_KEY && (!draws(key & 3) || rejectsAll(key >> 2, key & 3, list[0]!))) return;
    kept.push(list);
    total += list.length;
  });
  if (kept.length === 1) return kept[0]!;
  const out = new Uint32Array(total);
  let at = 0;
  for (const list of kept) {
    out.set(list, at);
    at += list.length;
  }
  return out.sort();
}
