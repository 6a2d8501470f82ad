/**
 * Car routes beside OSRM's on the same data: test/fixtures/osrm holds, per test region, pairs of points inside road
 * edges with the distance and duration osrm-backend v6 (car.lua) answered for them (bench/osrm-routes.ts wrote them
 * from OSRM servers run on the regions' inputs). The engine's distances must agree: a road's length is measured as
 * OSRM measures it (src/geo.ts roadMetres), and the routes are the same but where two are within a turn's seconds.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { testPack, type TestRegion } from './helpers/packs.js';

const REGIONS: TestRegion[] = ['monaco', 'andorra', 'dalat', 'hanoi', 'hcmc-city'];

/** The fixture's pairs: origin and destination as "lat,lng", OSRM's metres and seconds. */
function osrmRoutes(region: TestRegion): { a: string; b: string; metres: number; seconds: number }[] {
  return readFileSync(new URL(`fixtures/osrm/${region}.tsv`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [a, b, m, s] = l.split('\t');
      return { a: a!, b: b!, metres: Number(m), seconds: Number(s) };
    });
}

describe('car routes agree with OSRM v6 on the same data', () => {
  it.each(REGIONS)('%s: distances to the metre, most routes the same', (region) => {
    const engine = new Engine([new Region(Pack.from(testPack(region)))]);
    const pairs = osrmRoutes(region);
    expect(pairs.length).toBeGreaterThanOrEqual(190);
    const diffs: number[] = [];
    let same = 0,
      notFound = 0,
      seconds = 0,
      osrmSeconds = 0;
    for (const p of pairs) {
      const r = engine.direction({ origin: p.a, destination: p.b, vehicle: 'car' });
      if (r.status !== 'OK') {
        notFound++;
        continue;
      }
      const leg = r.routes![0]!.legs[0]!;
      const d = Math.abs(leg.distance.value - p.metres);
      diffs.push(d);
      if (d <= Math.max(10, 0.002 * p.metres)) same++;
      seconds += leg.duration.value;
      osrmSeconds += p.seconds;
    }
    diffs.sort((x, y) => x - y);
    // Every pair OSRM routes is routed here too: points inside footways and tracks more than a kilometre from a car
    // road (10 of Monaco's 300 bench pairs, 5 of Andorra's) are within the snap radius.
    expect(notFound).toBe(0);
    // Whole metres against OSRM's decimetres: the same route differs by under a metre.
    expect(diffs[Math.floor(diffs.length / 2)]).toBeLessThan(1);
    // Other routes are within a few seconds of OSRM's (turn angles measured another way).
    expect(same / diffs.length).toBeGreaterThan(0.93);
    expect(seconds / osrmSeconds).toBeGreaterThan(0.99);
    expect(seconds / osrmSeconds).toBeLessThan(1.01);
  });
});
