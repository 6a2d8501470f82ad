import { Scratch, scratchBytes } from './scratch.js';
import type { CchArena } from '../wasm/cch-arena.js';

/** The middle vertex of a kept arc whose own link made its weight (it unpacks to no lower vertex): midOf. */
export const LINK = 0xffffffff;

/**
 * Per kept arc, its head's place in its lower end's row of the topology: head = upHead[upFirst[v] + slot]. A byte
 * while no topology row is longer than 256 arcs (whole HCMC: 211 at most), else 2 or 4 bytes (slotBytes).
 */
export type Slots = Uint8Array | Uint16Array | Uint32Array;

/**
 * One direction of the arcs a customized CCH keeps (perfect.ts perfectRow), by lower end: those of vertex v are
 * rowStart(v) .. rowStart(v + 1) - 1, their heads by their places in v's topology row in `slot` (ascending, so heads
 * ascend too), their weights (basic customization's, each the weight of the path the arc unpacks to) in `weight`.
 * An arc whose weight a lower triangle made (not its own link) has its bit set in `viaMid` and the triangle's
 * vertex m in `mid` and `far` (midOf): driven up, lo → hi runs lo → m → hi (the arc m–lo down, then m–hi up); driven
 * down, hi → m → lo (m–hi down, then m–lo up). Both arcs of a kept arc's triangle are kept too, so a route through
 * kept arcs unpacks through kept arcs alone. About 10.4 bytes per kept arc with byte slots on whole HCMC (72 % have
 * a middle, 93 % of those within 255 vertices below the arc's lower end), plus 2 per vertex, in one block of shared
 * memory where the platform has it (scratch.ts), which other threads may adopt (exchange.ts).
 */
export interface CchArcs {
  /**
   * Where each vertex's kept arcs start, in two levels: vertex v's at rowBase[v >> 8] + rowOff[v] (v from 0 to the
   * vertex count, whose start is the arc count). Offsets are 2 bytes with byte slots (255 rows of at most 256 arcs
   * before a vertex of its block fit), else 4.
   */
  rowBase: Uint32Array;
  rowOff: Uint16Array | Uint32Array;
  slot: Slots;
  weight: Float64Array;
  /** Per 32 kept arcs a word: bit k & 31 of word k >> 5 set when kept arc k has a middle vertex. */
  viaMid: Uint32Array;
  /** Per word of viaMid: how many bits the words before it set (where its arcs' middles start in `mid`). */
  midRank: Uint32Array;
  /**
   * Per arc that has a middle vertex, in arc order: how far below the arc's lower end v it is (v - m, 1 to 255), or 0
   * when it is further (its vertex then in `far`). A byte where the vertex took 4: the middle of an arc lies in its
   * lower end's subtree of the elimination tree, most often a few ranks below it.
   */
  mid: Uint8Array;
  /**
   * The middle vertices further than 255 below their arc's lower end, as pairs (j, m), j ascending: `mid[j]` is 0 and
   * m is the vertex.
   */
  far: Uint32Array;
  /**
   * Empty when every vertex's row is here; else the arcs of a metric customized against a base metric (KeptRows):
   * per 32 vertices a word, bit v & 31 of word v >> 5 set when vertex v's row is here, clear when it is the base's
   * row of the same direction (byte for byte what this metric's own would be; its row here is then empty).
   */
  own: Uint32Array;
}

/** Where vertex v's kept arcs start among `a`'s (its end is where v + 1's start). */
export function rowStart(a: CchArcs, v: number): number {
  return a.rowBase[v >> 8]! + a.rowOff[v]!;
}

/**
 * The middle vertex of kept arc k of `a` (an arc of vertex v's row), or LINK when its own link made its weight.
 * @param farPairs how many pairs of `a.far` hold middles (default: all; fewer while `a` is being written)
 */
export function midOf(a: CchArcs, k: number, v: number, farPairs = a.far.length >> 1): number {
  const w = k >> 5,
    bits = a.viaMid[w]!,
    bit = 1 << (k & 31);
  if ((bits & bit) === 0) return LINK;
  const j = a.midRank[w]! + bitCount(bits & (bit - 1));
  const below = a.mid[j]!;
  return below !== 0 ? v - below : farAt(a.far, farPairs, j);
}

/** The vertex of middle j in the first `pairs` pairs of `far` (CchArcs.far): a binary search; -1 when j has none. */
function farAt(far: Uint32Array, pairs: number, j: number): number {
  let lo = 0,
    hi = pairs;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (far[2 * m]! < j) lo = m + 1;
    else hi = m;
  }
  return lo < pairs && far[2 * lo] === j ? far[2 * lo + 1]! : -1;
}

