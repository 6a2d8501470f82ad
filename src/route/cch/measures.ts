import { arcTail } from '../costs.js';
import { bitCount, LINK, midOf, rowStart } from './arcs.js';
import type { CchMetric } from './customize.js';
import { Scratch, scratchBytes } from './scratch.js';

/**
 * Arcs whose unpacking visits more than this many arcs (links and shortcuts, each counted once per visit) have their
 * seconds and metres stored; the others are added up from their links when read. On whole HCMC (car) that stores
 * 2.7 MB (16.4 for every arc); a 10 × 10 DistanceMatrix reads ≈ 130 arcs (CchTable measures only its pairs'
 * chains), visiting a few hundred arcs in all to add them up. Each visit is a few random reads (its middle, its two
 * arcs' places, the link's turn and seconds): CPU ms per table against storing every arc (one process, the same
 * endpoints in turn), storing above 8 (5.4 MB) 10 × 10 0.43 → 0.48 and 100 × 100 6.2 → 6.7; above 16 0.52 → 0.62
 * and 7.2 → 8.7; above 4 (8.8 MB) 0.43 and 5.7 → 6.4. Above 16 rather than 8 since a server holds this for every
 * vehicle asked for matrices: against 8, in turn in one process, 10 × 10 0.76–0.77 → 0.83–0.87 and 100 × 100
 * 10.4 → 11.5–11.8 ms for 2.96 MB less (the same seconds and metres).
 */
const STORED_ABOVE = 16;

/**
 * One direction's stored measures (CchMeasures): per 32 kept arcs a word of `stored` (bit k & 31 of word k >> 5 set
 * when kept arc k's are stored; k as CchMetric.keptAt gives: a metric over a base measures its base's arcs too), per
 * word in `storedRank` how many bits the words before it set, and the seconds and metres of the stored arcs in arc
 * order in `values` (2 per stored arc).
 */
export interface ArcMeasures {
  stored: Uint32Array;
  storedRank: Uint32Array;
  values: Float64Array;
}

/**
 * Seconds and metres of a customized CCH's kept arcs (CchMetric.up / .down), for searches that carry them along the
 * weights (CchTable), read by `read` (apart from the weights, which every relaxation reads, while few improve a
 * label). An arc's seconds and metres are those of the path it unpacks to (its link, or its two arcs through its
 * middle vertex, recursively, the first arc's plus the second's), so labels carried along these arcs measure the
 * very path CchQuery.route returns through the same arcs (added in another order: equal up to float rounding). Only
 * the arcs whose unpacking is long are stored (STORED_ABOVE): the others are added up when read, in the same order
 * of additions, so every value read is the same to the bit whether it was stored or not. ≈ 2.6 MB a metric on whole
 * HCMC (16 bytes per stored arc and a bit per kept arc), where storing every arc took 16.4.
 */
export class CchMeasures {
  /**
   * Driven up (lower → higher end). Replaced only by another engine's copy of the same bytes (Router.arrived), between
   * calls: tables read it afresh on each call.
   */
  up: ArcMeasures;
  /** Driven down (higher → lower end). As `up`. */
  down: ArcMeasures;
  /** The metres of the arc `read` last read (its seconds are what it returns). */
  len = 0;

