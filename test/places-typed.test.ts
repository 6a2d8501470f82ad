/**
 * The hand-written typed-query evaluation (test/fixtures/places/typed-queries.tsv, scored by
 * test/helpers/typed-queries.ts) with floors, and the ward of reverse results against the official polygons (the top
 * result's against the polygon holding the query point).
 * The failures are printed so a reader sees them; bench/places.ts reports the same figures.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../src/engine';
import {
  absentButPresent,
  runTypedQueries,
  typedEngines,
  typedQueries,
  typedSummary,
  type TypedPack,
} from './helpers/typed-queries';
import { reverseWardCheck } from './helpers/ward-reference';

/** Floors (measured: recall 97.6 %, all outcomes 95.6 %, confidently wrong 0.4 %, wards 100 %). */
const RECALL_FLOOR = 0.93;
const HITS_FLOOR = 0.9;
const WRONG_CEILING = 0.02;
const WARD_FLOOR = 0.99;

let engines: Record<TypedPack, Engine>;
beforeAll(async () => {
  engines = await typedEngines({ wasm: false });
}, 120_000);

describe('typed queries', () => {
  it('has 150 queries or more, and every landmark it calls absent is absent from the inputs', () => {
    expect(typedQueries().length).toBeGreaterThanOrEqual(150);
    expect(absentButPresent()).toEqual([]);
  });

  it('finds what people type, and answers confidently wrong rarely', () => {
    const results = runTypedQueries(engines);
    const s = typedSummary(results);
    for (const r of results)
      if (r.verdict !== 'hit') console.log(`${r.verdict.padEnd(5)} ${r.pack} ${JSON.stringify(r.query)} → ${r.got}`);
    console.log(
      `typed queries: ${s.queries}, recall within 150 m ${(100 * s.recall).toFixed(1)} %, all outcomes right ${(100 * s.hits).toFixed(1)} %, confidently wrong ${(100 * s.wrong).toFixed(1)} %`,
    );
    expect(s.recall).toBeGreaterThanOrEqual(RECALL_FLOOR);
    expect(s.hits).toBeGreaterThanOrEqual(HITS_FLOOR);
    expect(s.wrong).toBeLessThanOrEqual(WRONG_CEILING);
  });
});

describe('wards of reverse results', () => {
  it('name the ward whose official polygon holds the point (top result) or the result (the others), in 2025 addresses', () => {
    for (const pack of ['hanoi', 'hcmc'] as const) {
      const check = reverseWardCheck(engines[pack], 400, 11);
      console.log(
        `${pack}: ${check.results} reverse results at ${check.points} points, ward = polygon for ${(100 * check.rate).toFixed(2)} %`,
      );
      expect(check.rate).toBeGreaterThanOrEqual(WARD_FLOOR);
    }
  });
});
