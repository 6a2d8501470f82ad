/**
 * Collision boxes of placed labels: oriented rectangles (a label along a road is rotated), tested pairwise by the
 * separating axis theorem. A static image holds at most a few hundred labels, so a list is enough.
 */

/** An oriented rectangle, pixels: centre, unit direction of its length, half length and half height. */
export interface LabelBox {
  cx: number;
  cy: number;
  ux: number;
  uy: number;
  halfLength: number;
  halfHeight: number;
}

/** The placed labels' boxes. */
export class CollisionIndex {
  /** Boxes placed so far, in order. */
  readonly boxes: LabelBox[] = [];

  /**
   * @param width canvas width, pixels
   * @param height canvas height, pixels
   */
  constructor(
    readonly width: number,
    readonly height: number,
  ) {}

  /** Whether `box` lies inside the canvas and overlaps no placed box. */
  fits(box: LabelBox): boolean {
    const ex = Math.abs(box.ux) * box.halfLength + Math.abs(box.uy) * box.halfHeight;
    const ey = Math.abs(box.uy) * box.halfLength + Math.abs(box.ux) * box.halfHeight;
    if (box.cx - ex < 0 || box.cy - ey < 0 || box.cx + ex > this.width || box.cy + ey > this.height) return false;
    return this.boxes.every((b) => !overlaps(b, box));
  }

  /** Places `box` when it fits; returns whether it did. */
  insert(box: LabelBox): boolean {
    if (!this.fits(box)) return false;
    this.boxes.push(box);
    return true;
  }
}

/** Whether two oriented rectangles overlap (touching edges do not). */
export function overlaps(a: LabelBox, b: LabelBox): boolean {
  const dx = b.cx - a.cx,
    dy = b.cy - a.cy;
  // Candidate separating axes: each box's length and height directions.
  for (const [ax, ay] of [
    [a.ux, a.uy],
    [-a.uy, a.ux],
    [b.ux, b.uy],
    [-b.uy, b.ux],
  ] as const) {
    const ra = a.halfLength * Math.abs(a.ux * ax + a.uy * ay) + a.halfHeight * Math.abs(-a.uy * ax + a.ux * ay);
    const rb = b.halfLength * Math.abs(b.ux * ax + b.uy * ay) + b.halfHeight * Math.abs(-b.uy * ax + b.ux * ay);
    if (Math.abs(dx * ax + dy * ay) >= ra + rb) return false;
  }
  return true;
}