/** The number of set bits of a 32-bit integer. */
export function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Bytes per slot over a topology of rows `upFirst`: as few as its longest row's places (0 .. length - 1) need. */
function slotBytes(upFirst: Uint32Array): 1 | 2 | 4 {
  let maxRow = 0;
  for (let v = 0; v + 1 < upFirst.length; v++) maxRow = Math.max(maxRow, upFirst[v + 1]! - upFirst[v]!);
  return maxRow <= 0x100 ? 1 : maxRow <= 0x10000 ? 2 : 4;
}

/**
 * Index of the kept arc from `v` to `h` (a neighbour above v in the topology whose rows are upFirst/upHead), or -1
 * when `a` keeps none: a binary search of v's kept arcs by their heads (ascending with their slots).
 */
export function keptIndex(a: CchArcs, upFirst: Uint32Array, upHead: Uint32Array, v: number, h: number): number {
  const row = upFirst[v]!,
    slot = a.slot,
    end = rowStart(a, v + 1);
  let lo = rowStart(a, v),
    hi = end;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (upHead[row + slot[m]!]! < h) lo = m + 1;
    else hi = m;
  }
  return lo < end && upHead[row + slot[lo]!] === h ? lo : -1;
}

/**
 * Index of the arc from `v` to `h` in a CSR of arcs by lower end, heads ascending per row (a CchArcs' first/head, or
 * a topology's upFirst/upHead): a binary search of v's row; -1 when v has no such arc.
 */
export function arcIndex(first: Uint32Array, head: Uint32Array, v: number, h: number): number {
  let lo = first[v]!,
    hi = first[v + 1]!;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (head[m]! < h) lo = m + 1;
    else hi = m;
  }
  return lo < first[v + 1]! && head[lo] === h ? lo : -1;
}

/**
 * Index of the first of head[from .. end - 1] (ascending) that is ≥ h, or `end` when none is: a galloping search
 * (steps 1, 2, 4 … then a binary search), so walking a long row to a few heads in order costs about their
 * logarithms, not the row's length. Triangle enumeration walks the row of a vertex's higher neighbour this way to
 * the vertex's own higher neighbours, often a handful of a long row.
 */
