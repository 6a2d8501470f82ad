/**
 * The web-map resources of engine-api.md as routes of the handler's `resources` extension point: the style
 * `/styles/default/style.json` (one map load), vector tiles `/tiles/{z}/{x}/{y}.pbf`, glyphs
 * `/fonts/{fontstack}/{range}.pbf`, the sprite `/sprites/default{,@2x}.{json,png}`, and the public demo page `/`
 * with its files under `/demo/`. The handler checks the tiles key and counts; these routes only answer.
 */
import { demoFile, DEMO_PATHS, type DemoFile } from '../../map/demo-files.js';
import { parseTileCoords } from '../../map/tiles/coords.js';
import type { TileSource } from '../../map/tiles/source.js';
import { acceptsGzip, gzip } from './gzip.js';
import type { ResourceRoute } from './handler.js';
import { errorReply, toFetchResponse } from './responses.js';

/** Options of {@link createMapResources}. */
export interface MapResourcesOptions {
  /**
   * The demo page and its files: `true` (default) reads them in Node (assets/demo and the installed maplibre-gl),
   * `false` leaves them out (a Service Worker, where they are static files), or a function giving a path's file.
   */
  demo?: boolean | ((path: string) => DemoFile | null);
  /**
   * Reads a shipped asset (`fonts/<font>/<range>.pbf`, `sprites/<name>.<ext>`; paths relative to the package's
   * assets folder) where node:fs is absent: a Service Worker passes a function that fetches (or takes from its cache)
   * the assets it hosts. Default: read them from the package in Node.
   */
  assets?: (relative: string) => Uint8Array | null | Promise<Uint8Array | null>;
  /** Browser cache lifetime of tiles, glyphs and sprites, in seconds. Default 3600. */
  maxAgeSeconds?: number;
  /** Where the style opens the map, [longitude, latitude] degrees. Default: the tile source's view (its data). */
  center?: readonly [number, number];
  /** The style's opening zoom. Default: the tile source's view's. */
  zoom?: number;
  /**
   * The absolute http(s) URL clients reach the service at (`https://maps.example.com`, or with the path a proxy
   * adds), written before the style's tile, glyph and sprite paths. Default none: those URLs are relative to the
   * server's root (`/tiles/{z}/{x}/{y}.pbf?key=…`), and the client resolves them against the style's own URL (the
   * demo page does; MapLibre needs an absolute sprite URL, so a page resolves it with `transformStyle`). The
   * request's Host header is never used: a foreign Host must not reach a style that a cache may keep.
   */
  publicUrl?: string;
}

/** `publicUrl` checked and without its trailing slashes, or an Error naming the option. */
function publicBase(text: string): string {
  let u: URL | null = null;
  try {
    u = new URL(text);
  } catch {
    // Refused below.
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.search || u.hash || u.username || u.password)
    throw new Error(`publicUrl must be an absolute http(s) URL without query, fragment or credentials, got "${text}"`);
  let end = u.href.length;
  while (end > 0 && u.href[end - 1] === '/') end--;
  return u.href.slice(0, end);
}

const STYLE_PATH = '/styles/default/style.json';
const TILE = /^\/tiles\/([^/]+)\/([^/]+)\/([^/]+)\.pbf$/;
const FONT = /^\/fonts\/([^/]+)\/([^/]+)\.pbf$/;
const SPRITE = /^\/sprites\/([^/]+)\.([A-Za-z0-9]+)$/;
const CORS = { 'access-control-allow-origin': '*' } as const;
const PBF = 'application/x-protobuf';

// The style, glyph and sprite code is loaded on the first request that needs it, not when the package is imported.
const styleCode = () => import('../../map/style/default-style.js');
const glyphCode = () => import('../../map/glyphs.js');
const spriteCode = () => import('../../map/sprites.js');

/** A refusal of the error table for a resource request: a bad parameter (400) or a missing file (404). */
const failure = (kind: 'resourceInvalid' | 'resourceMissing', reason: string): Response =>
  toFetchResponse(errorReply(kind, { reason }));

/**
 * The web-map routes over `tiles`. Answers:
 * - style: the default style with its source, glyphs and sprite URLs under `publicUrl` (else relative to the root)
 *   and the request's base path, each carrying the request's tiles key as `?key=`; `Cache-Control: no-store`, so every page load requests it
 *   again and counts as one map load.
 * - tiles: the MVT, gzip-compressed when Accept-Encoding allows; an empty tile (no feature there) is a 200 with an
 *   empty body (a valid MVT with no layers: every client decodes it, caches it, and needs no special case for
 *   204); bad coordinates 400 BAD_REQUEST naming the parameter. Zooms 0–16; the style's source says maxzoom 16 so
 *   clients overzoom beyond.
 * - glyphs (gzip as tiles) and sprite files; a bad range 400, an unknown sprite file 404.
 * - demo files (public routes, no key): `no-cache` so an updated page is picked up.
 * Tiles, glyphs and sprites are `Cache-Control: public, max-age=<maxAgeSeconds>` with `Vary: Accept-Encoding`.
 */
