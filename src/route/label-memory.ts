import { MAPPED_FLOOR, scratchBytes } from './cch/scratch.js';
import type { CchArena } from './wasm/cch-arena.js';

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
  private buffer: ArrayBuffer | SharedArrayBuffer = new ArrayBuffer(0);
  /** Where the block starts in `buffer`, and its bytes. */
  private at = 0;
  private bytes = 0;
  private holder: LabelHolder | null = null;
  /** The arena blocks are laid in from `place` on, else null; whether the block lies there; its least bytes. */
  private arena: CchArena | null = null;
  private placed = false;
  private reserve = 0;

  /** True when `holder` took the block last (its views are still its own). */
  heldBy(holder: LabelHolder): boolean {
    return this.holder === holder;
  }

  /**
   * Lays the block in `arena` from now on (cch-arena.ts: a router's WebAssembly search then reads and writes the
   * labels where the TypeScript side does); the holder lets go of its views, so that the next `take` lays them there.
   * A block there is at least `reserve` bytes (what the largest holder will ask): an arena cannot give pages back, so
   * a block outgrown there would stay resident, while pages of the reserve never written are never committed.
   * Where the arena has no room for a block, it is an ArrayBuffer as before.
   */
  place(arena: CchArena, reserve: number): void {
    this.holder?.drop();
    this.holder = null;
    this.arena = arena;
    this.reserve = reserve;
    this.bytes = 0;
  }

  /** True when the block lies in the arena `place` gave (or will, at the next `take`, while the arena has room). */
  get inArena(): boolean {
    return this.placed || (this.arena !== null && this.bytes === 0);
  }

  /**
   * The block, at least `bytes` long (a larger one made when it is shorter: views of the old one are then stale),
   * for `holder`, to carve its arrays from; the previous holder, when another, drops its views first.
   */
  take(holder: LabelHolder, bytes: number): Carver {
    if (this.holder !== holder) {
      this.holder?.drop();
      this.holder = holder;
    }
    if (this.bytes < bytes) this.lay(bytes);
    return new Carver(this.buffer, this.at);
  }

  /** Makes a block of at least `bytes` bytes, giving the old one back to the arena when it lay there. */
  private lay(bytes: number): void {
    const arena = this.arena;
    if (arena && this.placed) arena.free(this.at, this.bytes);
    const block = arena?.alloc((bytes = Math.max(bytes, this.reserve)));
    this.placed = !!block;
    if (block) ({ buffer: this.buffer, at: this.at } = block);
    // At least MAPPED_FLOOR: a block outgrown and freed leaves malloc's thresholds alone (scratch.ts), and its pages
    // past the largest holder's labels are never touched.
    else ((this.buffer = new ArrayBuffer(Math.max(bytes, MAPPED_FLOOR))), (this.at = 0));
    this.bytes = block ? bytes : this.buffer.byteLength;
  }
}

/** Typed arrays laid one after another in a buffer (a LabelMemory's), each at a multiple of 8 bytes. */
export class Carver {
  /**
   * @param buffer where the arrays lie
   * @param at where the first starts (a multiple of 8)
   */
  constructor(
    private readonly buffer: ArrayBuffer | SharedArrayBuffer,
    private at = 0,
  ) {}

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
