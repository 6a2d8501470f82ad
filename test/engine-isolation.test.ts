import { describe, expect, it } from 'vitest';
import { Engine, createEngine } from '../src/engine.js';
import { defaultStyle } from '../src/map/style/default-style.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { routerOf } from '../src/route/router.js';
import { testPack } from './helpers/packs.js';

describe('engines built on the same regions keep their state apart', () => {
  const query = { origin: '11.9416,108.4383', destination: '11.9565,108.4419' };

  it('{ wasm: false } on one engine leaves another on the same regions on the WebAssembly core', async () => {
    // createEngine loads the core; both engines then share one Region object.
    const first = await createEngine({ packs: [testPack('dalat').slice()] });
    const shared = first.regions;
    const fast = new Engine(shared);
    expect(routerOf(fast.regions[0]!).core(0)).toBe('wasm');
    const plain = new Engine(shared, { wasm: false });
    expect(routerOf(plain.regions[0]!).core(0)).toBe('typescript');
    expect(routerOf(fast.regions[0]!).core(0)).toBe('wasm');
    expect(routerOf(first.regions[0]!).core(0)).toBe('wasm');
    expect(fast.info().packs[0]!.routeCore).toEqual({ core: 'wasm', reason: null });
    expect(plain.info().packs[0]!.routeCore).toEqual({
      core: 'typescript',
      reason: 'WebAssembly turned off (wasm: false)',
    });
    // Each engine has its own router (and so its own search state and WebAssembly instance).
    expect(routerOf(fast.regions[0]!)).not.toBe(routerOf(plain.regions[0]!));
    expect(plain.direction(query)).toEqual(fast.direction(query));
  });

  it('a failed WebAssembly call is recorded: info() names the error, and only that engine falls back', async () => {
    const region = new Region(Pack.from(testPack('dalat').slice()));
    await createEngine({ packs: [testPack('dalat').slice()] }); // the core loaded
    const broken = new Engine([region]);
    const healthy = new Engine([region]);
    const router = routerOf(broken.regions[0]!);
    // Make instantiating the core for this router fail as a memory that cannot grow does: a real
    // WebAssembly.Instance over a module whose memory import cannot be satisfied.
    const bad = new WebAssembly.Module(
      // (module (import "m" "mem" (memory 1)))
      new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 2, 10, 1, 1, 109, 3, 109, 101, 109, 2, 0, 1]),
    );
    const original = WebAssembly.Instance;
    try {
      // Only this router's first core set-up (a fresh router: no instance yet) runs while the stand-in is installed.
      (WebAssembly as { Instance: unknown }).Instance = function () {
        return new original(bad, {});
      };
      expect(router.core(0)).toBe('typescript');
    } finally {
      (WebAssembly as { Instance: unknown }).Instance = original;
    }
    const core = broken.info().packs[0]!.routeCore;
    expect(core.core).toBe('typescript');
    expect(core.reason).toMatch(/^a WebAssembly call failed: .+/);
    expect(healthy.info().packs[0]!.routeCore).toEqual({ core: 'wasm', reason: null });
    expect(routerOf(healthy.regions[0]!).core(0)).toBe('wasm');
    expect(broken.direction(query)).toEqual(healthy.direction(query));
  });

  it('render caches, place state and turn bearings are each engine’s own; styles and limits apply per engine', async () => {
    const region = new Region(Pack.from(testPack('dalat').slice()));
    const plainStyle = defaultStyle('http://localhost');
    // The same style with every road line red: a second engine on the same region draws with it.
    const redStyle = JSON.parse(JSON.stringify(plainStyle));
    for (const l of redStyle.layers)
      if (l['source-layer'] === 'road' && l.type === 'line') l.paint = { ...l.paint, 'line-color': '#ff0000' };
    const plain = new Engine([region], { style: plainStyle });
    const red = new Engine([region], { style: redStyle, limits: { imageSize: 300 } });
    const image = { ...query, width: 300, height: 200 };

    const before = await plain.staticRoute(image);
    const redImage = await red.staticRoute(image);
    expect(before).toBeInstanceOf(Uint8Array);
    expect(redImage).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(redImage as Uint8Array).equals(Buffer.from(before as Uint8Array))).toBe(false);
    // Drawing with the other style on the same region changes nothing of the first engine's image.
    expect(Buffer.from((await plain.staticRoute(image)) as Uint8Array)).toEqual(Buffer.from(before as Uint8Array));
    // Limits are the engine's: 400 pixels is over the second engine's image limit only.
    expect(await red.staticRoute({ ...image, width: 400 })).toMatchObject({ status: 'BAD_REQUEST' });
    expect(await plain.staticRoute({ ...image, width: 400 })).toBeInstanceOf(Uint8Array);

    // Place state: built per engine over its own region views.
    expect(plain.places).not.toBe(red.places);
    expect(plain.places.packs).toEqual(plain.regions.filter((r) => r.places && r.places.count > 0));
    expect(red.geocode({ latlng: '11.9416,108.4383' })).toEqual(plain.geocode({ latlng: '11.9416,108.4383' }));

    // Turn bearings: one copy per engine's router, shared by its vehicles, equal in content across engines.
    const bearings = (e: Engine, profile: number) => routerOf(e.regions[0]!).context(profile).costs.bearings();
    expect(bearings(plain, 0)).toBe(bearings(plain, 1));
    expect(bearings(plain, 0)).not.toBe(bearings(red, 0));
    expect(bearings(plain, 0)).toEqual(bearings(red, 0));
  });
});
