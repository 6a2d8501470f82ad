/**
 * Reverse geocoding on the whole of Ho Chi Minh City (the 2018 extract with the official 2025 ward polygons), judged
 * point by point by test/helpers/reverse-check.ts: straight scans of the official polygons, the places, the
 * building outlines and the road segments, none through the engine's indexes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { testPack } from './helpers/packs';
import { judgeReverse } from './helpers/reverse-check';
import { pointsInWards } from './helpers/reverse-points';

/** Points judged: drawn a ward at a time inside the official polygons of the pack's area (seeded). */
const POINTS = 400;
/** The top result names the point's own ward at least this often (the target). */
const WARD_FLOOR = 0.99;

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ packs: [testPack('hcmc-city')] });
}, 300_000);

describe('reverse geocode on the whole city', () => {
  it('answers with the place at the point, else the nearest street, in the ward of the point', () => {
    const points = pointsInWards(engine.places.regions[0]!.region.meta.bbox!, POINTS, 35);
    expect(points).toHaveLength(POINTS);
    let wards = 0;
    let agree = 0;
    const problems: string[] = [];
    const rules: Record<string, number> = {};
    for (const { lat, lng } of points) {
      const v = judgeReverse(engine, lat, lng);
      rules[v.rule] = (rules[v.rule] ?? 0) + 1;
      if (v.ward !== null) {
        wards++;
        if (v.ward) agree++;
      }
      for (const p of v.problems) problems.push(`${lat.toFixed(6)},${lng.toFixed(6)}: ${p}`);
    }
    console.log(`top result's ward = the polygon's: ${agree} of ${wards}; problems: ${problems.length}`, rules);
    for (const p of problems) console.log(p);
    // Every rule was put to the test.
    for (const rule of ['building', 'within 50 m', 'street', 'ward']) expect(rules[rule]).toBeGreaterThan(0);
    expect(agree / wards).toBeGreaterThanOrEqual(WARD_FLOOR);
    expect(problems).toEqual([]);
  }, 120_000);
});