  /**
   * Vertices ascending: the two arcs of a triangle have a lower end below the arc's, so they come first. Every arc's
   * measures are made in a scratch block, then the stored ones copied into one block of shared memory where the
   * platform has it (scratch.ts).
   * @param made the measures when another thread measured the same metric (exchange.ts; the caller checked them:
   *   measuresProblem): adopted as they are
   */
  constructor(
    private readonly m: CchMetric,
    made?: { up: ArcMeasures; down: ArcMeasures },
  ) {
    if (made) {
      ({ up: this.up, down: this.down } = made);
      return;
    }
    const nu = m.keptCount(true),
      nd = m.keptCount(false);
    const scratch = new Scratch(scratchBytes([2 * nu, 8], [2 * nd, 8], [nu, 1], [nd, 1]));
    const up = scratch.f64(2 * nu),
      down = scratch.f64(2 * nd);
    // Arcs each unpacking visits, up to 255.
    const sizeUp = scratch.u8(nu),
      sizeDown = scratch.u8(nd);
    const { upFirst, upHead } = m.topo;
    // Kept arcs by their indexes among the metric's (CchMetric.keptAt): k in a row's arcs is index first + k.
    for (let lo = 0; lo < m.topo.size; lo++) {
      const row = upFirst[lo]!;
      const U = m.arcsAt(true, lo),
        first = m.firstAt(true, lo);
      for (let k = rowStart(U, lo), end = rowStart(U, lo + 1); k < end; k++) {
        const hi = upHead[row + U.slot[k]!]!,
          mid = midOf(U, k, lo),
          i = first + k;
        // lo → mid → hi: the arc mid–lo down, then mid–hi up.
        if (mid === LINK) sizeUp[i] = this.link(lo, hi, up, i);
        else sizeUp[i] = sum(up, i, down, sizeDown, m.keptAt(false, mid, lo), up, sizeUp, m.keptAt(true, mid, hi));
      }
      const D = m.arcsAt(false, lo),
        firstDown = m.firstAt(false, lo);
      for (let k = rowStart(D, lo), end = rowStart(D, lo + 1); k < end; k++) {
        const hi = upHead[row + D.slot[k]!]!,
          mid = midOf(D, k, lo),
          i = firstDown + k;
        // hi → mid → lo: the arc mid–hi down, then mid–lo up.
        if (mid === LINK) sizeDown[i] = this.link(hi, lo, down, i);
        else sizeDown[i] = sum(down, i, down, sizeDown, m.keptAt(false, mid, hi), up, sizeUp, m.keptAt(true, mid, lo));
      }
    }
    const [storedUp, storedDown] = [sizeUp, sizeDown].map(storedBits);
    const block = new Scratch(
      scratchBytes(
        ...[storedUp!, storedDown!].flatMap(({ stored, count }): [number, number][] => [
          [stored.length, 4],
          [stored.length, 4],
          [2 * count, 8],
        ]),
      ),
      { shared: true },
    );
    this.up = storedMeasures(block, storedUp!, up);
    this.down = storedMeasures(block, storedDown!, down);
    scratch.release();
  }

  /** Bytes of the stored measures, both directions. */
  get byteLength(): number {
    return [this.up, this.down].reduce(
      (n, a) => n + a.stored.byteLength + a.storedRank.byteLength + a.values.byteLength,
      0,
    );
  }

  /**
   * Seconds of kept arc k (an index CchMetric.keptAt gives) driven up (`upward`) or down, between vertices lo and hi
   * (its lower and higher ends); its metres in `len`.
   */
  read(upward: boolean, k: number, lo: number, hi: number): number {
    const a = upward ? this.up : this.down;
    const w = k >> 5,
      bits = a.stored[w]!,
      bit = 1 << (k & 31);
    if (bits & bit) {
      const i = 2 * (a.storedRank[w]! + bitCount(bits & (bit - 1)));
      this.len = a.values[i + 1]!;
      return a.values[i]!;
    }
    const m = this.m,
      mid = m.midAt(upward, k, lo);
    if (mid === LINK) return upward ? this.linkRead(lo, hi) : this.linkRead(hi, lo);
    // As the constructor adds them: up lo → mid → hi, down hi → mid → lo; the arc down from mid first.
    const first = upward ? lo : hi,
      second = upward ? hi : lo;
    const d1 = this.read(false, m.keptAt(false, mid, first), mid, first),
      l1 = this.len;
    const d2 = this.read(true, m.keptAt(true, mid, second), mid, second);
    this.len = l1 + this.len;
    return d1 + d2;
  }

  /** Seconds and metres of the link from vertex `from` on to vertex `to` into out[2k], out[2k + 1]; returns 1. */
  private link(from: number, to: number, out: Float64Array, k: number): number {
    out[2 * k] = this.linkRead(from, to);
    out[2 * k + 1] = this.len;
    return 1;
  }

