import { MAPPED_FLOOR, scratchBytes } from './cch/scratch.js';

/** Zero-length arrays: a holder's views while another holder has the memory. */
export const EMPTY_F64: Float64Array = new Float64Array(0);
export const EMPTY_I32: Int32Array = new Int32Array(0);
export const EMPTY_U32: Uint32Array = new Uint32Array(0);

/** What holds a LabelMemory: told when another holder takes it, so that it lets go of its views. */
export interface LabelHolder {
  /** Lets go of the views laid in the memory (another holder now writes there). */
  drop(): void;
}

/**
 * One block of memory for the per-vertex (per-state) labels of searches that never run at once: a router's CCH
 * queries, CCH tables and TypeScript searches (alternatives) each held their own (≈ 4, 7 and 11 MB on whole HCMC),
 * though a router answers one call at a time and each of them reads its labels only within its own call. A holder
 * takes the block at the start of each search (`take`); when the last holder was another one, that one is told to
 * drop its views, and the new holder lays its arrays anew and resets what its searches read before writing (their
 * generation marks), since the block holds the other's labels. So the router holds the largest holder's labels
 * (≈ 11 MB on whole HCMC) instead of the three. Its pages past what a holder writes are never touched (they cost
 * address space, not memory).
 */
export class LabelMemory {
  private buffer = new ArrayBuffer(0);
  private holder: LabelHolder | null = null;

  /** True when `holder` took the block last (its views are still its own). */
  heldBy(holder: LabelHolder): boolean {
    return this.holder === holder;
  }

  /**
   * The block, at least `bytes` long (a larger one made when it is shorter: views of the old one are then stale),
   * for `holder`; the previous holder, when another, drops its views first.
   */
  take(holder: LabelHolder, bytes: number): ArrayBuffer {
    if (this.holder !== holder) {
      this.holder?.drop();
      this.holder = holder;
    }
    // At least MAPPED_FLOOR: a block outgrown and freed leaves malloc's thresholds alone (scratch.ts), and its pages
    // past the largest holder's labels are never touched.
    if (this.buffer.byteLength < bytes) this.buffer = new ArrayBuffer(Math.max(bytes, MAPPED_FLOOR));
    return this.buffer;
  }
}

/** Typed arrays laid one after another in a buffer (a LabelMemory's), each at a multiple of 8 bytes. */
export class Carver {
  private at = 0;

  constructor(private readonly buffer: ArrayBuffer) {}

  /** Bytes that `f64` arrays of 8-byte and `x32` arrays of 4-byte elements, `count` each, take in a buffer. */
  static bytes(count: number, f64: number, x32: number): number {
    return f64 * scratchBytes([count, 8]) + x32 * scratchBytes([count, 4]);
  }

  f64(count: number): Float64Array {
    const a = new Float64Array(this.buffer, this.at, count);
    this.at += scratchBytes([count, 8]);
    return a;
  }

  i32(count: number): Int32Array {
    const a = new Int32Array(this.buffer, this.at, count);
    this.at += scratchBytes([count, 4]);
    return a;
  }

  u32(count: number): Uint32Array {
    const a = new Uint32Array(this.buffer, this.at, count);
    this.at += scratchBytes([count, 4]);
    return a;
  }
}
