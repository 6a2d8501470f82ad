import { haversine } from '../geo.js';
import { DEFAULT_LIMITS } from '../limits.js';
import { encodeSnapGrid, SnapGridReader, type SnapGrid } from './snap-grid.js';
import type { RoadGraph } from './graph.js';
import type { Endpoint } from './search.js';

/** A point snapped onto an edge. */
export interface Snap extends Endpoint {
  /** Edge the point lies on. */
  edge: number;
  /** Fraction of the edge's length from its first node to the snapped point, 0..1. */
  t: number;
  /** Snapped point, degrees. */
  lat: number;
  lon: number;
  /** Distance from the query point to the snapped point, metres. */
  dist: number;
  /**
   * Set when this snap was moved to a big component (see Router.snap): the nearest point on any road the vehicle
   * may drive, which lies in a small component. Router.ends (and snapLeg, snapTable) route a pair of snaps whose
   * `local` points lie in the same small component between those points instead; leg and table ignore it.
   */
  local?: Snap;
}

/**
 * An endpoint as an object of one fixed shape, every field present and in this order: snaps, their moves to a big
 * component, a source held to one arc and an alternative's via points are all made here, so the routing code that
 * reads them meets one V8 map (a new map deoptimizes it, and compiling it again costs tens of milliseconds of CPU on
 * whole HCMC). `dist` is 0 for a point that snaps no query point; `local` and `only` as in Snap and Endpoint.
 */
export function snapPoint(
  edge: number,
  t: number,
  lat: number,
  lon: number,
  dist: number,
  local: Snap | undefined,
  only: number | undefined,
): Snap {
  return { edge, t, lat, lon, dist, local, only };
}

/** The layout of a SnapIndex grid: cell size (metres), columns, rows, and the segments it lists. */
export interface SnapGridLayout {
  cell: number;
  nx: number;
  ny: number;
  segments: number;
}

/**
 * Static uniform-grid index over the edge segments of a road graph (each segment listed in every cell its bounding
 * box touches), queried ring by ring around the cell of the point until no unvisited cell can hold a nearer segment.
 * Projection: local equirectangular around the graph's centre latitude, in metres.
 */
export class SnapIndex {
  private readonly kx: number;
  private readonly ky: number;
  private readonly x0: number;
  private readonly y0: number;
  private readonly cell: number;
  private readonly nx: number;
  private readonly ny: number;
  /** Per cell the segments whose bounding box touches it (snap-grid.ts). */
  private readonly cells: SnapGrid;
  private readonly reader = new SnapGridReader();
  /**
   * Per segment: its edge. Segments are numbered edge by edge, so edge e's first segment is e + edgeShape.at(e) and a
   * segment's end points follow from its edge (segA, segB): nothing else is kept per segment or per point, which
   * spares the first snap on a pack with a stored grid a pass that would fill five more arrays of that size.
   */
  private readonly segEdge: Uint32Array;
  /** Nodes in the graph: point ids below it are nodes, from it on shape points (see segA). */
  private readonly nodes: number;

  /**
   * @param stored the pack's stored grid for this layout (stored-snap.ts), or null to build it: given the layout the
   *   graph asks for, it returns the grid (checked to fit) or null when the pack has none for that layout
   */
  constructor(
    readonly graph: RoadGraph,
    stored: ((layout: SnapGridLayout) => SnapGrid | null) | null = null,
  ) {
    const g = graph;
    const N = g.nodeCount;
    let minLat = Infinity,
      maxLat = -Infinity,
      minLon = Infinity,
      maxLon = -Infinity;
    for (let v = 0; v < N; v++) {
      minLat = Math.min(minLat, g.nodeLat[v]!);
      maxLat = Math.max(maxLat, g.nodeLat[v]!);
      minLon = Math.min(minLon, g.nodeLon[v]!);
      maxLon = Math.max(maxLon, g.nodeLon[v]!);
    }
    if (N === 0) minLat = maxLat = minLon = maxLon = 0;
    const midLat = (minLat + maxLat) / 2e7;
    this.ky = (6371008.8 * Math.PI) / 180 / 1e7;
    this.kx = this.ky * Math.cos((midLat * Math.PI) / 180);
    this.x0 = minLon * this.kx;
    this.y0 = minLat * this.ky;
    const E = g.edgeCount;
    const segCount = E + g.shapeLat.length;
    const w = (maxLon - minLon) * this.kx;
    const h = (maxLat - minLat) * this.ky;
    // About two segments per cell, never more than ~4M cells.
    this.cell = Math.max(20, Math.sqrt((w * h) / Math.max(1, segCount / 2)), Math.sqrt((w * h) / 4e6));
    this.nx = Math.max(1, Math.ceil(w / this.cell) + 1);
    this.ny = Math.max(1, Math.ceil(h / this.cell) + 1);
    this.segEdge = new Uint32Array(segCount);
    this.nodes = N;
    const grid = stored?.(this.layout) ?? null;
    const shape = g.edgeShape;
    // The only pass over the segments when the pack stores the grid: each edge's run of segments (one more than its
    // shape points) names the edge.
    for (let e = 0, s = 0; e < E; e++) {
      const n = shape.at(e + 1) - shape.at(e) + 1;
      this.segEdge.fill(e, s, s + n);
      s += n;
    }
    this.cells = grid ?? encodeSnapGrid(this.nx * this.ny, segCount, (k, add) => this.forCells(k, add));
  }

