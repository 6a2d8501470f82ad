import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { routerOf } from '../src/route/router.js';
import { testPack } from './helpers/packs.js';

describe('createEngine chooses the route core', () => {
  const bytes = testPack('dalat');
  const query = { origin: '11.9416,108.4383', destination: '11.9565,108.4419' };

  it('uses the WebAssembly core by default and TypeScript with { wasm: false }, with the same answers', async () => {
    const fast = await createEngine({ packs: [bytes.slice()] });
    const plain = await createEngine({ packs: [bytes.slice()], wasm: false });
    expect(routerOf(fast.regions[0]!).core(0)).toBe('wasm');
    expect(routerOf(plain.regions[0]!).core(0)).toBe('typescript');
    const a = fast.direction(query);
    const b = plain.direction(query);
    expect(a.status).toBe('OK');
    expect(a).toEqual(b);
    const pts = '11.9416,108.4383|11.9565,108.4419|11.93,108.45|11.95,108.42';
    const m = fast.distanceMatrix({ origins: pts, destinations: pts });
    expect(m.status).toBe('OK');
    expect(m).toEqual(plain.distanceMatrix({ origins: pts, destinations: pts }));
  });
});
