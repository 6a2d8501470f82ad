/**
 * Fast stroking by distance: the coverage of a pixel is a box-filtered function of its centre's distance to the
 * polyline, written into a coverage mask with `max`, so the union of segments (and of the two lines of a casing) is
 * covered once and round joins come for free. Dashes multiply in the drawn fraction of the pixel along the line
 * (butt and square caps) or add the distance to the nearest dash (round caps). Used for every line whose joins
 * look round: round joins, or lines thin enough that a miter or bevel join differs from a round one by under a
 * pixel; thicker miter and bevel joins use the exact outline stroker.
 *
 * Per segment only the pixels near it are visited: each row's column range is the segment's x extent within
 * `reach` of the row, widened by `reach`, so a long diagonal segment costs its area, not its bounding box.
 *
 * Canvases draw with this file's WebAssembly port (wasm/raster/stroke.rs, see wasm-raster.ts) where it loads and
 * with this one where it does not; the two give the same bytes (test/raster-wasm.test.ts), so a change to one is made
 * to the other.
 */
import type { MaskSink } from './composite.js';
import type { PointList } from './polyline.js';
import type { LineCap } from './stroke-outline.js';

/** Shape of a distance stroke. */
export interface DistanceShape {
  /** Half the line width, pixels (> 0). */
  halfWidth: number;
  cap: LineCap;
  /** Blur, pixels: coverage falls linearly over `blur + 1` pixels ending half a pixel outside the edge. */
  blur: number;
  /**
   * Alternating dash and gap lengths in pixels (period >= 1), measured along the line from its first point; each
   * dash ends with the line's cap. Null for a solid line.
   */
  dashes: readonly number[] | null;
}

/** Dash pattern prepared for per-pixel lookups: drawn intervals within one period. */
export interface Dashing {
  period: number;
  /** Flat [start, end] pairs of the drawn intervals of one period, pixels (square caps already added). */
  on: Float64Array;
  /** Periods to look either side, enough for intervals widened by square caps. */
  reachPeriods: number;
  round: boolean;
  /**
   * The exact dash value (see exactDashValue) at phases 0, DASH_TABLE_STEP, 2 DASH_TABLE_STEP, ... up to and
   * including the period, interpolated linearly in between; null for periods too long to tabulate.
   */
  table: Float32Array | null;
}

/** Phase step of the dash value table, pixels: interpolation is then within 1/64 pixel of the exact value. */
const DASH_TABLE_STEP = 1 / 32;
/** Longest tabulated period, pixels. */
const DASH_TABLE_MAX_PERIOD = 256;
/** Prepared dash patterns by shape (a stroke call's shape is shared by all its polylines). */
const prepared = new WeakMap<DistanceShape, Dashing | null>();

/** The shape's dash pattern prepared for per-pixel lookups (made once per shape), or null for a solid line. */
export function dashingOf(shape: DistanceShape): Dashing | null {
  let dashing = prepared.get(shape);
  if (dashing === undefined) prepared.set(shape, (dashing = prepareDashes(shape)));
  return dashing;
}

/**
 * Adds the coverage of one cleaned polyline (pixels, no consecutive duplicates) to `mask` by maximum.
 * @param closed the last point connects back to the first (joins everywhere, no caps)
 */
