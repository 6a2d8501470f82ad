/**
 * Fuzzing the REST surface (issue 18 item 3), bounded for `npm test`: fixed seeds, a few hundred adversarial
 * requests per endpoint through the same handler `bando serve` runs. Every request gets an answer of the documented
 * shape (no exception escapes, no 500), within a generous CPU bound per call; bench/fuzz.ts runs the long version and
 * reports CPU time per call against the 50 ms target.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRestHandler } from '../src/adapters/http/handler.js';
import { METHOD_NAMES, type MethodName } from '../src/adapters/http/routes.js';
import { createEngine } from '../src/engine.js';
import { requestsFor, type FuzzRequest } from './helpers/fuzz-inputs.js';
import { checkReply, answer } from './helpers/fuzz-check.js';

const engine = await createEngine();
const handler = createRestHandler(engine, { keys: [{ key: 'k' }], allowHttp: true });

/** Generous CPU bound for one call (the target, 50 ms, is the bench's to measure); catches super-linear work. */
const BOUND_MS = 2000;
/** Requests per endpoint. */
const RUNS = 300;

describe('REST fuzzing (fixed seeds)', () => {
  for (const method of METHOD_NAMES) {
    it(`${method}: every adversarial request gets a documented answer within the bound`, async () => {
      await fc.assert(
        fc.asyncProperty(requestsFor(method), async (req: FuzzRequest) => {
          const { reply, cpuMs } = await answer(handler, req);
          const problem = checkReply(method as MethodName, reply);
          expect(problem, req.target.slice(0, 300)).toBeNull();
          expect(cpuMs, req.target.slice(0, 300)).toBeLessThan(BOUND_MS);
        }),
        { seed: 18, numRuns: RUNS },
      );
    }, 300_000);
  }
});

describe('the ReDoS reproduction of issue 18', () => {
  it('color=rgb( followed by thousands of spaces and no ")" is a quick 400 naming color', async () => {
    // Before: 2,000 encoded spaces held the engine 3.1 s; 8,000 "+" spaces (the URL limit allows them) took minutes.
    for (const spaces of ['%20'.repeat(2000), '+'.repeat(8000)]) {
      const target = `/staticmap/route?origin=21.0285,105.8542&destination=21.0245,105.8412&color=rgb(${spaces}x&api_key=k`;
      const { reply, cpuMs } = await answer(handler, { method: 'staticRoute', target });
      expect(reply.status).toBe(400);
      expect(JSON.parse(String(reply.body)).error_message).toMatch(/^invalid color/);
      expect(cpuMs).toBeLessThan(BOUND_MS);
    }
  });
});
