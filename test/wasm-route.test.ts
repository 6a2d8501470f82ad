/**
 * Every routing test again, on the WebAssembly core: the core is loaded first, so the routers and engines those
 * test files create (default options) search with it, while their own runs (where nothing loads the core) cover
 * the TypeScript core. In route-ch.test.ts both sides of each comparison (pack hierarchy, A*) then run on the core,
 * against a plain Dijkstra.
 */
import { describe, expect, it } from 'vitest';
import { Pack } from '../src/pack/reader.js';
import { RoadGraph } from '../src/route/graph.js';
import { Router } from '../src/route/router.js';
import { loadWasmCore, wasmModule } from '../src/route/wasm/load.js';
import { testPack } from './helpers/packs.js';

await loadWasmCore();

describe('the WebAssembly core answers the routing tests below', () => {
  it('is loaded and chosen by routers with default options', () => {
    expect(wasmModule()).not.toBeNull();
    const router = new Router(new RoadGraph(Pack.from(testPack('dalat'))));
    expect(router.core(0)).toBe('wasm');
    expect(router.core(1, 'shortest')).toBe('wasm');
  });
});

await import('./route-search.test.js');
await import('./route-rules.test.js');
await import('./route-api.test.js');
await import('./route-ch.test.js');