export function addDistanceStroke(mask: MaskSink, pts: PointList, closed: boolean, shape: DistanceShape): void {
  const n = pts.count;
  const p = pts.xy;
  const hw = shape.halfWidth;
  if (n === 0 || !(hw > 0)) return;
  const dashing = dashingOf(shape);
  if (n === 1) {
    // A lone point shows only with a cap that reaches beyond it.
    if (shape.cap === 'round') {
      setSegment(p[0]!, p[1]!, p[0]!, p[1]!, 0, 0, 0);
      addSegment(mask, false, false, shape, null, false);
    } else if (shape.cap === 'square') {
      setSegment(p[0]! - hw, p[1]!, p[0]! + hw, p[1]!, 0, 0, 0);
      addSegment(mask, true, true, shape, null, false);
    }
    return;
  }
  const isClosed = closed && n > 2;
  const segments = isClosed ? n : n - 1;
  // Square caps are butt caps half a width further out. With dashes the pattern itself draws the caps at the
  // line's start (its intervals begin at distance 0 and are widened for square caps), so only the end is cut.
  const buttStart = !isClosed && shape.cap !== 'round' && !dashing;
  const buttEnd = !isClosed && shape.cap !== 'round';
  let distance = 0;
  // Direction of the previous segment when its end is a joint it left to this one (see addSegment's `prevUx`).
  let prevUx = 0,
    prevUy = 0;
  if (isClosed && !dashing) {
    const lx = p[0]! - p[2 * n - 2]!,
      ly = p[1]! - p[2 * n - 1]!;
    const l = Math.sqrt(lx * lx + ly * ly);
    if (l > 0) ((prevUx = lx / l), (prevUy = ly / l));
  }
  for (let s = 0; s < segments; s++) {
    const j = (s + 1) % n;
    let ax = p[2 * s]!,
      ay = p[2 * s + 1]!,
      bx = p[2 * j]!,
      by = p[2 * j + 1]!;
    const len = Math.sqrt((bx - ax) ** 2 + (by - ay) ** 2);
    const first = buttStart && s === 0;
    const last = buttEnd && s === segments - 1;
    let start = distance;
    if (shape.cap === 'square' && (first || last)) {
      const ex = ((bx - ax) / len) * hw,
        ey = ((by - ay) / len) * hw;
      if (first) ((ax -= ex), (ay -= ey), (start -= hw));
      if (last) ((bx += ex), (by += ey));
    }
    // Without dashes a joint's pixels beyond this segment's end are the next segment's: their distance to this
    // segment is their distance to the shared point, never less than to the next segment, so skipping them here
    // leaves the maximum unchanged.
    const trimEnd = !dashing && (isClosed || s < segments - 1);
    setSegment(ax, ay, bx, by, start, prevUx, prevUy);
    addSegment(mask, first, last, shape, dashing, trimEnd);
    distance += len;
    // The next segment's joint: this one drew up to its end, with a round start or one of full length before it.
    const joint = trimEnd && !first && len > 0;
    prevUx = joint ? (bx - ax) / len : 0;
    prevUy = joint ? (by - ay) / len : 0;
  }
}

/**
 * Pixels (along the previous segment) by which a pixel centre must lie before a joint to be left to the previous
 * segment: far more than the rounding of either segment's pixel ranges.
 */
const JOINT_EPSILON = 1e-6;

/** Least coverage written to the mask (1/512: half a colour level). */
const MIN_COVERAGE = 1 / 512;

/** The drawn intervals of a dash pattern, widened by half the width for square caps. */
function prepareDashes(shape: DistanceShape): Dashing | null {
  const d = shape.dashes;
  if (!d || d.length < 2) return null;
  let period = 0;
  for (const v of d) period += v;
  const grow = shape.cap === 'square' ? shape.halfWidth : 0;
  const on = new Float64Array(d.length);
  let at = 0;
  for (let k = 0; k + 1 < d.length; k += 2) {
    on[k] = at - grow;
    on[k + 1] = at + d[k]! + grow;
    at += d[k]! + d[k + 1]!;
  }
  const dashing: Dashing = {
    period,
    on,
    reachPeriods: 1 + Math.ceil(grow / period),
    round: shape.cap === 'round',
    table: null,
  };
  if (period <= DASH_TABLE_MAX_PERIOD) {
    const steps = Math.ceil(period / DASH_TABLE_STEP);
    const table = new Float32Array(steps + 2); // one spare entry so that interpolation never reads past the end
    for (let k = 0; k < table.length; k++) table[k] = exactDashValue(dashing, Math.min(period, k * DASH_TABLE_STEP));
    dashing.table = table;
  }
  return dashing;
}

/** {@link exactDashValue} of the point at distance `s` along the line, from the table when there is one. */
function dashValue(dashing: Dashing, s: number): number {
  const period = dashing.period;
  const phase = s - Math.floor(s / period) * period;
  const table = dashing.table;
  if (!table) return exactDashValue(dashing, phase);
  const x = phase / DASH_TABLE_STEP;
  const k = Math.floor(x);
  return table[k]! + (table[k + 1]! - table[k]!) * (x - k);
}

/**
 * For a point at `phase` (0..period) along the pattern: with round caps, its distance (pixels) along the line to
 * the nearest drawn interval (0 inside one); otherwise the drawn fraction of the pixel's extent
 * [phase - 0.5, phase + 0.5].
 */
