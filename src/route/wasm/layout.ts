/**
 * Byte offsets of the headers the TypeScript side writes into the WebAssembly core's linear memory. They mirror the
 * `#[repr(C)]` structs `Graph` and `Costs` in wasm/src/layout.rs and `Ch` in wasm/src/ch.rs field for field (f64
 * fields first, then 4-byte fields: u32 counts and byte addresses), so a change on one side must be made on the other.
 */

/** Fields of `Graph` after its leading f64 `result_weight` (at byte 0), in declaration order, 4 bytes each. */
const GRAPH_FIELDS = [
  'nodes',
  'arcs',
  'gen',
  'settled',
  'resultArc',
  'labelCap',
  'edgeNodes',
  'adjFirst',
  'adjArc',
  'edgeLen',
  'nodeX',
  'nodeY',
  'fwd',
  'bwd',
  'fheap',
  'fheapPos',
  'bheap',
  'bheapPos',
  'fdur',
  'flen',
  'dstEdge',
  'dstT',
  'dstNext',
  'dstActive',
  'outWeight',
  'outDur',
  'outDist',
] as const;

/**
 * Fields of `Costs` after its six leading f64s (bound per metre, metres per degree lon / lat, U-turn seconds, turn
 * weight factor, restricted-access turn weight), 4 bytes each.
 */
const COSTS_FIELDS = [
  'arcs',
  'states',
  'weight',
  'dur',
  'outOpen',
  'blocked',
  'restricted',
  'rule',
  'ruleFirst',
  'ruleTo',
  'ruleNext',
  'copyArc',
  'copyFirst',
  'bearing',
  'signal',
  'cross',
  'anglePenalty',
] as const;

/** Fields of `Ch` after its four leading f64s (result weight, seconds, metres; largest landmark weight), 4 bytes each. */
const CH_FIELDS = [
  'states',
  'edgeBased',
  'settled',
  'resultArc',
  'perm',
  'recFirst',
  'recW',
  'recNode',
  'kidA',
  'kidB',
  'recDl',
  'dlDone',
  'dlStack',
  'packState',
  'blockState',
  'pathCap',
  'path',
  'stack',
  'fw',
  'fpp',
  'fpos',
  'ftouched',
  'fdl',
  'fheap',
  'bw',
  'bpp',
  'bpos',
  'btouched',
  'bdl',
  'bheap',
  'bucketCap',
  'eState',
  'eDest',
  'eW',
  'eD',
  'eL',
  'sorted',
  'first',
  'core',
  'landmarks',
  'lmFrom',
  'lmTo',
  'gen',
  'potF',
  'potB',
  'potGen',
  'lmc',
  'entF',
  'entB',
  'destCap',
  'dEntries',
  'dLeft',
] as const;

export type GraphField = (typeof GRAPH_FIELDS)[number];
export type ChField = (typeof CH_FIELDS)[number];

const offsets = <K extends string>(fields: readonly K[], start: number): Record<K, number> =>
  Object.fromEntries(fields.map((f, i) => [f, start + 4 * i])) as Record<K, number>;

/** Byte offset of each 4-byte field of the `Graph` header; `result_weight` (f64) is at 0. */
export const GRAPH = offsets(GRAPH_FIELDS, 8);
/** Size of the `Graph` header in bytes (8-aligned like the Rust struct). */
export const GRAPH_BYTES = Math.ceil((8 + 4 * GRAPH_FIELDS.length) / 8) * 8;

/** Byte offsets of the f64 fields of `Costs`. */
export const COSTS_F64 = {
  boundPerMetre: 0,
  mPerLon: 8,
  mPerLat: 16,
  uTurn: 24,
  turnFactor: 32,
  restrictedTurn: 40,
} as const;
/** Byte offset of each 4-byte field of the `Costs` header. */
export const COSTS = offsets(COSTS_FIELDS, 48);
/** Size of the `Costs` header in bytes. */
export const COSTS_BYTES = Math.ceil((48 + 4 * COSTS_FIELDS.length) / 8) * 8;

/** Bytes of one heap slot (`Entry`: f64 key, u32 item, padding); a heap of n items has n + 1 slots. */
export const HEAP_ENTRY_BYTES = 16;

/** Bytes of one record's seconds and metres (`Dl`: f64 × 2). */
export const CH_DL_BYTES = 16;

/** Records per entry of the `Ch` field `block_state` (`BLOCK_SHIFT` in wasm/src/ch.rs). */
export const CH_BLOCK_RECORDS = 256;

/** Bytes of one bucket entry grouped by state (`Bucket`: u32 destination, padding, f64 weight, seconds, metres). */
export const CH_BUCKET_BYTES = 32;

/** Bytes of one search label (`Label`: f64 weight, i32 parent state, u32 generation stamp). */
export const LABEL_BYTES = 16;
/** Byte offset of the parent state inside a label. */
export const LABEL_PARENT = 8;

/** Byte offset of the f64 largest finite landmark weight in the `Ch` header (after the result weight, seconds, metres). */
export const CH_LM_MAX = 24;
/** Byte offset of each 4-byte field of the `Ch` header; the result weight, seconds and metres (f64) are at 0, 8, 16. */
export const CH = offsets(CH_FIELDS, 32);
/** Size of the `Ch` header in bytes. */
export const CH_BYTES = Math.ceil((32 + 4 * CH_FIELDS.length) / 8) * 8;
