import { putVarint, unzigzag, VarintCursor, varintBytes, zigzag } from './varint.js';

/** Ids per block of an IdColumn: its first id is written whole, so reading id i decodes at most this many varints. */
export const ID_BLOCK = 32;
const BLOCK_SHIFT = 5;

/** Largest magnitude of an id an IdColumn holds: steps between two of them, zigzagged, stay below 2^53. */
const ID_MAX = 2 ** 50;

/**
 * A column of whole-number ids (the OSM ids of the road graph's nodes and edges and of the places) as varints: per block of
 * ID_BLOCK ids the first one whole, every other as its step from the one before, both zigzag-signed. Neighbouring
 * nodes and edges mostly come from the same or nearby ways, so whole HCMC's 57,549 node ids take 0.19 MB instead of
 * 0.46 as doubles and its 77,396 edges' way ids 0.26 instead of 0.62. Reading id i decodes up to ID_BLOCK varints:
 * for what reads an id now and then (no search reads them). `at` as a Float64Array's, so both serve as OsmIds.
 */
export class IdColumn {
  /** Reused by every read (none allocates). */
  private static readonly cursor = new VarintCursor();

  /**
   * @param bytes the varints
   * @param blockAt per block the byte its first id starts at, then the bytes' length
   * @param length how many ids there are
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly blockAt: Uint32Array,
    readonly length: number,
  ) {}

  /** The column of `ids` (whole numbers of magnitude at most 2^50). Throws RangeError naming an id that is not. */
  static encode(ids: ArrayLike<number>): IdColumn {
    const n = ids.length;
    const blockAt = new Uint32Array(blockCount(n) + 1);
    const step = (i: number): number => {
      const id = ids[i]!;
      if (!Number.isInteger(id) || Math.abs(id) > ID_MAX)
        throw new RangeError(`id ${i} (${id}) is no whole number of magnitude ≤ 2^50`);
      return zigzag((i & (ID_BLOCK - 1)) === 0 ? id : id - ids[i - 1]!);
    };
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      if ((i & (ID_BLOCK - 1)) === 0) blockAt[i >> BLOCK_SHIFT] = bytes;
      bytes += varintBytes(step(i));
    }
    blockAt[blockAt.length - 1] = bytes;
    const out = new Uint8Array(bytes);
    for (let i = 0, at = 0; i < n; i++) at = putVarint(out, at, step(i));
    return new IdColumn(out, blockAt, n);
  }

  /** Id i (from the end when negative, as Float64Array's `at`), or undefined past either end. */
  at(i: number): number | undefined {
    if (i < 0) i += this.length;
    if (!(i >= 0 && i < this.length)) return undefined;
    const c = IdColumn.cursor,
      bytes = this.bytes;
    c.at = this.blockAt[i >> BLOCK_SHIFT]!;
    let id = 0;
    for (let k = i & (ID_BLOCK - 1); k >= 0; k--) id += unzigzag(c.read(bytes, bytes.length));
    return id;
  }

  /**
   * Why these arrays are no column of `length` ids, or null when they are: a block per ID_BLOCK ids, each starting
   * where its offset says, every varint ending inside the bytes and the last where they end, every id within 2^50.
   * Reads every id once, never past the bytes.
   */
  problem(length: number): string | null {
    const { bytes, blockAt } = this;
    if (this.length !== length) return `${this.length} ids where ${length} are needed`;
    if (blockAt.length !== blockCount(length) + 1 || blockAt[blockAt.length - 1] !== bytes.length)
      return 'the blocks do not fit the ids';
    const c = IdColumn.cursor;
    c.at = 0;
    let id = 0;
    for (let i = 0; i < length; i++) {
      if ((i & (ID_BLOCK - 1)) === 0) {
        if (blockAt[i >> BLOCK_SHIFT] !== c.at) return `block ${i >> BLOCK_SHIFT} is not where it says`;
        id = 0;
      }
      const z = c.read(bytes, bytes.length);
      if (z < 0) return `id ${i} runs past its bytes`;
      id += unzigzag(z);
      if (Math.abs(id) > ID_MAX) return `id ${i} is out of range`;
    }
    return c.at === bytes.length ? null : 'bytes are left after the ids';
  }
}

/** Blocks of `count` ids. */
function blockCount(count: number): number {
  return Math.ceil(count / ID_BLOCK);
}

/** Per node, edge or place an OSM id: an IdColumn, or a pack's doubles from before the columns. */
export type OsmIds = Pick<IdColumn, 'at' | 'length'>;
