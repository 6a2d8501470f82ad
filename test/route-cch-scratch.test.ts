import { describe, expect, it } from 'vitest';
import { MAPPED_FLOOR, Scratch, scratchBytes } from '../src/route/cch/scratch.js';

/** Lets the event loop turn twice: a released block's timer fires, then the dropped message frees it. */
const turn = () => new Promise((r) => setTimeout(r, 5)).then(() => new Promise((r) => setImmediate(r)));

describe('Scratch blocks', () => {
  it('carves zeroed, disjoint views up to its bound and throws past it', () => {
    const s = new Scratch(scratchBytes([3, 8], [5, 4], [3, 1]));
    const a = s.f64(3);
    const b = s.u32(5);
    const c = s.u8(3);
    expect([...a, ...b, ...c].every((x) => x === 0)).toBe(true);
    a.fill(1);
    b.fill(2);
    c.fill(3);
    expect([...a]).toEqual([1, 1, 1]);
    expect([...b]).toEqual([2, 2, 2, 2, 2]);
    expect(() => s.u8(1)).toThrow(RangeError);
    s.release();
  });

  it('hands a released block to the next scratch zeroed, and frees it once the event loop turns', async () => {
    const first = new Scratch(scratchBytes([1000, 8]));
    const old = first.f64(1000).fill(7);
    first.release();
    // Reused within the same turn: the same memory, every written byte zero again.
    const second = new Scratch(scratchBytes([500, 8], [1000, 4]));
    const x = second.f64(500);
    const y = second.u32(1000);
    expect(x.buffer === old.buffer).toBe(true);
    expect(x.every((v) => v === 0) && y.every((v) => v === 0)).toBe(true);
    // Its bound is what it asked for, not the reused block's size.
    expect(() => second.u8(8)).toThrow(RangeError);
    second.release();
    await turn();
    expect(old.length).toBe(0);
    expect(new Scratch(8).f64(1).buffer === old.buffer).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'makes every ArrayBuffer block larger than 32 MiB on Linux (glibc maps it apart) and carves only the bound',
    () => {
      const s = new Scratch(64);
      const v = s.u8(64);
      expect(v.buffer.byteLength).toBeGreaterThan(32 * 2 ** 20);
      expect(() => s.u8(1)).toThrow(RangeError);
      s.release();
    },
  );

  it('carves each array from a released block with room for it, else from a block of its own', async () => {
    const MB = 2 ** 20;
    const a = new Scratch(64);
    const va = a.u8(64).fill(1);
    const b = new Scratch(64);
    const vb = b.u8(64).fill(2);
    a.release();
    b.release();
    // Both released blocks are 32 MiB and more: a 40 MB array fits in neither, the small ones take one over.
    const s = new Scratch(scratchBytes([64, 1], [40 * MB, 1], [64, 1]));
    const y = s.u8(64);
    const x = s.u8(40 * MB);
    const z = s.u8(64);
    // Compared as booleans: a failing toBe would print whole buffers.
    expect(y.buffer === va.buffer || y.buffer === vb.buffer).toBe(true);
    expect(x.buffer !== va.buffer && x.buffer !== vb.buffer).toBe(true);
    expect(z.buffer === y.buffer).toBe(true);
    expect(y.every((v) => v === 0) && z.every((v) => v === 0)).toBe(true);
    s.release();
    // Two arrays that do not fit in one released block together each take one (a customization after the CCH's
    // build: its state graph's and its topology's working blocks).
    const t = new Scratch(scratchBytes([20 * MB, 1], [20 * MB, 1]));
    const p = t.u8(20 * MB),
      q = t.u8(20 * MB);
    expect(p.buffer !== q.buffer && [p.buffer, q.buffer].every((x) => x.byteLength < 40 * MB)).toBe(true);
    t.release();
    await turn();
    expect([va, vb, x, p, q].every((v) => v.length === 0)).toBe(true);
  });

  it('leaves shared blocks alone, and gives a shared scratch no released block', async () => {
    const plain = new Scratch(64);
    const pv = plain.u8(64);
    plain.release();
    const shared = new Scratch(64, { shared: true });
    const sv = shared.u8(64).fill(5);
    expect(sv.buffer === pv.buffer).toBe(false);
    shared.release();
    await turn();
    expect(sv.length).toBe(64);
    expect(sv.buffer.byteLength).toBe(64);
    expect(new Scratch(64, { shared: true }).u8(64).buffer === sv.buffer).toBe(false);
  });

  it('gives a big block of a shrinking scratch back at release, and a small one to the next scratch as usual', () => {
    // 256 MiB (SHRINK_FROM) of address space: only the pages written are committed.
    const big = new Scratch(256 * 1024 * 1024, { shrink: true });
    const bv = big.u8(1024).fill(9);
    big.release();
    // Its memory is gone within this turn of the event loop, and no later scratch is handed it.
    expect(bv.length).toBe(0);
    expect(bv.buffer.byteLength).toBe(0);
    expect(new Scratch(64).u8(64).buffer === bv.buffer).toBe(false);
    const small = new Scratch(64, { shrink: true });
    const v = small.u8(64);
    small.release();
    expect(new Scratch(64).u8(64).buffer === v.buffer).toBe(true);
  });

  it('cuts its resizable block at a byte, keeping the views before it, and leaves other blocks whole', async () => {
    await turn();
    const s = new Scratch(4096, { shrink: 0 });
    const a = s.u32(256).fill(7),
      b = s.f64(128).fill(1.5);
    const [aAt, bAt] = [a.byteOffset, b.byteOffset];
    s.cut(b.buffer, bAt + 512);
    expect(b.buffer.byteLength).toBe(bAt + 512);
    expect(b.length).toBe(0); // reaching past the end: reads as empty
    expect(new Float64Array(b.buffer, bAt, 64).every((x) => x === 1.5)).toBe(true);
    expect(a.every((x) => x === 7)).toBe(true);
    s.cut(a.buffer, aAt);
    expect(a.buffer.byteLength).toBe(aAt);
    // Another buffer, or past the block's end: nothing.
    const plain = new Scratch(64).u8(64);
    s.cut(plain.buffer, 0);
    expect(plain.buffer.byteLength).toBe(Math.max(64, MAPPED_FLOOR));
    s.release();
  });
});
