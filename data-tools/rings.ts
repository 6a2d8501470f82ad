/**
 * Joins way node lists into closed rings (multipolygon assembly): ways are chained end to end in any order and
 * direction, reversing where needed. Input and output are lists of node ids.
 *
 * Invariant: when every node of the pieces has an even number of piece ends (every ring closable), a walk that
 * always leaves a node by an unused piece ends where it started, so touching rings (a node shared by four piece
 * ends) still close; they may come out as one figure-of-eight ring, which fills the same area under either rule.
 * @returns the rings (first node repeated last), or null when some piece cannot be closed into a ring (a member
 *   missing from the extract, a gap in the data): such a multipolygon is broken and must not be drawn
 */
export function assembleRings(ways: readonly (readonly number[])[]): number[][] | null {
  const rings: number[][] = [];
  const open: (readonly number[])[] = [];
  for (const w of ways) {
    if (w.length < 2) continue;
    if (w[0] === w[w.length - 1]) {
      if (w.length >= 4) rings.push([...w]);
    } else open.push(w);
  }
  // Pieces by end node: each open piece is listed under both of its end nodes.
  const byEnd = new Map<number, number[]>();
  const list = (node: number, i: number): void => {
    const at = byEnd.get(node);
    if (at) at.push(i);
    else byEnd.set(node, [i]);
  };
  open.forEach((w, i) => {
    list(w[0]!, i);
    list(w[w.length - 1]!, i);
  });
  const used = new Uint8Array(open.length);
  for (let start = 0; start < open.length; start++) {
    if (used[start]) continue;
    used[start] = 1;
    const ring = [...open[start]!];
    const first = ring[0]!;
    while (ring[ring.length - 1] !== first) {
      const end = ring[ring.length - 1]!;
      const next = byEnd.get(end)?.find((i) => !used[i]);
      if (next === undefined) return null;
      used[next] = 1;
      const w = open[next]!;
      if (w[0] === end) for (let k = 1; k < w.length; k++) ring.push(w[k]!);
      else for (let k = w.length - 2; k >= 0; k--) ring.push(w[k]!);
    }
    if (ring.length >= 4) rings.push(ring);
  }
  return rings;
}

/** Signed area of a ring in its own planar units (shoelace); positive when counter-clockwise. */
export function ringArea(xs: ArrayLike<number>, ys: ArrayLike<number>): number {
  let a = 0;
  for (let i = 0, j = xs.length - 1; i < xs.length; j = i++) a += (xs[j]! - xs[i]!) * (ys[j]! + ys[i]!);
  return a / 2;
}
