import { ID_BLOCK, IdColumn, type OsmIds } from './id-column.js';
import { PackError, type Pack } from './reader.js';

/**
 * The sections of one of the road graph's OSM id columns: `bytes` and `blocks` an IdColumn's (since 2026-12-03), or
 * in packs from before it `doubles`, one Float64 per id.
 */
export interface OsmIdSections {
  bytes: string;
  blocks: string;
  doubles: string;
}

/** The road graph's OSM ids: per node its own, per edge its way's. */
export const OSM_IDS = {
  node: { bytes: 'graph.node.osmIds', blocks: 'graph.node.osmIdBlock', doubles: 'graph.node.osm' },
  way: { bytes: 'graph.edge.wayIds', blocks: 'graph.edge.wayIdBlock', doubles: 'graph.edge.way' },
} as const satisfies Record<string, OsmIdSections>;

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
