/**
 * Builds the outline of a stroked polyline as a set of closed rings: one rectangle per segment, one wedge (miter or
 * bevel) or disc (round) per join and one cap shape per end. All rings are oriented the same way, so filling them
 * together with the non-zero rule yields their union - the stroke - without seams or double-blended overlaps.
 */
import type { Path } from './path.js';
import type { PointList } from './polyline.js';

/** Line cap: butt ends at the endpoint, round and square extend half the width beyond it. */
export type LineCap = 'butt' | 'round' | 'square';
/** Line join at interior vertices. */
export type LineJoin = 'miter' | 'bevel' | 'round';

/** Shape parameters of a stroke (pixels unless stated). */
export interface StrokeShape {
  /** Full line width, pixels (> 0). */
  width: number;
  cap: LineCap;
  join: LineJoin;
  /** Miter joins longer than this many half-widths (1 / cos of half the angle between the segment normals) become bevels. */
  miterLimit: number;
  /** Round joins shorter than this miter ratio are drawn as miters (maplibre's line-round-limit). */
  roundLimit: number;
}

/** Maximum distance (pixels) between a true circle and its polygon approximation. */
const CIRCLE_TOLERANCE = 0.05;

/**
 * Number of polygon vertices for a circle of radius `r` (pixels) within CIRCLE_TOLERANCE; between 8 and 256 so that
 * absurd radii cannot blow up the vertex count.
 */
export function circleSegments(r: number): number {
  if (!(r > CIRCLE_TOLERANCE)) return 8;
  const step = 2 * Math.acos(1 - CIRCLE_TOLERANCE / r);
  return Math.max(8, Math.min(256, Math.ceil((2 * Math.PI) / step)));
}

/**
 * Appends a circle polygon of radius `r` (pixels) centred on (cx, cy) to `path`. The vertices sit slightly outside
 * the circle so that the polygon's area equals pi r^2 (an inscribed polygon would lose area and look thinner).
 */
export function addCircle(path: Path, cx: number, cy: number, r: number): void {
  const n = circleSegments(r);
  const step = (2 * Math.PI) / n;
  const rv = r * Math.sqrt((2 * Math.PI) / (n * Math.sin(step)));
  for (let i = 0; i < n; i++) {
    const a = step * i;
    path.lineTo(cx + rv * Math.cos(a), cy + rv * Math.sin(a));
  }
  path.closeRing(true);
}

/**
 * Appends the outline rings of one stroked polyline to `path`.
 *
 * @param pts cleaned points (no consecutive duplicates), pixels
 * @param closed whether the polyline is a closed ring (joins everywhere, no caps)
 * @param shape width, cap and join
 * @param dirX unit direction used for the square cap of a single-point polyline (a zero-length dash)
 * @param dirY see dirX
 */
export function addStrokeOutline(
  path: Path,
  pts: PointList,
  closed: boolean,
  shape: StrokeShape,
  dirX = 1,
  dirY = 0,
): void {
  const n = pts.count;
  const p = pts.xy;
  const hw = shape.width / 2;
  if (!(hw > 0) || n === 0) return;
  if (n === 1) {
    // A single point draws only with caps that extend beyond the endpoint (dots of a dash pattern).
    if (shape.cap === 'round') addCircle(path, p[0]!, p[1]!, hw);
    else if (shape.cap === 'square') addQuad(path, p[0]!, p[1]!, dirX, dirY, -hw, hw, hw);
    return;
  }
  const isClosed = closed && n > 2;
  const segments = isClosed ? n : n - 1;
  for (let s = 0; s < segments; s++) {
    const i = s,
      j = (s + 1) % n;
    const x0 = p[2 * i]!,
      y0 = p[2 * i + 1]!;
    const dx = p[2 * j]! - x0,
      dy = p[2 * j + 1]! - y0;
    const len = Math.hypot(dx, dy);
    addQuad(path, x0, y0, dx / len, dy / len, 0, len, hw);
  }
  const firstJoin = isClosed ? 0 : 1;
  const lastJoin = isClosed ? n : n - 1;
  for (let i = firstJoin; i < lastJoin; i++) addJoin(path, p, n, i, hw, shape);
  if (!isClosed && shape.cap !== 'butt') {
    addCap(path, p[0]!, p[1]!, p[0]! - p[2]!, p[1]! - p[3]!, hw, shape.cap);
    const l = 2 * n - 2;
    addCap(path, p[l]!, p[l + 1]!, p[l]! - p[l - 2]!, p[l + 1]! - p[l - 1]!, hw, shape.cap);
  }
}

