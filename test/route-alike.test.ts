import { describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { alikeProfiles } from '../src/route/alike.js';
import { ArcCosts } from '../src/route/costs.js';
import { RoadGraph } from '../src/route/graph.js';
import { PROFILE_COUNT, vehicleIndex } from '../src/route/profiles.js';
import { Router } from '../src/route/router.js';
import { TurnTable } from '../src/route/turns.js';
import { testPack } from './helpers/packs.js';

/** Every array of a vehicle's costs and turn table, made independently for that profile. */
function structures(g: RoadGraph, p: number): ArrayLike<number>[] {
  const t = new TurnTable(g, p);
  const arrays: ArrayLike<number>[] = [t.copyArc, t.ruled, t.ruleFirst, t.ruleTo, t.ruleNext];
  for (const w of ['fastest', 'shortest'] as const) {
    const c = new ArcCosts(g, p, w);
    arrays.push(c.weight, c.dur, c.outOpen, c.blocked, c.restricted, c.cross);
  }
  // The restrictions each profile applies, which TurnTable keeps in maps of its own.
  arrays.push(Array.from(g.turnMask, (m) => (m >> p) & 1));
  return arrays;
}

describe('profiles that route alike', () => {
  for (const region of ['dalat', 'hanoi'] as const) {
    it(`${region}: share everything only when every cost and turn array is the same`, () => {
      const pack = Pack.from(testPack(region));
      const g = new RoadGraph(pack);
      const alike = alikeProfiles(g);
      // hd is car by the profiles table (data-tools/profiles.ts); bike never drives as a car.
      expect(alike[vehicleIndex('hd')]).toBe(vehicleIndex('car'));
      expect(alike[vehicleIndex('bike')]).toBe(vehicleIndex('bike'));
      const own = Array.from({ length: PROFILE_COUNT }, (_, p) => structures(g, p));
      for (let p = 0; p < PROFILE_COUNT; p++) {
        expect(alike[p]).toBeLessThanOrEqual(p);
        if (alike[p] === p) continue;
        // Alike: each array equal, element by element, to the lower profile's.
        own[p]!.forEach((a, i) => expect(Array.from(a)).toEqual(Array.from(own[alike[p]!]![i]!)));
      }
      // The router gives alike profiles one context, so one customized metric or hierarchy.
      const router = new Router(g, pack);
      for (let p = 0; p < PROFILE_COUNT; p++)
        expect(router.context(p, 'shortest') === router.context(alike[p]!, 'shortest')).toBe(true);
      expect(router.context(vehicleIndex('bike'))).not.toBe(router.context(vehicleIndex('car')));
    });
  }
});

describe('one vehicle’s costs for another weighting or avoid mask', () => {
  const pack = Pack.from(testPack('hanoi'));
  const g = new RoadGraph(pack);
  /** Every array of `c` and its bound, to compare with toEqual. */
  const arrays = (c: ArcCosts) => [c.weight, c.dur, c.outOpen, c.blocked, c.cross, c.restricted, c.boundPerMetre];

  it('share the seconds and node and edge flags, and equal the costs made alone', () => {
    for (let p = 0; p < PROFILE_COUNT; p++) {
      const first = new ArcCosts(g, p, 'fastest');
      for (const [weighting, avoid] of [
        ['shortest', 0],
        ['fastest', 2],
        ['shortest', 7],
      ] as const) {
        const made = new ArcCosts(g, p, weighting, undefined, undefined, avoid, { same: first });
        expect(arrays(made)).toEqual(arrays(new ArcCosts(g, p, weighting, undefined, undefined, avoid)));
        for (const f of ['dur', 'outOpen', 'blocked', 'cross', 'restricted'] as const) expect(made[f]).toBe(first[f]);
      }
    }
    // A router's contexts of one vehicle share them.
    const router = new Router(g, pack);
    const car = vehicleIndex('car');
    expect(router.context(car, 'shortest').costs.dur).toBe(router.context(car, 'fastest').costs.dur);
    expect(router.context(car, 'fastest', 2).costs.outOpen).toBe(router.context(car, 'fastest').costs.outOpen);
  });

  it('are computed whole when the other costs close other arcs', () => {
    const first = new ArcCosts(g, 0, 'fastest');
    const open = first.dur.findIndex((d) => d < Infinity);
    const dur = first.dur.slice();
    dur[open] = Infinity;
    const made = new ArcCosts(g, 0, 'shortest', undefined, undefined, 0, { same: { ...arrays0(first), dur } });
    expect(made.dur).not.toBe(dur);
    expect(arrays(made)).toEqual(arrays(new ArcCosts(g, 0, 'shortest')));
  });
});

/** The CostArrays of `c`. */
function arrays0(c: ArcCosts) {
  const { weight, dur, outOpen, blocked, cross, restricted, boundPerMetre } = c;
  return { weight, dur, outOpen, blocked, cross, restricted, boundPerMetre };
}
