/**
 * Polyline preprocessing for strokes: cleaning, offsetting, clipping to a guard rectangle and dashing.
 * All coordinates are pixels; point lists are flat x, y pairs.
 */

/** Growable flat list of points (x, y pairs in pixels), reused between calls to avoid per-point allocation. */
export class PointList {
  /** Flat x, y pairs; only the first `2 * count` entries are meaningful. */
  xy = new Float64Array(64);
  /** Number of points. */
  count = 0;

  /** Empties the list, keeping its storage. */
  reset(): void {
    this.count = 0;
  }

  /** Appends a point (pixels) unless it equals the previous one. */
  push(x: number, y: number): void {
    const n = this.count;
    if (n > 0 && this.xy[2 * n - 2] === x && this.xy[2 * n - 1] === y) return;
    if (2 * n + 2 > this.xy.length) {
      const grown = new Float64Array(this.xy.length * 2);
      grown.set(this.xy);
      this.xy = grown;
    }
    this.xy[2 * n] = x;
    this.xy[2 * n + 1] = y;
    this.count = n + 1;
  }

  /** Appends every point of `src` as it is (its first is kept even when it equals the last point here). */
  append(src: PointList): void {
    const n = this.count + src.count;
    if (2 * n > this.xy.length) {
      const grown = new Float64Array(Math.max(2 * n, 2 * this.xy.length));
      grown.set(this.xy.subarray(0, 2 * this.count));
      this.xy = grown;
    }
    this.xy.set(src.xy.subarray(0, 2 * src.count), 2 * this.count);
    this.count = n;
  }
}

/**
 * Copies the finite points of `input` (flat x, y pairs, pixels) translated by (dx, dy) into `out`, dropping
 * consecutive duplicates and any pair with a non-finite coordinate.
 * @param start first index of `input` to read (even)
 * @param end index after the last one to read
 */
export function cleanPolyline(
  input: ArrayLike<number>,
  dx: number,
  dy: number,
  out: PointList,
  start = 0,
  end = input.length,
): void {
  out.reset();
  for (let i = start; i + 1 < end; i += 2) {
    const x = input[i]! + dx;
    const y = input[i + 1]! + dy;
    if (Number.isFinite(x) && Number.isFinite(y)) out.push(x, y);
  }
}

/** Beyond this miter ratio (1 / cos of half the turn) an offset vertex is split in two instead of mitred. */
const OFFSET_SPLIT_RATIO = 3;

/**
 * Offsets a polyline sideways, maplibre-style: positive `offset` moves it to the right of its direction of travel
 * (y axis pointing down). Interior vertices move along the angle bisector so that both adjacent segments stay at
 * exactly `offset`; at turns sharper than OFFSET_SPLIT_RATIO the vertex is split into the two segment ends.
 *
 * @param src cleaned points (no consecutive duplicates)
 * @param closed whether the last point connects back to the first
 * @param offset pixels, positive to the right
 * @param out receives the offset polyline
 */
export function offsetPolyline(src: PointList, closed: boolean, offset: number, out: PointList): void {
  out.reset();
  const n = src.count;
  const p = src.xy;
  if (n < 2) {
    for (let i = 0; i < n; i++) out.push(p[2 * i]!, p[2 * i + 1]!);
    return;
  }
  for (let i = 0; i < n; i++) {
    const hasPrev = closed || i > 0;
    const hasNext = closed || i < n - 1;
    const ip = (i - 1 + n) % n;
    const inx = (i + 1) % n;
    const x = p[2 * i]!;
    const y = p[2 * i + 1]!;
    // Right-hand unit normals of the incoming and outgoing segments: (-dy, dx) with y down.
    let n1x = 0,
      n1y = 0,
      n2x = 0,
      n2y = 0;
    if (hasPrev) {
      const dx = x - p[2 * ip]!,
        dy = y - p[2 * ip + 1]!,
        len = Math.hypot(dx, dy);
      n1x = -dy / len;
      n1y = dx / len;
    }
    if (hasNext) {
      const dx = p[2 * inx]! - x,
        dy = p[2 * inx + 1]! - y,
        len = Math.hypot(dx, dy);
      n2x = -dy / len;
      n2y = dx / len;
    }
    if (!hasPrev) out.push(x + offset * n2x, y + offset * n2y);
    else if (!hasNext) out.push(x + offset * n1x, y + offset * n1y);
    else {
      const cosine = 1 + n1x * n2x + n1y * n2y; // = 2 cos^2(half angle)
      if (cosine * OFFSET_SPLIT_RATIO * OFFSET_SPLIT_RATIO < 2) {
        out.push(x + offset * n1x, y + offset * n1y);
        out.push(x + offset * n2x, y + offset * n2y);
      } else {
        out.push(x + (offset * (n1x + n2x)) / cosine, y + (offset * (n1y + n2y)) / cosine);
      }
    }
  }
}