function exactDashValue(dashing: Dashing, phase: number): number {
  const { period, on, reachPeriods, round } = dashing;
  let gap = Infinity;
  let covered = 0;
  for (let m = -reachPeriods; m <= reachPeriods; m++) {
    const shift = m * period;
    for (let k = 0; k < on.length; k += 2) {
      const a = on[k]! + shift,
        b = on[k + 1]! + shift;
      if (round) {
        const g = phase < a ? a - phase : phase > b ? phase - b : 0;
        if (g < gap) gap = g;
      } else {
        const o = Math.min(phase + 0.5, b) - Math.max(phase - 0.5, a);
        if (o > 0) covered += o;
      }
    }
  }
  return round ? gap : covered > 1 ? 1 : covered;
}

/**
 * The numbers of the segment that addSegment draws next: ax, ay, bx, by, start, prevUx, prevUy (see there). They
 * travel in this array rather than as arguments: numbers passed to a call that is not inlined are boxed, which
 * allocated megabytes per image at one call per segment.
 */
const segment = new Float64Array(7);

/** Stores the numbers of the next segment in `segment`. */
function setSegment(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  start: number,
  prevUx: number,
  prevUy: number,
): void {
  segment[0] = ax;
  segment[1] = ay;
  segment[2] = bx;
  segment[3] = by;
  segment[4] = start;
  segment[5] = prevUx;
  segment[6] = prevUy;
}

/**
 * Max-accumulates the coverage of the segment (ax, ay)-(bx, by) that starts `start` pixels along the line (all from
 * `segment`, see setSegment). Ends
 * flagged `buttA` / `buttB` stop square at the end point (box-filtered along the line); other ends are round
 * (distance to the end point). With `trimB` the pixels whose centres lie beyond the end are left out (the next
 * segment of a joint covers them).
 *
 * (prevUx, prevUy): the unit direction of the previous segment when it is a solid, round-started or full segment
 * ending at (ax, ay) with `trimB` (else 0, 0). Behind this segment's start, the pixels that are not beyond the
 * previous segment's end were visited by it, at a distance to it no greater than to (ax, ay), so with coverage no
 * less than this segment's: they are skipped (the maximum is unchanged). Only the joint's outer wedge is drawn here.
 */
