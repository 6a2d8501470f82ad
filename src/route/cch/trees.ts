import { grown } from '../../grown.js';

/**
 * The searches of one CchTable call, kept so that the route of any of its pairs can be unpacked afterwards without
 * searching again (CchQuery.routeIn): each origin's forward and each destination's backward elimination-tree walk
 * (its vertices ascending, and per vertex the vertex its label came from, or -1 - arc at a seed), and per pair the
 * vertex where its best route meets. About 8 bytes per walked vertex (≈ 300 per walk on whole HCMC) and 4 per pair.
 *
 * The buffers are kept for the next table (`reset`): a 100-stop trip's walks take ≈ 4 × 180 KB, and a fresh typed
 * array that size costs a backing store and, counted as external memory, pushes V8 towards a collection (about 1 ms
 * a trip on whole HCMC). `table` counts the tables they held, so a reader of an earlier one can tell it is gone.
 */
export class TableTrees {
  /** Forward walks: origin i's vertices are fList[fStart[i] .. fStart[i + 1] - 1], their parents at the same index. */
  fList = new Uint32Array(1024);
  fPar = new Int32Array(1024);
  fStart = new Uint32Array(0);
  /** Backward walks of the destinations, likewise. */
  bList = new Uint32Array(1024);
  bPar = new Int32Array(1024);
  bStart = new Uint32Array(0);
  /**
   * Per pair (origin i, destination j at i * destinations + j): the lowest vertex through which its best route
   * meets, or -1 when no route through a vertex beats the direct one on a shared edge (or there is no route).
   */
  meet = new Int32Array(0);
  /** The current table's destinations and origins. */
  destinations = 0;
  private origins = 0;
  /** Tables held so far, the current one included. */
  table = 0;

  /** @param origins, destinations: the first table's sizes */
  constructor(origins: number, destinations: number) {
    this.reset(origins, destinations);
  }

  /**
   * Makes the trees ready for a table of these sizes (the walks of the one before dropped); returns its count
   * (`table`).
   */
  reset(origins: number, destinations: number): number {
    if (this.fStart.length < origins + 1) this.fStart = new Uint32Array(origins + 1);
    if (this.bStart.length < destinations + 1) this.bStart = new Uint32Array(destinations + 1);
    const cells = origins * destinations;
    if (this.meet.length < cells) this.meet = new Int32Array(cells);
    this.meet.fill(-1, 0, cells);
    this.fStart[0] = 0;
    this.bStart[0] = 0;
    this.origins = origins;
    this.destinations = destinations;
    return ++this.table;
  }

  /**
   * Keeps walk `k` of one side: `count` vertices of `list` (ascending) and each one's parent in `par` (indexed by
   * vertex). Walks of a side are kept in order, 0 first.
   */
  keep(forward: boolean, k: number, list: Uint32Array, count: number, par: Int32Array): void {
    const start = forward ? this.fStart : this.bStart;
    const at = start[k]!;
    if (at + count > (forward ? this.fList : this.bList).length) {
      // Room for the side's remaining walks at the mean length so far, with a quarter to spare: one or two copies
      // for the whole table rather than one per doubling.
      const walks = forward ? this.origins : this.destinations;
      const size = Math.ceil((((at + count) / (k + 1)) * walks * 5) / 4);
      if (forward) [this.fList, this.fPar] = [grown(this.fList, size), grown(this.fPar, size)];
      else [this.bList, this.bPar] = [grown(this.bList, size), grown(this.bPar, size)];
    }
    const to = forward ? this.fList : this.bList,
      toPar = forward ? this.fPar : this.bPar;
    for (let q = 0; q < count; q++) {
      const v = list[q]!;
      to[at + q] = v;
      toPar[at + q] = par[v]!;
    }
    start[k + 1] = at + count;
  }
}