/** Axis-aligned rectangle in pixels. */
export interface Rect {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * Clips a polyline to `rect` (Liang-Barsky per segment) and reports each inside piece with its starting distance
 * along the original polyline (pixels), so that dash phases survive clipping. A closed polyline entirely inside
 * the rectangle is reported once with `closed` true; a closed polyline that leaves it is walked from its first vertex
 * outside the rectangle (so no kept vertex loses its join), and its distances are measured from that vertex.
 *
 * @param onPiece called with a point list that is only valid during the call
 */
export function clipPolyline(
  src: PointList,
  closed: boolean,
  rect: Rect,
  scratch: PointList,
  onPiece: (piece: PointList, startDistance: number, closed: boolean) => void,
): void {
  const n = src.count;
  const p = src.xy;
  let inside = true;
  for (let i = 0; i < n && inside; i++) {
    const x = p[2 * i]!,
      y = p[2 * i + 1]!;
    inside = x >= rect.minX && x <= rect.maxX && y >= rect.minY && y <= rect.maxY;
  }
  if (inside) {
    onPiece(src, 0, closed && n > 2);
    return;
  }
  // Start a closed ring at a vertex outside the rectangle so that no kept vertex is split across two pieces.
  let first = 0;
  if (closed) {
    while (first < n) {
      const x = p[2 * first]!,
        y = p[2 * first + 1]!;
      if (!(x >= rect.minX && x <= rect.maxX && y >= rect.minY && y <= rect.maxY)) break;
      first++;
    }
  }
  const segments = closed ? n : n - 1;
  let t0 = 0,
    t1 = 1;
  // Liang-Barsky: shrink [t0, t1] to the half-plane q * t <= r; returns false when nothing is left.
  const clipTo = (q: number, r: number): boolean => {
    if (q === 0) return r >= 0;
    const t = r / q;
    if (q < 0) {
      if (t > t1) return false;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return false;
      if (t < t1) t1 = t;
    }
    return true;
  };
  scratch.reset();
  let pieceStart = 0;
  let distance = 0;
  for (let s = 0; s < segments; s++) {
    const i = (first + s) % n;
    const j = (i + 1) % n;
    const x0 = p[2 * i]!,
      y0 = p[2 * i + 1]!,
      x1 = p[2 * j]!,
      y1 = p[2 * j + 1]!;
    const dx = x1 - x0,
      dy = y1 - y0;
    const length = Math.hypot(dx, dy);
    t0 = 0;
    t1 = 1;
    const visible =
      clipTo(dx, rect.maxX - x0) &&
      clipTo(-dx, x0 - rect.minX) &&
      clipTo(dy, rect.maxY - y0) &&
      clipTo(-dy, y0 - rect.minY);
    if (visible) {
      if (scratch.count === 0) pieceStart = distance + t0 * length;
      scratch.push(x0 + t0 * dx, y0 + t0 * dy);
      scratch.push(x0 + t1 * dx, y0 + t1 * dy);
    }
    if ((!visible || t1 < 1) && scratch.count > 0) {
      onPiece(scratch, pieceStart, false);
      scratch.reset();
    }
    distance += length;
  }
  if (scratch.count > 0) onPiece(scratch, pieceStart, false);
}

/**
 * Splits a polyline into dashes. `pattern` alternates dash and gap lengths (pixels, already scaled by the line
 * width); the pattern starts at distance 0 of the original line and `startDistance` says where this piece begins.
 * Zero-length dashes are reported as single points (they become dots with round or square caps).
 *
 * @param onDash called with each dash and the unit direction of the line at its start (for caps of single points)
 */
export function dashPolyline(
  src: PointList,
  startDistance: number,
  pattern: readonly number[],
  scratch: PointList,
  onDash: (dash: PointList, dirX: number, dirY: number) => void,
): void {
  let period = 0;
  for (const v of pattern) period += v;
  const n = src.count;
  const p = src.xy;
  // Locate the pattern entry at startDistance.
  let phase = startDistance % period;
  let k = 0;
  // Terminates within one cycle because the entries sum to period > phase.
  while (phase > pattern[k]!) {
    phase -= pattern[k]!;
    k = (k + 1) % pattern.length;
  }
  let remaining = pattern[k]! - phase; // distance left in the current entry
  let on = k % 2 === 0;
  scratch.reset();
  let dirX = 1,
    dirY = 0;
  if (on && n > 0) scratch.push(p[0]!, p[1]!);
  for (let i = 0; i + 1 < n; i++) {
    const x0 = p[2 * i]!,
      y0 = p[2 * i + 1]!,
      x1 = p[2 * i + 2]!,
      y1 = p[2 * i + 3]!;
    const length = Math.hypot(x1 - x0, y1 - y0);
    if (length === 0) continue;
    dirX = (x1 - x0) / length;
    dirY = (y1 - y0) / length;
    let travelled = 0;
    while (travelled + remaining <= length) {
      travelled += remaining;
      const x = x0 + dirX * travelled,
        y = y0 + dirY * travelled;
      if (on) {
        scratch.push(x, y);
        onDash(scratch, dirX, dirY);
        scratch.reset();
      } else {
        scratch.reset();
        scratch.push(x, y);
      }
      on = !on;
      k = (k + 1) % pattern.length;
      remaining = pattern[k]!;
    }
    remaining -= length - travelled;
    if (on) scratch.push(x1, y1);
  }
  if (on && scratch.count > 0) onDash(scratch, dirX, dirY);
}
