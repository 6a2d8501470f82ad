import { ID_BLOCK, IdColumn, type OsmIds } from './id-column.js';
import { PackError, type Pack } from './reader.js';
import type { PackWriter } from './writer.js';

/**
 * The sections of one of the pack's OSM id columns: `bytes` and `blocks` an IdColumn's (since 2026-12-03), or in
 * packs from before it `doubles`, one Float64 per id.
 */
export interface OsmIdSections {
  bytes: string;
  blocks: string;
  doubles: string;
}

/**
 * The pack's OSM ids: the road graph's per node its own and per edge its way's; per place its element's id × 4 + its
 * type, or -(unit id + 1) for an admin unit's place (places/kinds.ts).
 */
export const OSM_IDS = {
  node: { bytes: 'graph.node.osmIds', blocks: 'graph.node.osmIdBlock', doubles: 'graph.node.osm' },
  way: { bytes: 'graph.edge.wayIds', blocks: 'graph.edge.wayIdBlock', doubles: 'graph.edge.way' },
  place: { bytes: 'place.osmIds', blocks: 'place.osmIdBlock', doubles: 'place.osm' },
} as const satisfies Record<string, OsmIdSections>;

/** Adds the column `s` of `ids` to a pack being written; throws RangeError naming the section and an id it cannot hold. */
export function addOsmIds(w: PackWriter, s: OsmIdSections, ids: ArrayLike<number>): void {
  let column: IdColumn;
  try {
    column = IdColumn.encode(ids);
  } catch (err) {
    throw new RangeError(`section "${s.bytes}": ${(err as Error).message}`);
  }
  w.addArray(s.bytes, column.bytes).addArray(s.blocks, column.blockAt);
}

/**
 * Whether the pack's column `s` has room for `count` ids as its section table tells (nothing read): as many doubles,
 * or an IdColumn's block per ID_BLOCK ids (the column's own check at first use reads the rest).
 */
export function osmIdsFit(pack: Pack, s: OsmIdSections, count: number): boolean {
  if (pack.has(s.doubles)) return pack.length(s.doubles) === count;
  return pack.has(s.bytes) && pack.has(s.blocks) && pack.length(s.blocks) === Math.ceil(count / ID_BLOCK) + 1;
}

/**
 * The column `s` of `count` ids from the pack (read now), checked whole (IdColumn.problem): throws PackError naming
 * the pack and section when it is damaged.
 */
export function readOsmIds(pack: Pack, s: OsmIdSections, count: number): OsmIds {
  if (pack.has(s.doubles)) return pack.array<Float64Array>(s.doubles);
  const column = new IdColumn(pack.array<Uint8Array>(s.bytes), pack.array<Uint32Array>(s.blocks), count);
  const problem = column.problem(count);
  if (problem) throw new PackError(pack.source, `corrupt section "${s.bytes}": ${problem}`);
  return column;
}
