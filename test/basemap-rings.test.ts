import { describe, expect, it } from 'vitest';
import { seaPolygons, type XY } from '../data-tools/coastline.js';
import { assembleRings } from '../data-tools/rings.js';

/** Shoelace area of a ring of points (positive counter-clockwise). */
const area = (ring: readonly XY[]) => {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    a += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1]);
  return a / 2;
};

describe('multipolygon ring assembly', () => {
  it('joins members given in any order and direction, and touching rings', () => {
    // A square 1-2-3-4 cut into three ways, shuffled and one reversed; a second square 3-5-6-7 touching it at 3.
    const rings = assembleRings([[3, 4], [2, 1, 4].reverse(), [5, 6, 7, 3], [2, 3], [3, 5]])!;
    expect(rings).not.toBeNull();
    const nodes = rings.flat();
    for (const n of [1, 2, 3, 4, 5, 6, 7]) expect(nodes).toContain(n);
    for (const r of rings) expect(r[0]).toBe(r[r.length - 1]);
  });

  it('refuses a ring that does not close (a member missing)', () => {
    expect(
      assembleRings([
        [1, 2],
        [2, 3],
        [3, 4],
      ]),
    ).toBeNull();
  });
});

describe('sea from the coastline', () => {
  // 0.1° square (1e-7 degrees).
  const box = [0, 0, 1_000_000, 1_000_000];
  it('closes a coastline crossing the extract along its edge, the sea on the right', () => {
    // West to east across the middle: land north (left), sea south (right).
    const coast: XY[][] = [
      [
        [-50000, 500000],
        [400000, 550000],
      ],
      [
        [400000, 550000],
        [1050000, 500000],
      ],
    ];
    const sea = seaPolygons(coast, box)!;
    expect(sea).toHaveLength(1);
    const outer = sea[0]![0]!;
    // The southern half: corners (100, 0) and (0, 0), not the northern ones.
    expect(outer).toContainEqual([1000000, 0]);
    expect(outer).toContainEqual([0, 0]);
    expect(outer).not.toContainEqual([0, 1000000]);
    expect(Math.abs(area(outer))).toBeGreaterThan(0.45e12);
    expect(Math.abs(area(outer))).toBeLessThan(0.55e12);
  });

  it('puts islands in the sea as holes', () => {
    const island: XY[] = [
      [200000, 200000],
      [300000, 200000],
      [300000, 300000],
      [200000, 200000],
    ];
    const sea = seaPolygons(
      [
        [
          [-50000, 500000],
          [1050000, 500000],
        ],
        island,
      ],
      box,
    )!;
    expect(sea[0]).toHaveLength(2);
  });

  it('leaves the sea out when the coastline has a gap inside the extract', () => {
    expect(
      seaPolygons(
        [
          [
            [-50000, 500000],
            [400000, 550000],
          ],
          [
            [450000, 550000],
            [1050000, 500000],
          ],
        ],
        box,
      ),
    ).toBeNull();
  });
});
