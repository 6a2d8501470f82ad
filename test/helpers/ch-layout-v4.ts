import type { ChArraysV4 } from '../../src/route/ch-v4.js';
import type { RecordArrays } from '../../data-tools/ch-graph.js';

/**
 * The builder's layout before CH layout v5, kept to write old-version hierarchies for the tests: records in state
 * order, the upward ranges of all states (stored at the tail) before the downward ones (stored at the head); a
 * record between two core states stored in both.
 */
export function layoutV4(S: number, R: RecordArrays, rank: Uint32Array, core: number): ChArraysV4 {
  const n = R.n;
  const isUp = new Uint8Array(n);
  const upFirst = new Uint32Array(S + 1);
  const dnFirst = new Uint32Array(S + 1);
  const top = S - core;
  for (let r = 0; r < n; r++) {
    const t = R.tail[r]!,
      h = R.head[r]!;
    if (rank[t]! >= top && rank[h]! >= top) {
      isUp[r] = 2;
      upFirst[t + 1]!++;
      dnFirst[h + 1]!++;
    } else if (rank[h]! > rank[t]!) {
      isUp[r] = 1;
      upFirst[t + 1]!++;
    } else dnFirst[h + 1]!++;
  }
  const U = upFirst.reduce((s, x) => s + x, 0);
  dnFirst[0] = U;
  for (let v = 0; v < S; v++) {
    upFirst[v + 1]! += upFirst[v]!;
    dnFirst[v + 1]! += dnFirst[v]!;
  }
  const idx = new Int32Array(n);
  const fu = upFirst.slice(0, S),
    fd = dnFirst.slice(0, S);
  for (let r = 0; r < n; r++) idx[r] = isUp[r] ? fu[R.tail[r]!]!++ : fd[R.head[r]!]!++;
  const total = dnFirst[S]!;
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
    put(idx[r]!, r, isUp[r] ? R.head[r]! : R.tail[r]!);
    if (isUp[r] === 2) put(fd[R.head[r]!]!++, r, R.tail[r]!);
  }
  return { rank, upFirst, dnFirst, node, a, b };
}
