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
  // Candidate separating axes: each box's length and height directions.
  return (
    !separates(a, b, a.ux, a.uy) &&
    !separates(a, b, -a.uy, a.ux) &&
    !separates(a, b, b.ux, b.uy) &&
    !separates(a, b, -b.uy, b.ux)
  );
}

/** Whether the axis (ax, ay) separates the two rectangles: their projections on it are disjoint or touch. */
function separates(a: LabelBox, b: LabelBox, ax: number, ay: number): boolean {
  const ra = a.halfLength * Math.abs(a.ux * ax + a.uy * ay) + a.halfHeight * Math.abs(-a.uy * ax + a.ux * ay);
  const rb = b.halfLength * Math.abs(b.ux * ax + b.uy * ay) + b.halfHeight * Math.abs(-b.uy * ax + b.ux * ay);
  return Math.abs((b.cx - a.cx) * ax + (b.cy - a.cy) * ay) >= ra + rb;
}
