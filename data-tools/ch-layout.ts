import type { ChArrays } from '../src/route/ch.js';
import type { RecordArrays } from './ch-graph.js';

/**
 * Lays a contraction's records out as the query reads them ("CH layout v5", src/route/ch.ts): the states from the
 * highest rank down (position p = S − 1 − rank), each with its upward records (stored at the tail, rank going up)
 * then its downward records (stored at the head), `first` giving the 2S + 1 range bounds. Within a state's range
 * the records keep the contraction's order (ascending record index; a core state's downward copies after its own
 * downward records), the order the searches relax them in, so ties break as in the previous layout. A record
 * between two core states (rank ≥ S − core) is stored twice, upward at its tail and downward at its head: a core
 * state's upward records are its core out-edges and its downward records its core in-edges. The second copy is
 * never a shortcut's child (children always touch the contracted state they bypass).
 *
 * Invariant the load relies on: both children of a shortcut are records of the state it bypasses, whose rank is
 * below both of the shortcut's ends, so every child lies in a later range than its parent (a[i] > i, b[i] > i): one
 * backward pass over the records derives weights children first, and the WebAssembly core uses the records as they
 * are, without renumbering or renaming.
 */
export function layoutRecords(S: number, R: RecordArrays, rank: Uint32Array, core: number): ChArrays {
  const n = R.n;
  const top = S - core;
  // 0: downward (stored at the head), 1: upward (stored at the tail), 2: both (an edge between two core states).
  const kind = new Uint8Array(n);
  // Records per range: range 2p holds the upward records of the state at position p, 2p + 1 its downward ones.
  const first = new Uint32Array(2 * S + 1);
  const up = (v: number) => 2 * (S - 1 - rank[v]!);
  for (let r = 0; r < n; r++) {
    const t = R.tail[r]!,
      h = R.head[r]!;
    if (rank[t]! >= top && rank[h]! >= top) {
      kind[r] = 2;
      first[up(t) + 1]!++;
      first[up(h) + 2]!++;
    } else if (rank[h]! > rank[t]!) {
      kind[r] = 1;
      first[up(t) + 1]!++;
    } else first[up(h) + 2]!++;
  }
  for (let k = 0; k < 2 * S; k++) first[k + 1]! += first[k]!;
  const total = first[2 * S]!;
  const fill = first.slice(0, 2 * S);
  const idx = new Int32Array(n);
  for (let r = 0; r < n; r++) idx[r] = kind[r] ? fill[up(R.tail[r]!)]!++ : fill[up(R.head[r]!) + 1]!++;
  const node = new Uint32Array(total),
    a = new Int32Array(total),
    b = new Int32Array(total);
  const put = (i: number, r: number, other: number) => {
    node[i] = other;
    const sc = R.a[r]! >= 0;
    a[i] = sc ? idx[R.a[r]!]! : -1;
    b[i] = sc ? idx[R.b[r]!]! : R.b[r]!;
  };
  for (let r = 0; r < n; r++) {
    put(idx[r]!, r, kind[r] ? R.head[r]! : R.tail[r]!);
    if (kind[r] === 2) put(fill[up(R.head[r]!) + 1]!++, r, R.tail[r]!);
  }
  return { rank, first, node, a, b };
}