export function createMapResources(source: TileSource, options: MapResourcesOptions = {}): ResourceRoute[] {
  const cache = `public, max-age=${options.maxAgeSeconds ?? 3600}`;
  const publicUrl = options.publicUrl === undefined ? null : publicBase(options.publicUrl);
  const assets = options.assets;
  // gzip of each tile the source's LRU holds (same Uint8Array object on a hit): dropped with it by the GC.
  const zipped = new WeakMap<Uint8Array, Uint8Array>();

  /** A binary answer, gzipped when the client accepts it and the body is not empty. */
  const binary = async (
    request: Request,
    bytes: Uint8Array,
    type: string,
    memo?: WeakMap<Uint8Array, Uint8Array>,
  ): Promise<Response> => {
    const headers: Record<string, string> = {
      ...CORS,
      'content-type': type,
      'cache-control': cache,
      vary: 'accept-encoding',
    };
    let body = bytes;
    if (bytes.byteLength > 0 && acceptsGzip(request.headers.get('accept-encoding'))) {
      let z = memo?.get(bytes);
      if (!z) {
        z = await gzip(bytes);
        memo?.set(bytes, z);
      }
      body = z;
      headers['content-encoding'] = 'gzip';
    }
    return new Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers });
  };

  const routes: ResourceRoute[] = [
    {
      name: 'style',
      mapLoad: true,
      match: (p) => p === STYLE_PATH,
      async handle(_request, url) {
        const { defaultStyle } = await styleCode();
        const base = (publicUrl ?? '') + url.pathname.slice(0, url.pathname.length - STYLE_PATH.length);
        const key = url.searchParams.get('key') ?? url.searchParams.get('api_key') ?? undefined;
        const view = source.view();
        const center = options.center ?? view?.center;
        const zoom = options.zoom ?? view?.zoom;
        return new Response(JSON.stringify(defaultStyle(base, { key, center, zoom })), {
          headers: { ...CORS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        });
      },
    },
    {
      name: 'tiles',
      mapLoad: false,
      match: (p) => TILE.test(p),
      handle(request, url) {
        const [, z, x, y] = TILE.exec(url.pathname.slice(url.pathname.lastIndexOf('/tiles/')))!;
        const c = parseTileCoords(z, x, y);
        if (!c.ok) return failure('resourceInvalid', c.error);
        return binary(request, source.tile(c.z, c.x, c.y) ?? new Uint8Array(0), PBF, zipped);
      },
    },
    {
      name: 'glyphs',
      mapLoad: false,
      match: (p) => FONT.test(p),
      async handle(request, url) {
        const { emptyGlyphRange, glyphFile, glyphs } = await glyphCode();
        const [, stack, range] = FONT.exec(url.pathname.slice(url.pathname.lastIndexOf('/fonts/')))!;
        let fontstack: string;
        try {
          fontstack = decodeURIComponent(stack!);
        } catch {
          return failure('resourceInvalid', 'fontstack is not valid percent-encoded text');
        }
        if (!assets) {
          const g = glyphs(fontstack, range!);
          return g.ok ? binary(request, g.bytes, PBF) : failure('resourceInvalid', g.error);
        }
        const f = glyphFile(fontstack, range!);
        if (!f.ok) return failure('resourceInvalid', f.error);
        return Promise.resolve(assets(f.path)).then((b) => binary(request, b ?? emptyGlyphRange(f.font, f.range), PBF));
      },
    },
    {
      name: 'sprites',
      mapLoad: false,
      match: (p) => SPRITE.test(p),
      async handle(_request, url) {
        const { sprite, spriteFile } = await spriteCode();
        const [, name, ext] = SPRITE.exec(url.pathname.slice(url.pathname.lastIndexOf('/sprites/')))!;
        const answer = (bytes: Uint8Array | null, type: string, error: string) =>
          bytes
            ? new Response(bytes as Uint8Array<ArrayBuffer>, {
                headers: { ...CORS, 'content-type': type, 'cache-control': cache },
              })
            : failure('resourceMissing', error);
        if (!assets) {
          const s = sprite(name!, ext!);
          return s.ok ? answer(s.bytes, s.contentType, '') : failure('resourceMissing', s.error);
        }
        const f = spriteFile(name!, ext!);
        if (!f.ok) return failure('resourceMissing', f.error);
        return Promise.resolve(assets(f.path)).then((b) =>
          answer(b, f.contentType, `sprite file ${f.path} is not where the assets are hosted`),
        );
      },
    },
  ];

  const demo = options.demo ?? true;
  if (demo !== false) {
    const file = demo === true ? demoFile : demo;
    routes.push({
      name: 'demo',
      mapLoad: false,
      public: true,
      match: (p) => DEMO_PATHS.includes(p),
      handle(_request, url) {
        const path = DEMO_PATHS.find((p) => url.pathname.endsWith(p === '/' ? '/' : p))!;
        const f = file(path);
        if (!f)
          return failure(
            'resourceMissing',
            `The demo file ${path} is not installed (assets/demo, node_modules/maplibre-gl).`,
          );
        return new Response(f.bytes as Uint8Array<ArrayBuffer>, {
          headers: { 'content-type': f.contentType, 'cache-control': 'no-cache' },
        });
      },
    });
  }
  return routes;
}
