/**
 * The CCH's nested-dissection order stored in a pack (written by the builder, data-tools/stored-indexes.ts): the one
 * part of the CCH too slow to make at load (seconds on a city; the topology and a metric take a fraction of that).
 * Sections:
 * - `route.cch` (JSON): `{ version, states, check }`: the layout version, the number of shared states, and the
 *   orderCheck of the state topology the order was made for;
 * - `route.cch.order` (u32, per shared state): its rank.
 * The order is used only when its check equals the engine's own state topology (a pack built by an older turn model
 * orders again at first use); packs without the sections order at first use.
 */
import { bytesHash } from '../../pack/bytes-hash.js';
import { PackError, type Pack } from '../../pack/reader.js';
import type { StateTopology } from './state-graph.js';

/** Layout version of the stored order. */
export const CCH_ORDER_LAYOUT = 1;
/** Section names. */
export const CCH_ORDER_SECTIONS = { index: 'route.cch', order: 'route.cch.order' } as const;

/** The `route.cch` section. */
interface CchOrderIndex {
  version: number;
  states: number;
  check: number;
}

/** A hash of the state topology an order is made for. */
function orderCheck(t: StateTopology): number {
  return bytesHash(t.first, t.adj);
}

/** The sections that store `rank`, the order of state topology `t`. */
export function orderSections(
  rank: Uint32Array,
  t: StateTopology,
): { json: [string, unknown]; array: [string, Uint32Array] } {
  const index: CchOrderIndex = { version: CCH_ORDER_LAYOUT, states: rank.length, check: orderCheck(t) };
  return { json: [CCH_ORDER_SECTIONS.index, index], array: [CCH_ORDER_SECTIONS.order, rank] };
}

/**
 * The pack's stored order for state topology `t`, or null when the pack has none or it was made for another one.
 * Throws PackError naming the section when the ranks are not a permutation of the states (a pack opened without
 * checksums): any permutation routes exactly, anything else would not.
 */
export function storedOrder(pack: Pack, t: StateTopology): Uint32Array | null {
  if (!pack.has(CCH_ORDER_SECTIONS.index)) return null;
  const index = pack.json<CchOrderIndex>(CCH_ORDER_SECTIONS.index);
  const states = t.first.length - 1;
  if (index.version !== CCH_ORDER_LAYOUT || index.states !== states || index.check !== orderCheck(t)) return null;
  const rank = pack.array<Uint32Array>(CCH_ORDER_SECTIONS.order);
  if (!(rank instanceof Uint32Array) || !isPermutation(rank, states))
    throw new PackError(
      pack.source,
      `corrupt: section "${CCH_ORDER_SECTIONS.order}" is not an order of the road graph's states`,
    );
  return rank;
}

function isPermutation(rank: Uint32Array, n: number): boolean {
  if (rank.length !== n) return false;
  const seen = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const r = rank[i]!;
    if (r >= n || seen[r]) return false;
    seen[r] = 1;
  }
  return true;
}
