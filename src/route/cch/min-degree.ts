import type { StateTopology } from './state-graph.js';

/**
 * The states of a small part of a nested dissection in minimum-degree elimination order (the bottom of the
 * dissection, order.ts): repeatedly the state with the fewest neighbours left in the elimination graph goes next,
 * and its neighbours become one another's (the shortcuts its contraction adds). Neighbours outside `part` rank
 * above it all (the separators around the part), so they count in every degree and take fill but are never
 * eliminated here. Below a few dozen nodes this makes fewer shortcuts than cutting further: cuts of tiny parts
 * are as large as the parts' halves (whole HCMC: 12 % fewer topology arcs than cutting down to two nodes).
 * Ties go to the state listed first, so the order is deterministic. Quadratic in the part's size: meant for parts
 * of at most a few hundred states.
 * @param part the part's states, each once
 * @param t the state graph
 * @param local scratch, one entry per state, all -1 (left so)
 * @returns the same states, lowest rank first
 */
export function minDegreeOrder(part: readonly number[], t: StateTopology, local: Int32Array): number[] {
  const k = part.length;
  if (k <= 2) return [...part];
  // Local numbers: the part's states 0 .. k - 1, then the outside neighbours as they are met.
  const met: number[] = [...part];
  part.forEach((x, i) => (local[x] = i));
  const links: number[] = [];
  for (let i = 0; i < k; i++) {
    const x = part[i]!;
    for (let j = t.first[x]!; j < t.first[x + 1]!; j++) {
      const y = t.adj[j]!;
      let id = local[y]!;
      if (id < 0) {
        id = local[y] = met.length;
        met.push(y);
      }
      links.push(i, id);
    }
  }
  for (const x of met) local[x] = -1;
  // Only the part's states are eliminated, so only their rows are kept: a row of bits over every local number. An
  // outside neighbour's own neighbours never matter (it is never eliminated, so never joins its neighbours).
  const words = (met.length + 31) >>> 5;
  const nb = new Int32Array(k * words);
  const set = (a: number, b: number) => {
    if (a < k) nb[a * words + (b >>> 5)]! |= 1 << (b & 31);
  };
  for (let l = 0; l < links.length; l += 2) {
    set(links[l]!, links[l + 1]!);
    set(links[l + 1]!, links[l]!);
  }
  const degree = new Int32Array(k);
  const count = (i: number) => {
    let n = 0;
    for (let w = i * words; w < (i + 1) * words; w++) n += popcount(nb[w]!);
    degree[i] = n;
  };
  for (let i = 0; i < k; i++) count(i);
  const done = new Uint8Array(k);
  const out: number[] = [];
  for (let step = 0; step < k; step++) {
    let v = -1;
    for (let i = 0; i < k; i++) if (!done[i] && (v < 0 || degree[i]! < degree[v]!)) v = i;
    done[v] = 1;
    out.push(part[v]!);
    // Each neighbour a of v loses v and gains v's other neighbours (the fill of v's contraction).
    const row = v * words;
    for (let w = 0; w < words; w++)
      for (let bits = nb[row + w]!; bits !== 0; bits &= bits - 1) {
        const a = (w << 5) | (31 - Math.clz32(bits & -bits));
        if (a >= k) continue;
        const ra = a * words;
        for (let x = 0; x < words; x++) nb[ra + x]! |= nb[row + x]!;
        nb[ra + (a >>> 5)]! &= ~(1 << (a & 31));
        nb[ra + (v >>> 5)]! &= ~(1 << (v & 31));
        count(a);
      }
  }
  return out;
}

/** Set bits of a 32-bit word. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
