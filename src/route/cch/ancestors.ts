import { grown } from '../../grown.js';

/**
 * The ancestors of a few vertices in a CCH's elimination tree (the vertices an elimination-tree search visits),
 * listed ascending into a buffer reused by every walk: 4 bytes per vertex for the marks, and the list and the run
 * merged in grown to the longest walk (a few thousand vertices, where a vertex-sized list would take 4 bytes per
 * vertex each).
 */
export class Ancestors {
  /** The last walk's vertices, ascending, in list[0 .. count - 1] (a longer walk replaces the array). */
  list = new Uint32Array(1024);
  count = 0;
  /** Per vertex: the walk that last listed it (0: none); laid by `relay` before the first walk. */
  private mark: Uint32Array = new Uint32Array(0);
  private stamp = 0;
  /** A run being merged in. */
  private run = new Uint32Array(1024);

  /** @param parent per vertex its parent in the elimination tree, -1 at a root (CchTopology.parent) */
  constructor(private readonly parent: Int32Array) {}

  /** Keeps the marks in `mark` from now on (4 bytes per vertex, all 0: no walk listed anything there). */
  relay(mark: Uint32Array): void {
    this.mark = mark;
    this.stamp = 0;
  }

  /** The marks `relay` laid (for a search that walks on them itself: the WebAssembly one, with `stamps`). */
  get marks(): Uint32Array {
    return this.mark;
  }

  /**
   * Stamps for `walks` walks another searcher makes on the marks (cch-search.ts), the first of them returned: the
   * walks here go on after them, so no two walks share a stamp.
   */
  stamps(walks: number): number {
    const first = this.stamp + 1;
    this.stamp += walks;
    return first;
  }

  /** Lists the vertices seeds[0 .. n - 1] and all their ancestors, each once, ascending; returns their count. */
  walk(seeds: ArrayLike<number>, n: number): number {
    const parent = this.parent,
      mark = this.mark;
    let list = this.list;
    const stamp = ++this.stamp;
    let count = 0;
    for (let k = 0; k < n; k++) {
      // A seed's path up the tree ascends; the part not listed yet ends below a listed vertex (or at a root).
      const from = count;
      for (let v = seeds[k]!; v >= 0 && mark[v] !== stamp; v = parent[v]!) {
        mark[v] = stamp;
        if (count === list.length) list = this.list = grown(list, count + 1);
        list[count++] = v;
      }
      if (from > 0 && count > from && list[from]! < list[from - 1]!) this.merge(from, count);
    }
    return (this.count = count);
  }

  /** Merges the ascending runs list[0 .. mid - 1] and list[mid .. end - 1] in place, from the top down. */
  private merge(mid: number, end: number): void {
    const list = this.list;
    const m = end - mid;
    if (this.run.length < m) this.run = grown(this.run, m);
    const run = this.run;
    for (let k = 0; k < m; k++) run[k] = list[mid + k]!;
    let i = mid - 1,
      j = m - 1;
    for (let at = end - 1; j >= 0; at--) list[at] = i >= 0 && list[i]! > run[j]! ? list[i--]! : run[j--]!;
  }
}
