import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { ENGINE_SEMI_SPACE_MB, tuneEngineGc } from '../src/adapters/cli/engine-gc.js';

/**
 * Young-generation collections in a fresh worker thread that allocates the same short-lived garbage each time
 * (about 200 MB of small arrays and strings, as a route answer's are, none kept): the count depends on the young
 * generation's size, which the V8 flags set when the worker's heap is made.
 */
function scavengesOfAWorker(): Promise<number> {
  const code = `
    const { parentPort } = require('node:worker_threads');
    const { PerformanceObserver, constants } = require('node:perf_hooks');
    let minor = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
    }).observe({ entryTypes: ['gc'] });
    let sink = 0;
    for (let r = 0; r < 2000; r++) {
      const steps = [];
      for (let i = 0; i < 300; i++) steps.push([i * 0.5, 'b' + i]);
      sink += JSON.stringify(steps).length;
    }
    setTimeout(() => parentPort.postMessage([minor, sink]), 20);
  `;
  return new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true });
    w.once('message', ([minor]: [number]) => {
      void w.terminate();
      resolve(minor);
    });
    w.once('error', reject);
  });
}

// The flags are process-wide: this file runs in its own process (vitest's forks pool), and these tests in order.
describe('tuneEngineGc (bando serve engine threads)', () => {
  it('sets nothing without engine threads', () => {
    expect(tuneEngineGc(0, 2)).toEqual([]);
  });

  it('starts engine threads with a larger young generation: fewer scavenges for the same garbage', async () => {
    const before = await scavengesOfAWorker();
    expect(tuneEngineGc(2, 64)).toEqual([`--min-semi-space-size=${ENGINE_SEMI_SPACE_MB}`]);
    const after = await scavengesOfAWorker();
    expect(before).toBeGreaterThan(10);
    expect(after).toBeLessThan(before * 0.6);
  });

  it('runs scavenges on their own thread only when the JavaScript threads take every core', () => {
    expect(tuneEngineGc(1, 4)).not.toContain('--no-parallel-scavenge');
    expect(tuneEngineGc(2, 2)).toContain('--no-parallel-scavenge');
    expect(tuneEngineGc(3, 4)).toContain('--no-parallel-scavenge');
  });
});
