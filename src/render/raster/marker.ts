/**
 * Route end markers: a ringed dot for the origin and a teardrop pin, tip on the point, for the destination.
 */
import type { Canvas } from './canvas.js';
import type { RGBA } from '../../style/color.js';
import { Path } from './path.js';
import { circleSegments } from './stroke-outline.js';

/** Options of {@link drawMarker}. */
export interface MarkerOptions {
  /** `origin`: dot centred on the point; `destination`: pin whose tip touches the point. */
  kind: 'origin' | 'destination';
  /** Fill colour (straight RGBA). */
  color: RGBA;
  /** Radius of the dot / pin head, pixels. Default 7 for the origin and 9 for the destination. */
  size?: number;
  /** Border and centre colour. Default opaque white. */
  borderColor?: RGBA;
}

const WHITE: RGBA = [255, 255, 255, 1];
const SHADOW: RGBA = [0, 0, 0, 0.25];

/**
 * Draws a route marker at (x, y) in pixels. Non-finite positions draw nothing.
 */
export function drawMarker(canvas: Canvas, x: number, y: number, options: MarkerOptions): void {
  if (!Number.isFinite(x + y)) return;
  const border = options.borderColor ?? WHITE;
  if (options.kind === 'origin') {
    const r = options.size ?? 7;
    canvas.fillCircle(x, y + 1, r + 2.5, SHADOW);
    canvas.fillCircle(x, y, r + 2, border);
    canvas.fillCircle(x, y, r, options.color);
    canvas.fillCircle(x, y, r * 0.4, border);
    return;
  }
  const path = new Path();
  const r = options.size ?? 9;
  const outer = r + 1.5;
  const head = 2.2 * outer; // tip to head centre, pixels
  // The coloured pin keeps the outer pin's tip angle (sin = radius / head), so the border has even thickness.
  const innerHead = (head * r) / outer;
  const cy = y - head;
  addPin(path, x + 1, y, outer + 0.5, head);
  canvas.fillPath(path, SHADOW);
  path.reset();
  addPin(path, x, y, outer, head);
  canvas.fillPath(path, border);
  path.reset();
  addPin(path, x, cy + innerHead, r, innerHead);
  canvas.fillPath(path, options.color);
  canvas.fillCircle(x, cy, r * 0.4, border);
}

/**
 * Appends a teardrop: a circle of radius r centred `head` pixels above the tip (tx, ty), joined to the tip by its
 * two tangent lines. The tangent points sit at angle beta = acos(r / head) either side of the downward direction.
 */
function addPin(path: Path, tx: number, ty: number, r: number, head: number): void {
  const cx = tx,
    cy = ty - head;
  const beta = Math.acos(Math.min(1, r / head));
  const n = circleSegments(r);
  const steps = Math.max(4, Math.ceil((n * (2 * Math.PI - 2 * beta)) / (2 * Math.PI)));
  path.lineTo(tx, ty);
  for (let i = 0; i <= steps; i++) {
    // Angle measured from straight down (+y), sweeping over the top.
    const a = beta + ((2 * Math.PI - 2 * beta) * i) / steps;
    path.lineTo(cx + r * Math.sin(a), cy + r * Math.cos(a));
  }
  path.closeRing(true);
}