export function seek(head: Uint32Array, from: number, end: number, h: number): number {
  let lo = from,
    hi = from,
    step = 1;
  // Invariant: every head before lo is < h.
  while (hi < end && head[hi]! < h) {
    lo = hi + 1;
    hi += step;
    step <<= 1;
  }
  if (hi > end) hi = end;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (head[m]! < h) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/** The furthest a middle vertex may lie below its arc's lower end to be written in CchArcs.mid alone. */
const NEAR_MAX = 0xff;

/** Whether middle vertex `mid` (or LINK) of an arc whose lower end is v goes in CchArcs.far. */
export function farMiddle(v: number, mid: number): boolean {
  return mid !== LINK && v - mid > NEAR_MAX;
}

/**
 * Most kept arcs a KeptRows may be given, of those how many have a middle vertex, and of those how many lie further
 * than NEAR_MAX below their arc (CchArcs.far; default: every middle), each way.
 */
export interface KeptCounts {
  up: number;
  down: number;
  midsUp: number;
  midsDown: number;
  farUp?: number;
  farDown?: number;
}

/**
 * The largest share of a metric's kept arcs that may be rows of its own for it to be kept as rows over a base
 * (KeptRows): past it the whole metric is kept, its searches then reading one set of arrays. On whole HCMC a taxi's
 * own rows hold 0.02 % of its kept arcs over a car's, avoiding highways 6 % over not avoiding them, and a bike's or a
 * truck's 70–99 % over a car's.
 */
const OWN_SHARE_MAX = 0.5;

/**
 * Writes the arcs a customization keeps as the two CchArcs, up then down, row by row in rank order, each's arrays in
 * one block of shared memory where the platform has it. Room is made for `room`'s counts; `finish` gives views of
 * the arcs written (pages of the room never written are never committed). Given a base (another metric's kept arcs
 * over the same topology, every row its own), each row written is compared with the base's: when few rows differ
 * (OWN_SHARE_MAX), `finish` gives only those, the others left to the base (CchArcs.own). The rows are then written
 * in a scratch block given back by `finish`, which copies what is kept into shared memory, so that a metric kept
 * over its base never holds its whole rows until some collection. Likewise for an arena when the counts are bounds
 * (`bound`): `finish` moves the arcs into it at their exact size (`moveOut`), since the room an arena's block did not
 * fill cannot be given back from its middle, and would keep a later metric out of the WebAssembly memory's 4 GiB.
 */
export class KeptRows {
  private readonly u: CchArcs;
  private readonly d: CchArcs;
  /** Arcs and middles written each way, and the rows done. */
  private ku = 0;
  private kd = 0;
  private mu = 0;
  private md = 0;
  /** Middles written in `far` each way. */
  private fu = 0;
  private fd = 0;
  private rows = 0;
  /** Middles written each way before the row being written. */
  private rowMu = 0;
  private rowMd = 0;
  /** With a base: per direction a bit per vertex set when its row differs from the base's. */
  private readonly differ: [Uint32Array, Uint32Array] | null;
  /** The arcs, middles and far middles of those rows. */
  private readonly ownRoom: Required<KeptCounts> = { up: 0, down: 0, midsUp: 0, midsDown: 0, farUp: 0, farDown: 0 };
  /** Where the rows are written when they are compared with a base (given back by `finish`), else null. */
  private readonly scratch: Scratch | null;
  /** Else the blocks the arcs up and down are written in (their room past what is written given back by `finish`). */
  private readonly blocks: readonly [Scratch, Scratch] | null;

  /**
   * @param upFirst the topology's rows (a kept arc's slot is its place in its row)
   * @param base another metric's kept arcs up and down over the same topology, every row its own (own empty)
   * @param ownBits room for CchArcs.own (rows over a base: `finish` with a base writes them)
   * @param arena the arcs kept (with a base, those `finish` copies out of the scratch) are written in this arena's
   *   memory where it has room (cch-arena.ts), for the WebAssembly search to read in place
   * @param bound whether `room`'s counts may exceed the arcs kept (a customization by parts counts the arcs finite
   *   after its basic customization): with an arena, the rows are then written in a scratch, moved by `finish`
   */
  constructor(
    private readonly upFirst: Uint32Array,
    room: KeptCounts,
    private readonly base: readonly [CchArcs, CchArcs] | null = null,
    ownBits = false,
    private readonly arena: CchArena | null = null,
    bound = false,
  ) {
    const n = upFirst.length - 1,
      slot = slotBytes(upFirst);
    const up = arcsBytes(n, slot, room.up, room.midsUp, room.farUp ?? room.midsUp, ownBits),
      down = arcsBytes(n, slot, room.down, room.midsDown, room.farDown ?? room.midsDown, ownBits);
    // Moved into the arena piece by piece, its pages given back behind (`moveOut`), so a resizable block of its own.
    this.scratch = base ? new Scratch(up + down) : arena && bound ? new Scratch(up + down, { shrink: 0 }) : null;
    const where = (bytes: number) => this.scratch ?? new Scratch(bytes, { shared: true, arena });
    const blocks = [where(up), where(down)] as const;
    this.blocks = this.scratch ? null : blocks;
    this.u = arcsIn(blocks[0], n, slot, room.up, room.midsUp, room.farUp ?? room.midsUp, ownBits);
    this.d = arcsIn(blocks[1], n, slot, room.down, room.midsDown, room.farDown ?? room.midsDown, ownBits);
    this.differ = base && [new Uint32Array((n + 31) >> 5), new Uint32Array((n + 31) >> 5)];
  }

  /** Writes the next kept arc of the row being written, driven up (way 0) or down (1): slot, weight, middle vertex. */
  put(way: number, slot: number, weight: number, mid: number): void {
    const v = this.rows,
      far = farMiddle(v, mid);
    if (way === 0) this.mu = putArc(this.u, this.ku++, slot, weight, mid, this.mu, v, far ? this.fu++ : -1);
    else this.md = putArc(this.d, this.kd++, slot, weight, mid, this.md, v, far ? this.fd++ : -1);
  }

  /** Ends the row being written (rows in rank order, each ended once, empty ones too). */
  endRow(): void {
    const v = this.rows++;
    if (this.base) {
      this.note(0, this.u, v, this.ku, this.mu - this.rowMu, this.fu);
      this.note(1, this.d, v, this.kd, this.md - this.rowMd, this.fd);
    }
    this.rowMu = this.mu;
    this.rowMd = this.md;
    startRow(this.u, this.rows, this.ku);
    startRow(this.d, this.rows, this.kd);
  }

  /**
   * Notes whether row v of direction `way` (in `a`, ending before arc `end`, with `mids` middles, `farPairs` far ones
   * written in all) differs from the base's, counting its arcs, middles and far middles when it does.
   */
  private note(way: number, a: CchArcs, v: number, end: number, mids: number, farPairs: number): void {
    const b = this.base![way]!,
      start = rowStart(a, v),
      from = rowStart(b, v);
    let same = end - start === rowStart(b, v + 1) - from;
    for (let i = 0; same && i < end - start; i++)
      same =
        a.slot[start + i] === b.slot[from + i] &&
        a.weight[start + i] === b.weight[from + i] &&
        midOf(a, start + i, v, farPairs) === midOf(b, from + i, v);
    if (same) return;
    this.differ![way]![v >> 5]! |= 1 << (v & 31);
    const room = this.ownRoom;
    let far = 0;
    for (let k = start; k < end; k++) far += +farMiddle(v, midOf(a, k, v, farPairs));
    if (way === 0) ((room.up += end - start), (room.midsUp += mids), (room.farUp += far));
    else ((room.down += end - start), (room.midsDown += mids), (room.farDown += far));
  }

  /**
   * The arcs written, once every row is (views of the room's arrays, trimmed to what was written); with a base, only
   * the rows that differ from it when they hold at most OWN_SHARE_MAX of the arcs (in a block of their own).
   */
  finish(): [CchArcs, CchArcs] {
    // Writes past a typed array's end are dropped silently: a room too small shows here, never as a wrong arc.
    const { u, d } = this;
    if (
      this.rows !== this.upFirst.length - 1 ||
      this.ku > u.slot.length ||
      this.kd > d.slot.length ||
      2 * this.fu > u.far.length ||
      2 * this.fd > d.far.length
    )
      throw new Error(
        `kept rows: ${this.rows} of ${this.upFirst.length - 1} rows written, ${this.ku} and ${this.kd} arcs (${this.fu} and ${this.fd} far middles) in room for ${u.slot.length} and ${d.slot.length} (${u.far.length >> 1} and ${d.far.length >> 1})`,
      );
    const trim = (a: CchArcs, count: number, mids: number, far: number): CchArcs => ({
      rowBase: a.rowBase,
      rowOff: a.rowOff,
      slot: a.slot.subarray(0, count),
      weight: a.weight.subarray(0, count),
      viaMid: a.viaMid.subarray(0, (count + 31) >> 5),
      midRank: a.midRank.subarray(0, (count + 31) >> 5),
      mid: a.mid.subarray(0, mids),
      far: a.far.subarray(0, 2 * far),
      own: a.own,
    });
    const whole: [CchArcs, CchArcs] = [
      trim(this.u, this.ku, this.mu, this.fu),
      trim(this.d, this.kd, this.md, this.fd),
    ];
    const differ = this.differ;
    if (!this.scratch) {
      // An arena's room past the weights written goes back to it (a shared buffer's pages never written cost nothing).
      this.blocks?.forEach((b, way) => b.giveBack(whole[way]!.weight));
      return whole;
    }
    if (!differ) return this.moveOut(whole);
    // Written in the scratch: its rows that differ from the base's, or all of them, copied into shared memory.
    const over = this.ownRoom.up + this.ownRoom.down <= OWN_SHARE_MAX * (this.ku + this.kd);
    const room = over
      ? this.ownRoom
      : { up: this.ku, down: this.kd, midsUp: this.mu, midsDown: this.md, farUp: this.fu, farDown: this.fd };
    const rows = new KeptRows(this.upFirst, room, null, over, this.arena);
    for (let v = 0; v < this.rows; v++) {
      for (let way = 0; way < 2; way++) {
        if (over && ((differ[way]![v >> 5]! >>> (v & 31)) & 1) === 0) continue;
        const a = whole[way]!;
        for (let k = rowStart(a, v), end = rowStart(a, v + 1); k < end; k++)
          rows.put(way, a.slot[k]!, a.weight[k]!, midOf(a, k, v));
      }
      rows.endRow();
    }
    const kept = rows.finish();
    if (over) for (const way of [0, 1]) kept[way]!.own.set(differ[way]!);
    this.scratch.release();
    return kept;
  }

  /**
   * The arcs written (`whole`, views of the scratch), moved into the arena in blocks of their exact size: the last
   * bytes carved first, MOVE_PIECE at a time, each piece's pages given back to the system once moved (Scratch.cut),
   * so the process holds about one copy of the arcs throughout, not two.
   */
  private moveOut(whole: [CchArcs, CchArcs]): [CchArcs, CchArcs] {
    const n = this.upFirst.length - 1,
      slot = slotBytes(this.upFirst);
    const counts: [number, number, number][] = [
      [this.ku, this.mu, this.fu],
      [this.kd, this.md, this.fd],
    ];
    const moved = counts.map(([count, mids, far]) =>
      arcsIn(
        new Scratch(arcsBytes(n, slot, count, mids, far, false), { shared: true, arena: this.arena }),
        n,
        slot,
        count,
        mids,
        far,
        false,
      ),
    ) as [CchArcs, CchArcs];
    // Where each array lies, read before any cut (a view past its buffer's end reads as empty); the last carved
    // first, so that a cut never reaches an array still to move.
    const pieces = [0, 1]
      .flatMap((way) =>
        (Object.keys(whole[way]!) as (keyof CchArcs)[]).map((name) => {
          const from = whole[way]![name];
          return { from: [from.buffer, from.byteOffset, from.byteLength] as const, to: moved[way]![name] };
        }),
      )
      .sort((p, q) => q.from[1] - p.from[1]);
    for (const { from, to } of pieces) {
      const [buffer, at, bytes] = from;
      for (let end = bytes; end > 0;) {
        const start = Math.max(0, end - MOVE_PIECE);
        new Uint8Array(to.buffer, to.byteOffset + start, end - start).set(
          new Uint8Array(buffer, at + start, end - start),
        );
        this.scratch!.cut(buffer, at + start);
        end = start;
      }
    }
    this.scratch!.release();
    return moved;
  }
}

/** Bytes moved at a time by KeptRows.moveOut before the scratch gives their pages back. */
const MOVE_PIECE = 1 << 24;

/**
 * Bytes of one direction's CchArcs of `count` arcs, `mids` of them with a middle and `far` of those in CchArcs.far,
 * over a topology of n vertices whose slots take `bytes` (slotBytes); with `ownBits`, CchArcs.own too (else empty).
 */
function arcsBytes(n: number, bytes: 1 | 2 | 4, count: number, mids: number, far: number, ownBits: boolean): number {
  const words = (count + 31) >> 5;
  return scratchBytes(
    [count, 8],
    [(n >> 8) + 1, 4],
    [words, 4],
    [words, 4],
    [2 * far, 4],
    [ownBits ? (n + 31) >> 5 : 0, 4],
    [n + 1, bytes === 1 ? 2 : 4],
    [count, bytes],
    [mids, 1],
  );
}

/** One direction's CchArcs as arcsBytes counts it, carved from `block`. */
function arcsIn(
  block: Scratch,
  n: number,
  bytes: 1 | 2 | 4,
  count: number,
  mids: number,
  farPairs: number,
  ownBits: boolean,
): CchArcs {
  const offBytes = bytes === 1 ? 2 : 4;
  const words = (count + 31) >> 5,
    blocks = (n >> 8) + 1,
    ownWords = ownBits ? (n + 31) >> 5 : 0;
  const rowBase = block.u32(blocks),
    viaMid = block.u32(words),
    midRank = block.u32(words),
    far = block.u32(2 * farPairs),
    own = block.u32(ownWords);
  const rowOff = offBytes === 2 ? block.u16(n + 1) : block.u32(n + 1);
  const slot = bytes === 1 ? block.u8(count) : bytes === 2 ? block.u16(count) : block.u32(count);
  const mid = block.u8(mids);
  // Last, so that the room past the arcs written, most of it the weights', can be given back (KeptRows.finish).
  const weight = block.f64(count);
  return { rowBase, rowOff, slot, weight, viaMid, midRank, mid, far, own };
}

/**
 * Writes kept arc k of `a` (of vertex v's row): its place in its topology row, its weight, and its middle vertex
 * (LINK for none) after the `m` middles written before it, as pair f of `far` when f is not -1; returns the middles
 * written with it.
 */
function putArc(
  a: CchArcs,
  k: number,
  at: number,
  weight: number,
  mid: number,
  m: number,
  v: number,
  f: number,
): number {
  a.slot[k] = at;
  a.weight[k] = weight;
  if ((k & 31) === 0) a.midRank[k >> 5] = m;
  if (mid === LINK) return m;
  a.viaMid[k >> 5]! |= 1 << (k & 31);
  if (f < 0) a.mid[m] = v - mid;
  else ((a.mid[m] = 0), (a.far[2 * f] = m), (a.far[2 * f + 1] = mid));
  return m + 1;
}

/** Notes that vertex v's kept arcs start at k (vertices in order, from 1: vertex 0's start at 0). */
function startRow(a: CchArcs, v: number, k: number): void {
  if ((v & 255) === 0) a.rowBase[v >> 8] = k;
  a.rowOff[v] = k - a.rowBase[v >> 8]!;
}

/**
 * Why `a` cannot be one direction of a customized metric over the topology whose rows are upFirst/upHead (another
 * thread's, offered for adoption: exchange.ts), or null when it can: the arrays' types and lengths, rows that cover
 * the arcs in order, slots ascending within their topology row, middles counted by their bits and ranks, each far
 * one listed once, and each below its row's vertex, and (arcs over a base) no arcs in a row left to the base. Linear
 * in the arcs.
 */
export function arcsProblem(a: CchArcs, upFirst: Uint32Array): string | null {
  const { rowBase, rowOff, slot, weight, viaMid, midRank, mid, far, own } = a;
  const n = upFirst.length - 1;
  const bytes = slotBytes(upFirst);
  if (![rowBase, viaMid, midRank, far, own].every((x) => x instanceof Uint32Array))
    return 'row bases, middle bits, ranks, far middles and own rows are not Uint32Arrays';
  if (!(mid instanceof Uint8Array)) return 'middles are not a Uint8Array';
  if (own.length !== 0 && own.length !== (n + 31) >> 5) return `${own.length} words of own rows for ${n} vertices`;
  if (own.length && n & 31 && own[own.length - 1]! >>> (n & 31) !== 0) return 'own rows past the last vertex';
  if (!(slot instanceof [Uint8Array, Uint16Array, Uint32Array][bytes >> 1]!))
    return `slots are not of ${bytes} byte${bytes > 1 ? 's' : ''}`;
  if (!(rowOff instanceof (bytes === 1 ? Uint16Array : Uint32Array)))
    return `row offsets are not of ${bytes === 1 ? 2 : 4} bytes`;
  if (!(weight instanceof Float64Array)) return 'weights are not a Float64Array';
  const c = slot.length,
    words = (c + 31) >> 5;
  if (rowOff.length !== n + 1 || rowBase.length !== (n >> 8) + 1)
    return `${rowOff.length} row offsets and ${rowBase.length} bases for ${n} vertices`;
  if (c > upFirst[n]! || weight.length !== c || viaMid.length !== words || midRank.length !== words)
    return `${c} slots, ${weight.length} weights, ${viaMid.length} and ${midRank.length} middle words for ${upFirst[n]} arcs`;
  if (rowStart(a, 0) !== 0 || rowStart(a, n) !== c) return 'the rows do not cover the arcs';
  if (c & 31 && viaMid[words - 1]! >>> (c & 31) !== 0) return 'middle bits past the last arc';
  let mids = 0;
  for (let w = 0; w < words; w++) {
    if (midRank[w] !== mids) return `middle word ${w} has rank ${midRank[w]}`;
    mids += bitCount(viaMid[w]!);
  }
  if (mid.length !== mids) return `${mid.length} middles for ${mids} middle bits`;
  let farCount = 0;
  for (let j = 0; j < mids; j++) farCount += +(mid[j] === 0);
  if (far.length !== 2 * farCount) return `${far.length / 2} far middles for ${farCount}`;
  for (let f = 0; f < farCount; f++)
    if (mid[far[2 * f]!] !== 0 || (f > 0 && far[2 * f]! <= far[2 * f - 2]!)) return `far middle ${f} is out of place`;
  for (let v = 0; v < n; v++) {
    const lo = rowStart(a, v),
      hi = rowStart(a, v + 1),
      row = upFirst[v + 1]! - upFirst[v]!;
    if (hi < lo) return `row ${v} ends before it starts`;
    if (hi > lo && own.length && ((own[v >> 5]! >>> (v & 31)) & 1) === 0) return `row ${v} is the base's but has arcs`;
    for (let k = lo; k < hi; k++) {
      const s = slot[k]!,
        m = midOf(a, k, v);
      if (s >= row || (k > lo && s <= slot[k - 1]!)) return `arc ${k} of row ${v} has slot ${s}`;
      if (m !== LINK && (m < 0 || m >= v)) return `arc ${k} of row ${v} has middle ${m}`;
    }
  }
  return null;
}
