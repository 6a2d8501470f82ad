import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { warmUpCalls } from '../src/adapters/worker/warm-up.js';

const PACK = join(fileURLToPath(new URL('../', import.meta.url)), 'packs/hanoi.pack');

describe('engine thread warm-up', () => {
  it("runs the lazy paths for real: a reverse geocode and a route at each pack's centre, and an autocomplete", async () => {
    const engine = await createEngine({ packs: [PACK] });
    const bbox = engine.info().packs[0]!.bbox!;
    const calls = warmUpCalls(engine);
    expect(calls.map(([m]) => m)).toEqual(['geocode', 'direction', 'autocomplete']);
    // The centre is the pack's own, from its bbox (west, south, east, north).
    const [lat, lon] = String(calls[0]![1].latlng).split(',').map(Number);
    expect(lat).toBeCloseTo((bbox[1] + bbox[3]) / 2, 4);
    expect(lon).toBeCloseTo((bbox[0] + bbox[2]) / 2, 4);
    // Each call reaches the index it is meant to build: an answer with results, not an error or NOT_FOUND.
    for (const [method, params] of calls) {
      const answer = (await engine[method](params as never)) as { status?: string };
      expect([method, answer.status]).toEqual([method, 'OK']);
    }
  });

  it('has nothing to run for an engine that does not tell its packs', () => {
    expect(warmUpCalls({ geocode: () => null })).toEqual([]);
  });
});
