import { beforeAll, describe, expect, it } from 'vitest';
import { contract, type Contracted } from '../data-tools/ch-build.js';
import { Pack } from '../src/pack/reader.js';
import { asciiMapPack } from './helpers/ascii-map.js';
import { vehicleGraphs } from './helpers/ch-check.js';
import { RESTRICTED_GRID } from './helpers/ch-maps.js';
import { contractReference } from './helpers/ch-reference.js';
import { testPack } from './helpers/packs.js';
import type { BaseGraph } from '../data-tools/ch-graph.js';

/** A copy of a base graph (the contraction may be handed the buffers of a graph it does not own). */
const copy = (g: BaseGraph): BaseGraph => ({
  states: g.states,
  first: g.first.slice(),
  head: g.head.slice(),
  weight: g.weight.slice(),
  payload: g.payload.slice(),
});

/** Every array of both hierarchies, byte for byte, and their core and landmarks. */
function expectSame(a: Contracted, b: Contracted): void {
  expect(a.core).toBe(b.core);
  expect(a.landmarks).toBe(b.landmarks);
  expect(Object.keys(a.ch).sort()).toEqual(Object.keys(b.ch).sort());
  for (const [name, arr] of Object.entries(b.ch) as [string, ArrayBufferView][]) {
    const other = (a.ch as unknown as Record<string, ArrayBufferView>)[name]!;
    const bytes = (x: ArrayBufferView) => Buffer.from(x.buffer, x.byteOffset, x.byteLength);
    expect(bytes(other).equals(bytes(arr)), name).toBe(true);
  }
}

/** The WebAssembly contraction against the TypeScript reference on one base graph. */
function compare(g: BaseGraph, coreSize?: number): Contracted {
  const wasm = contract(copy(g), { coreSize });
  expectSame(wasm, contractReference(copy(g), { coreSize }));
  return wasm;
}

/**
 * A seeded random graph built to stress the port: many equal weights (ties decided by heap order alone), parallel
 * edges, self-loops and Infinity weights to drop.
 */
function randomGraph(states: number, degree: number, seed: number): BaseGraph {
  let x = seed;
  const rnd = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const first = new Uint32Array(states + 1);
  const head: number[] = [],
    weight: number[] = [];
  for (let s = 0; s < states; s++) {
    const n = Math.floor(rnd() * 2 * degree);
    for (let k = 0; k < n; k++) {
      // Mostly near neighbours (a road-like graph), now and then a far one.
      const far = rnd() < 0.1;
      head.push(far ? Math.floor(rnd() * states) : Math.min(states - 1, Math.max(0, s + Math.floor(rnd() * 21) - 10)));
      const r = rnd();
      weight.push(r < 0.03 ? Infinity : r < 0.5 ? 10 : 1 + Math.floor(rnd() * 8) * 0.25);
    }
    first[s + 1] = head.length;
  }
  return {
    states,
    first,
    head: Uint32Array.from(head),
    weight: Float64Array.from(weight),
    payload: Int32Array.from(head, (_, i) => i),
  };
}

describe('the WebAssembly contraction gives the same hierarchy as the TypeScript reference, array for array', () => {
  let hanoi: BaseGraph[];
  // Building the Hanoi pack (when the cache is cold) is setup, under the hook's longer timeout.
  beforeAll(() => {
    hanoi = vehicleGraphs(Pack.from(testPack('hanoi', { hierarchies: true })));
  });

  it('Hanoi, car, bike and truck: fully contracted and with a forced core of 1,000 states', () => {
    for (const g of hanoi) {
      expect(g.states).toBeGreaterThan(10_000);
      expect(compare(g).core).toBe(0);
      const cored = compare(g, 1000);
      expect(cored.core).toBe(1000);
      expect(cored.landmarks).toBe(16);
    }
  });

  it('an ASCII map with turn restrictions, cores of 0, 2, half and all of the states', () => {
    const [g] = vehicleGraphs(asciiMapPack(RESTRICTED_GRID).pack);
    for (const coreSize of [0, 2, Math.floor(g!.states / 2), g!.states])
      expect(compare(g!, coreSize).core).toBe(coreSize);
  });

  it('seeded random graphs full of ties, parallel edges, self-loops and dropped edges', () => {
    for (const seed of [1, 2, 3]) {
      const g = randomGraph(3000, 3, seed);
      compare(g);
      compare(g, 300);
    }
  });
});