  /** Index of segment s within its edge's point list (the edge's point it starts at). */
  private segIdx(s: number): number {
    const e = this.segEdge[s]!;
    return s - e - this.graph.edgeShape.at(e);
  }

  /** Point id (nodes first, then shape points: see ptX) where segment s starts. */
  private segA(s: number): number {
    const e = this.segEdge[s]!;
    const i = s - e - this.graph.edgeShape.at(e);
    return i === 0 ? this.graph.edgeNodes[2 * e]! : this.nodes + this.graph.edgeShape.at(e) + i - 1;
  }

  /** Point id where segment s ends: the next point of its edge, the edge's second node after its last shape point. */
  private segB(s: number): number {
    const g = this.graph;
    const e = this.segEdge[s]!;
    const first = g.edgeShape.at(e);
    const i = s - e - first;
    return first + i === g.edgeShape.at(e + 1) ? g.edgeNodes[2 * e + 1]! : this.nodes + first + i;
  }

  /** Projected x (metres) of point id p: node p, or shape point p − nodes. */
  private ptX(p: number): number {
    const N = this.nodes;
    return (p < N ? this.graph.nodeLon[p]! : this.graph.shapeLon[p - N]!) * this.kx - this.x0;
  }

  /** Projected y (metres) of point id p. */
  private ptY(p: number): number {
    const N = this.nodes;
    return (p < N ? this.graph.nodeLat[p]! : this.graph.shapeLat[p - N]!) * this.ky - this.y0;
  }

  /** The grid's layout, which a stored grid must match. */
  get layout(): SnapGridLayout {
    return { cell: this.cell, nx: this.nx, ny: this.ny, segments: this.segEdge.length };
  }

  /** The grid: per cell the segments whose bounding box touches it (snap-grid.ts). */
  get grid(): SnapGrid {
    return this.cells;
  }