  /** Seconds of the link from vertex `from` on to vertex `to` (the turn from the tail's arc and the head's whole arc); its metres in `len`. */
  private linkRead(from: number, to: number): number {
    const m = this.m,
      c = m.costs,
      g = c.graph,
      stateOf = m.topo.stateOf;
    const a = m.states.arcOf(stateOf[from]!),
      b = m.states.arcOf(stateOf[to]!);
    this.len = g.edgeLen[b >> 1]!;
    return c.turnDur(a, b, arcTail(g, b)) + c.dur[b]!;
  }
}

/** Which arcs of one direction to store, by the arcs each unpacking visits (`size`): bits per 32 arcs and their count. */
function storedBits(size: Uint8Array): { stored: Uint32Array; count: number } {
  const stored = new Uint32Array(Math.ceil(size.length / 32));
  let count = 0;
  for (let k = 0; k < size.length; k++)
    if (size[k]! > STORED_ABOVE) {
      stored[k >> 5]! |= 1 << (k & 31);
      count++;
    }
  return { stored, count };
}

/** One direction's ArcMeasures in `block`: the arcs `stored` marks, their values copied from `all` (2 per arc). */
function storedMeasures(block: Scratch, { stored, count }: { stored: Uint32Array; count: number }, all: Float64Array) {
  const bits = block.u32(stored.length).fill(0),
    rank = block.u32(stored.length),
    values = block.f64(2 * count);
  bits.set(stored);
  let n = 0;
  for (let w = 0; w < stored.length; w++) {
    rank[w] = n;
    for (let x = stored[w]!; x !== 0; x &= x - 1) {
      const k = 32 * w + 31 - Math.clz32(x & -x);
      values[2 * n] = all[2 * k]!;
      values[2 * n + 1] = all[2 * k + 1]!;
      n++;
    }
  }
  return { stored: bits, storedRank: rank, values };
}

/**
 * Why `made` cannot be the measures of metric `m` (another thread's, offered for adoption: exchange.ts), or null when
 * it can: per direction a bit per kept arc, a count per word of bits, and two values per bit set.
 */
export function measuresProblem(m: CchMetric, made: { up: ArcMeasures; down: ArcMeasures }): string | null {
  const fits = (a: ArcMeasures, arcs: number) => {
    const words = Math.ceil(arcs / 32);
    if (!(a?.stored instanceof Uint32Array && a.storedRank instanceof Uint32Array && a.values instanceof Float64Array))
      return false;
    if (a.stored.length !== words || a.storedRank.length !== words) return false;
    let n = 0;
    for (let w = 0; w < words; w++) {
      if (a.storedRank[w] !== n) return false;
      n += bitCount(a.stored[w]!);
    }
    // No bit past the last arc.
    const past = arcs & 31 ? a.stored[words - 1]! >>> (arcs & 31) : 0;
    return past === 0 && a.values.length === 2 * n;
  };
  return fits(made.up, m.keptCount(true)) && fits(made.down, m.keptCount(false))
    ? null
    : 'not per direction a bit per kept arc, its counts and two Float64 values per bit set';
}

/**
 * out[2k], out[2k + 1] = the seconds and metres of m1[a], m1[a + 1] plus those of m2[b], m2[b + 1] (arcs a / 2 and
 * b / 2 of their directions, whose unpackings visit s1[a / 2] and s2[b / 2] arcs); returns the arcs arc k's unpacking
 * visits (at most 255).
 */
function sum(
  out: Float64Array,
  k: number,
  m1: Float64Array,
  s1: Uint8Array,
  a: number,
  m2: Float64Array,
  s2: Uint8Array,
  b: number,
): number {
  out[2 * k] = m1[2 * a]! + m2[2 * b]!;
  out[2 * k + 1] = m1[2 * a + 1]! + m2[2 * b + 1]!;
  return Math.min(255, 1 + s1[a]! + s2[b]!);
}