/**
 * Appends the rectangle covering `from .. to` along unit direction (ux, uy) from (x, y), half-width `hw` on both
 * sides.
 */
function addQuad(path: Path, x: number, y: number, ux: number, uy: number, from: number, to: number, hw: number): void {
  const nx = -uy * hw,
    ny = ux * hw;
  const ax = x + ux * from,
    ay = y + uy * from;
  const bx = x + ux * to,
    by = y + uy * to;
  path.lineTo(ax + nx, ay + ny);
  path.lineTo(bx + nx, by + ny);
  path.lineTo(bx - nx, by - ny);
  path.lineTo(ax - nx, ay - ny);
  path.closeRing(true);
}

/** Appends a round or square cap at (x, y); (ox, oy) points outwards from the line (any length > 0). */
function addCap(path: Path, x: number, y: number, ox: number, oy: number, hw: number, cap: LineCap): void {
  if (cap === 'round') {
    addCircle(path, x, y, hw);
    return;
  }
  const len = Math.hypot(ox, oy);
  addQuad(path, x, y, ox / len, oy / len, 0, hw, hw);
}

/** Appends the join at vertex `i`: the outer wedge between the two segment rectangles. */
function addJoin(path: Path, p: Float64Array, n: number, i: number, hw: number, shape: StrokeShape): void {
  const ip = (i - 1 + n) % n,
    inx = (i + 1) % n;
  const x = p[2 * i]!,
    y = p[2 * i + 1]!;
  let d1x = x - p[2 * ip]!,
    d1y = y - p[2 * ip + 1]!;
  let d2x = p[2 * inx]! - x,
    d2y = p[2 * inx + 1]! - y;
  const l1 = Math.hypot(d1x, d1y),
    l2 = Math.hypot(d2x, d2y);
  d1x /= l1;
  d1y /= l1;
  d2x /= l2;
  d2y /= l2;
  // Normals pointing to the outer side of the turn (the side the outgoing direction turns away from).
  let n1x = -d1y,
    n1y = d1x;
  if (n1x * d2x + n1y * d2y > 0) {
    n1x = -n1x;
    n1y = -n1y;
  }
  let n2x = -d2y,
    n2y = d2x;
  if (n2x * d1x + n2y * d1y < 0) {
    n2x = -n2x;
    n2y = -n2y;
  }
  const cosine = 1 + n1x * n2x + n1y * n2y; // 2 cos^2(half the angle between the normals)
  // Miter ratio (miter length / half-width) = 1 / cos(half angle) = sqrt(2 / cosine).
  const ratio = cosine > 1e-12 ? Math.sqrt(2 / cosine) : Infinity;
  let join = shape.join;
  if (join === 'round' && ratio < shape.roundLimit) join = 'miter';
  if (join === 'miter' && ratio > shape.miterLimit) join = 'bevel';
  if (join === 'round') {
    addCircle(path, x, y, hw);
    return;
  }
  path.lineTo(x, y);
  path.lineTo(x + n1x * hw, y + n1y * hw);
  if (join === 'miter') path.lineTo(x + ((n1x + n2x) * hw) / cosine, y + ((n1y + n2y) * hw) / cosine);
  path.lineTo(x + n2x * hw, y + n2y * hw);
  path.closeRing(true);
}