  /**
   * Nearest point on an edge that `open(edge)` accepts, within `maxDist` metres of (lat, lon) in degrees; null
   * when there is none.
   */
  nearest(lat: number, lon: number, open: (edge: number) => boolean, maxDist = DEFAULT_LIMITS.snapRadius): Snap | null {
    const x = lon * 1e7 * this.kx - this.x0;
    const y = lat * 1e7 * this.ky - this.y0;
    const cx = Math.floor(x / this.cell);
    const cy = Math.floor(y / this.cell);
    // Squared distances (metres²): comparisons only, no square roots in the loop.
    let best = Infinity;
    let bestSeg = -1;
    let bestU = 0;
    const maxRing = Math.ceil(maxDist / this.cell) + 1;
    // A segment listed only in cells outside ring r - 1 lies outside the square of those rings (cells list every
    // segment whose bounding box touches them), so at least `border` + (r - 1) * cell from the point, `border` being
    // the point's distance to its own cell's nearest side, less a millimetre for the rounding of cell indices. Once
    // the best segment is nearer than that, no later one can win (nor tie): most snaps end after their own cell.
    const border =
      Math.min(x - cx * this.cell, (cx + 1) * this.cell - x, y - cy * this.cell, (cy + 1) * this.cell - y) - 1e-3;
    for (let r = 0; r <= maxRing; r++) {
      // Every cell outside ring r - 1 is at least (r - 1) cells away... (r - 1) * cell from the point.
      if (bestSeg >= 0 && r >= 1 && best <= ((r - 1) * this.cell) ** 2) break;
      if (bestSeg >= 0 && r >= 1 && border > 0 && best < (border + (r - 1) * this.cell) ** 2) break;
      for (let gy = cy - r; gy <= cy + r; gy++) {
        if (gy < 0 || gy >= this.ny) continue;
        const edgeRow = gy === cy - r || gy === cy + r;
        for (let gx = cx - r; gx <= cx + r; gx += edgeRow ? 1 : 2 * r || 1) {
          if (gx < 0 || gx >= this.nx) continue;
          const c = gy * this.nx + gx;
          const cellSegs = this.reader.open(this.cells, c);
          for (let s = cellSegs.next(); s >= 0; s = cellSegs.next()) {
            const pa = this.segA(s),
              pb = this.segB(s);
            const ax = this.ptX(pa),
              ay = this.ptY(pa);
            const dx = this.ptX(pb) - ax,
              dy = this.ptY(pb) - ay;
            const l2 = dx * dx + dy * dy;
            let u = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
            u = u < 0 ? 0 : u > 1 ? 1 : u;
            const ex = ax + u * dx - x,
              ey = ay + u * dy - y;
            const d = ex * ex + ey * ey;
            if (d < best || (d === best && s < bestSeg)) {
              if (!open(this.segEdge[s]!)) continue;
              best = d;
              bestSeg = s;
              bestU = u;
            }
          }
        }
      }
    }
    if (bestSeg < 0 || best > maxDist * maxDist) return null;
    const e = this.segEdge[bestSeg]!;
    const i = this.segIdx(bestSeg);
    const ax = this.px(e, i),
      ay = this.py(e, i);
    const bx = this.px(e, i + 1),
      by = this.py(e, i + 1);
    // The edge's projected length, segment by segment (computed here for the one edge snapped to, not per edge up
    // front: Math.hypot is slow enough that doing it for every segment of a big graph cost the first snap ~0.1 s).
    let before = 0;
    let total = 0;
    for (let j = 0; j + 1 < this.pointCount(e); j++) {
      if (j === i) before = total;
      total += Math.hypot(this.px(e, j + 1) - this.px(e, j), this.py(e, j + 1) - this.py(e, j));
    }
    const along = before + bestU * Math.hypot(bx - ax, by - ay);
    const t = total > 0 ? Math.min(1, Math.max(0, along / total)) : 0;
    const slat = (ay + bestU * (by - ay) + this.y0) / this.ky / 1e7;
    const slon = (ax + bestU * (bx - ax) + this.x0) / this.kx / 1e7;
    return snapPoint(e, t, slat, slon, haversine(lat, lon, slat, slon), undefined, undefined);
  }

  /** Number of points of edge e (its two nodes and the shape points between). */
  private pointCount(e: number): number {
    return this.graph.edgeShape.at(e + 1) - this.graph.edgeShape.at(e) + 2;
  }

  private rawLat(e: number, i: number): number {
    const g = this.graph;
    if (i === 0) return g.nodeLat[g.edgeNodes[2 * e]!]!;
    const n = this.pointCount(e);
    if (i === n - 1) return g.nodeLat[g.edgeNodes[2 * e + 1]!]!;
    return g.shapeLat[g.edgeShape.at(e) + i - 1]!;
  }

  private rawLon(e: number, i: number): number {
    const g = this.graph;
    if (i === 0) return g.nodeLon[g.edgeNodes[2 * e]!]!;
    const n = this.pointCount(e);
    if (i === n - 1) return g.nodeLon[g.edgeNodes[2 * e + 1]!]!;
    return g.shapeLon[g.edgeShape.at(e) + i - 1]!;
  }

  private px(e: number, i: number): number {
    return this.rawLon(e, i) * this.kx - this.x0;
  }

  private py(e: number, i: number): number {
    return this.rawLat(e, i) * this.ky - this.y0;
  }

  /** Calls `f` with every grid cell the bounding box of segment s touches. */
  private forCells(s: number, f: (cell: number) => void): void {
    const a = this.segA(s),
      b = this.segB(s);
    const ax = this.ptX(a),
      ay = this.ptY(a),
      bx = this.ptX(b),
      by = this.ptY(b);
    const x1 = Math.max(0, Math.floor(Math.min(ax, bx) / this.cell)),
      x2 = Math.min(this.nx - 1, Math.floor(Math.max(ax, bx) / this.cell));
    const y1 = Math.max(0, Math.floor(Math.min(ay, by) / this.cell)),
      y2 = Math.min(this.ny - 1, Math.floor(Math.max(ay, by) / this.cell));
    for (let cy = y1; cy <= y2; cy++) for (let cx = x1; cx <= x2; cx++) f(cy * this.nx + cx);
  }
}