function addSegment(
  mask: MaskSink,
  buttA: boolean,
  buttB: boolean,
  shape: DistanceShape,
  dashing: Dashing | null,
  trimB: boolean,
): void {
  const ax = segment[0]!,
    ay = segment[1]!,
    bx = segment[2]!,
    by = segment[3]!,
    start = segment[4]!,
    prevUx = segment[5]!,
    prevUy = segment[6]!;
  const { width, height } = mask;
  const hw = shape.halfWidth;
  const blur = shape.blur;
  const reach = hw + 0.5;
  const dx = bx - ax,
    dy = by - ay;
  const len = Math.sqrt(dx * dx + dy * dy);
  const ux = len > 0 ? dx / len : 1,
    uy = len > 0 ? dy / len : 0;
  const yStart = Math.max(0, Math.floor(Math.min(ay, by) - reach));
  const yEnd = Math.min(height - 1, Math.ceil(Math.max(ay, by) + reach));
  if (yStart > yEnd || Math.max(ax, bx) + reach < 0 || Math.min(ax, bx) - reach > width) return;
  const cov = mask.mask;
  const touched = mask.touched;
  let count = mask.count;
  const invRamp = 1 / (blur + 1);
  // Along-line limits of the visited region: butt ends fade out within half a pixel of the end.
  const alongMin = buttA ? -0.5 : -reach;
  const alongMax = buttB ? len + 0.5 : trimB ? len : len + reach;
  const invUx = 1 / ux,
    invUy = 1 / uy;
  // Each row's column limits come in pairs whose order is fixed by the signs of invUy and invUx (rounding keeps
  // order), so the lower and upper limit of each pair are chosen once here rather than by min/max per row.
  const crossLo = invUy > 0 ? -reach : reach;
  const alongLo = invUx > 0 ? alongMin : alongMax,
    alongHi = invUx > 0 ? alongMax : alongMin;
  // The common case (solid, round-ended, sharp-edged) has a lean loop of its own.
  const plain = !dashing && !buttA && !buttB && blur === 0;
  const thin = hw < 0.5;
  for (let y = yStart; y <= yEnd; y++) {
    const py = y + 0.5 - ay;
    const pux = py * ux,
      puy = py * uy;
    // Columns whose centres lie within `reach` across the line and within the along limits: both are linear in
    // the column's centre offset u = x + 0.5 - ax (across = u uy - py ux, along = u ux + py uy).
    let uLo = -Infinity,
      uHi = Infinity;
    if (uy !== 0) {
      uLo = (pux + crossLo) * invUy;
      uHi = (pux - crossLo) * invUy;
    } else if (Math.abs(pux) >= reach) continue;
    if (ux !== 0) {
      uLo = Math.max(uLo, (alongLo - puy) * invUx);
      uHi = Math.min(uHi, (alongHi - puy) * invUx);
    } else if (puy < alongMin || puy > alongMax) continue;
    const x0 = Math.max(0, Math.ceil(ax + uLo - 0.5));
    const x1 = Math.min(width - 1, Math.floor(ax + uHi - 0.5));
    if (x0 > x1) continue;
    const base = y * width;
    // Along and across coordinates of the first pixel centre, advanced by (ux, uy) per column.
    let along = (x0 + 0.5 - ax) * ux + puy;
    let cross = (x0 + 0.5 - ax) * uy - pux;
    if (plain) {
      // Along the previous segment's direction from (ax, ay), advanced by prevUx per column (0 without a joint).
      let behind = (x0 + 0.5 - ax) * prevUx + py * prevUy;
      for (let x = x0; x <= x1; x++, along += ux, cross += uy, behind += prevUx) {
        let d: number;
        if (along < 0) {
          if (behind < -JOINT_EPSILON) continue;
          d = Math.sqrt(along * along + cross * cross);
        } else if (along > len) {
          const beyond = along - len;
          d = Math.sqrt(beyond * beyond + cross * cross);
        } else d = cross < 0 ? -cross : cross;
        let c = thin ? (d + 0.5 < hw ? d + 0.5 : hw) - (d - 0.5 > -hw ? d - 0.5 : -hw) : reach - d;
        if (c < MIN_COVERAGE) continue;
        if (c > 1) c = 1;
        const i = base + x;
        const old = cov[i]!;
        if (c > old) {
          if (old === 0) touched[count++] = i;
          cov[i] = c;
        }
      }
      continue;
    }
    for (let x = x0; x <= x1; x++, along += ux, cross += uy) {
      let d = cross < 0 ? -cross : cross;
      if (along < 0) {
        if (!buttA) d = Math.sqrt(along * along + cross * cross);
      } else if (along > len && !buttB) {
        const beyond = along - len;
        d = Math.sqrt(beyond * beyond + cross * cross);
      }
      if (d >= reach) continue;
      let endCov = 1;
      if (dashing) {
        const v = dashValue(dashing, start + along);
        if (dashing.round) {
          if (v > 0) d = Math.max(d, Math.sqrt(v * v + cross * cross));
        } else if (v <= 0) continue;
        else endCov = v;
      }
      if (buttA || buttB) {
        // Overlap of the pixel's extent along the line with the segment's butt-ended span.
        const lo = buttA && along < 0.5 ? 0 : along - 0.5;
        const hi = buttB && along > len - 0.5 ? len : along + 0.5;
        if (hi <= lo) continue;
        endCov *= hi - lo;
      }
      // Box filter of the pixel across the band [-hw, hw] (simplified for bands at least a pixel wide), or the
      // blur ramp.
      let c = blur > 0 ? (reach - d) * invRamp : hw >= 0.5 ? reach - d : Math.min(d + 0.5, hw) - Math.max(d - 0.5, -hw);
      if (c > 1) c = 1;
      if (endCov < 1) c *= endCov;
      // Below MIN_COVERAGE a pixel changes by under half a colour level; skipping it also keeps every stored
      // coverage well clear of Float32 underflow, which the mask's touched list relies on.
      if (c < MIN_COVERAGE) continue;
      const i = base + x;
      const old = cov[i]!;
      if (c > old) {
        if (old === 0) touched[count++] = i;
        cov[i] = c;
      }
    }
  }
  mask.count = count;
}
