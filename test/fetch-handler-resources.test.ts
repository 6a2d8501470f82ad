import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { createFetchHandler } from '../src/adapters/http/handler.js';
import { createWorkerEngine } from '../src/adapters/worker/client.js';
import { createMapResources } from '../src/adapters/http/map-resources.js';
import { createTileSource } from '../src/map/tiles/source.js';

const engine = await createEngine();
const keys = [
  { key: 'map', kind: 'tiles' as const },
  { key: 'rest', kind: 'rest' as const },
];
const [minLon, minLat, maxLon, maxLat] = engine.regions[0]!.meta.bbox!;

/** The z/x/y of the tile holding the pack's centre (slippy-map tile numbering, computed here). */
function centreTile(z: number): [number, number, number] {
  const lon = (minLon + maxLon) / 2,
    lat = (minLat + maxLat) / 2,
    n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const y = Math.floor(((1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2) * n);
  return [z, x, y];
}

describe('createFetchHandler serves the web-map resources by default', () => {
  const handler = createFetchHandler(engine, { keys });
  const get = (path: string) => handler(new Request(`https://maps.example${path}`));

  it('the style, with its tile URLs relative to the root carrying the key, counts as a map load', async () => {
    const res = await get('/styles/default/style.json?key=map');
    expect(res.status).toBe(200);
    const style = (await res.json()) as { version: number; sources: Record<string, { tiles?: string[] }> };
    expect(style.version).toBe(8);
    const tiles = Object.values(style.sources).flatMap((s) => s.tiles ?? []);
    expect(tiles.length).toBeGreaterThan(0);
    for (const t of tiles) expect(t).toMatch(/^\/tiles\/\{z\}\/\{x\}\/\{y\}\.pbf\?key=map$/);
  });

  it('style URLs come from publicUrl or are relative, never from the Host (issue 39)', async () => {
    const urls = async (h: ReturnType<typeof createFetchHandler>, url: string) => {
      const style = (await (await h(new Request(url))).json()) as {
        sprite: string;
        glyphs: string;
        sources: Record<string, { tiles?: string[] }>;
      };
      return [style.sprite, style.glyphs, ...Object.values(style.sources).flatMap((s) => s.tiles ?? [])];
    };
    // A request the runtime built from a foreign Host header.
    for (const u of await urls(handler, 'https://evil.example/styles/default/style.json?key=map')) {
      expect(u).toMatch(/^\/(sprites|fonts|tiles)\//);
      expect(u).not.toContain('evil');
    }
    const pub = createFetchHandler(engine, {
      keys,
      basePath: '/v1',
      resources: createMapResources(createTileSource(engine.regions), { publicUrl: 'https://maps.example.com/' }),
    });
    for (const u of await urls(pub, 'https://evil.example/v1/styles/default/style.json?key=map'))
      expect(u).toMatch(/^https:\/\/maps\.example\.com\/v1\/(sprites|fonts|tiles)\//);
    for (const bad of ['maps.example.com', 'ftp://x/', 'https://x/?a=1', 'https://u:p@x/'])
      expect(() => createMapResources(createTileSource(engine.regions), { publicUrl: bad })).toThrow(
        /publicUrl must be an absolute http\(s\) URL/,
      );
  });

  it('a vector tile of the pack, with the same key rules as bando serve', async () => {
    const [z, x, y] = centreTile(14);
    const res = await get(`/tiles/${z}/${x}/${y}.pbf?key=map`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-protobuf');
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
    expect((await get(`/tiles/${z}/${x}/${y}.pbf`)).status).toBe(403);
    expect((await get(`/tiles/${z}/${x}/${y}.pbf?key=rest`)).status).toBe(403);
  });

  it('resources: [] turns them off; a worker engine (no regions here) has none by default', async () => {
    const off = createFetchHandler(engine, { keys, resources: [] });
    expect((await off(new Request('https://maps.example/styles/default/style.json?key=map'))).status).toBe(404);
    const remote = createWorkerEngine({
      postMessage() {},
      addEventListener() {},
      removeEventListener() {},
      terminate() {},
    } as never);
    const viaWorker = createFetchHandler(remote, { keys });
    expect((await viaWorker(new Request('https://maps.example/styles/default/style.json?key=map'))).status).toBe(404);
    remote.terminate();
  });
});
