import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import { TILE_EXTENT } from '../src/map/tiles/coords.js';
import { createTileSource } from '../src/map/tiles/source.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { findRouteLine } from '../src/api/static-route-image.js';
import { drawBasemap } from '../src/render/map.js';
import { routeViewport } from '../src/render/static-route.js';
import { RenderCache } from '../src/render/render-cache.js';
import { Canvas, Viewport } from '../src/render/raster/index.js';
import { OSM, testPack, type TestRegion } from './helpers/packs.js';
import { osmWater, waterMask, type MercatorView, type OsmWater } from './helpers/water-reference.js';

/** Largest share of a view's pixels on which the engine's water and the raw OSM's may disagree. */
const MAX_DISAGREEMENT = 0.02;

/** The water layer alone, blue on white: a pixel is water when more than half covered. */
const WATER_STYLE = {
  version: 8,
  sources: { bando: { type: 'vector' } },
  layers: [
    { id: 'bg', type: 'background', paint: { 'background-color': '#ffffff' } },
    { id: 'water', type: 'fill', source: 'bando', 'source-layer': 'water', paint: { 'fill-color': '#0000ff' } },
  ],
};
const isBlue = (c: Canvas, i: number): boolean => c.data[4 * i]! < 128 && c.data[4 * i + 3]! > 0;

/** Share of pixels where the engine's mask and the reference mask differ, and the reference's water share. */
function compare(engine: (i: number) => boolean, reference: Uint8Array): { disagree: number; water: number } {
  let differ = 0,
    water = 0;
  for (let i = 0; i < reference.length; i++) {
    if (engine(i) !== (reference[i] === 1)) differ++;
    water += reference[i]!;
  }
  return { disagree: differ / reference.length, water: water / reference.length };
}

const view = (v: Viewport): MercatorView => ({
  zoom: v.zoom,
  left: v.left,
  top: v.top,
  width: v.width,
  height: v.height,
  tileSize: v.tileSize,
});

interface City {
  region: TestRegion;
  file: string;
  /** Static views: [lon, lat] centre, zoom. */
  views: [[number, number], number][];
  /** Tiles at z12–z15 around this point, [lon, lat]. */
  tileCentre: [number, number];
  /** Smallest water share expected in some view (the data has water there), or 0 where it has none. */
  someWater: number;
}

const CITIES: City[] = [
  {
    // Whole HCMC: the Saigon river's multipolygons, canals and lakes cut by the extract's edge.
    region: 'hcmc-city',
    file: 'hcmc-2018-01-01.osm.pbf',
    views: [
      [[106.7, 10.78], 10],
      [[106.7, 10.78], 11],
      [[106.69, 10.79], 12],
      [[106.698, 10.7725], 13],
      [[106.72, 10.77], 14],
      [[106.706, 10.775], 15],
      [[106.698, 10.776], 16],
      [[106.66, 10.8], 14],
      [[106.75, 10.7], 13],
    ],
    tileCentre: [106.7, 10.775],
    someWater: 0.02,
  },
  {
    // Monaco: the sea from the coastline, closed along the extract's edge, with the port's breakwaters.
    region: 'monaco',
    file: 'monaco.osm.pbf',
    views: [
      [[7.42, 43.74], 12],
      [[7.42, 43.735], 13],
      [[7.43, 43.74], 14],
      [[7.425, 43.735], 15],
      [[7.4225, 43.7347], 16],
    ],
    tileCentre: [7.4225, 43.7347],
    someWater: 0.3,
  },
  {
    // Đà Lạt: the inputs are the drive network and tourist points, without Hồ Xuân Hương's polygon: no water may
    // appear around the lake (nothing drawn across the map from a road or a point).
    region: 'dalat',
    file: 'dalat-drive-2026.overpass.json',
    views: [
      [[108.44, 11.94], 13],
      [[108.4415, 11.9405], 15],
    ],
    tileCentre: [108.4415, 11.9405],
    someWater: 0,
  },
];

describe.each(CITIES)('water of $region against the raw OSM', (city) => {
  let region: Region;
  let areas: OsmWater;
  beforeAll(() => {
    region = new Region(Pack.from(testPack(city.region)));
    areas = osmWater(OSM + city.file);
  }, 600_000);

  it('static views at several zooms: the water pixels agree within 2 %', () => {
    const cache = new RenderCache();
    let most = 0;
    for (const [centre, zoom] of city.views) {
      const v = new Viewport(centre, zoom, 640, 480);
      const c = new Canvas(v.width, v.height);
      drawBasemap(c, v, region, WATER_STYLE, cache);
      const { disagree, water } = compare((i) => isBlue(c, i), waterMask(areas, view(v)));
      most = Math.max(most, water);
      expect(disagree, `view ${centre.join(',')} z${zoom} (water ${(water * 100).toFixed(1)} %)`).toBeLessThanOrEqual(
        MAX_DISAGREEMENT,
      );
    }
    expect(most).toBeGreaterThanOrEqual(city.someWater);
  });

  it('the tiles at z12–z15 drawn the same way agree within 2 %', () => {
    const source = createTileSource(region);
    for (let z = 12; z <= 15; z++) {
      const n = 2 ** z;
      const lat = (city.tileCentre[1] * Math.PI) / 180;
      const x = Math.floor(((city.tileCentre[0] + 180) / 360) * n);
      const y = Math.floor(((1 - Math.asinh(Math.tan(lat)) / Math.PI) / 2) * n);
      const size = 512;
      const c = new Canvas(size, size);
      c.fillBackground([255, 255, 255, 1]);
      const bytes = source.tile(z, x, y);
      const layer = bytes ? new VectorTile(new PbfReader(bytes)).layers.water : undefined;
      for (let k = 0; k < (layer?.length ?? 0); k++) {
        const rings = layer!
          .feature(k)
          .loadGeometry()
          .map((ring) =>
            Float64Array.from(ring.flatMap((p) => [(p.x * size) / TILE_EXTENT, (p.y * size) / TILE_EXTENT])),
          );
        c.fillPolygon(rings, [0, 0, 255, 1]);
      }
      const ref = waterMask(areas, {
        zoom: z,
        left: x * size,
        top: y * size,
        width: size,
        height: size,
        tileSize: size,
      });
      const { disagree, water } = compare((i) => isBlue(c, i), ref);
      expect(disagree, `tile ${z}/${x}/${y} (water ${(water * 100).toFixed(1)} %)`).toBeLessThanOrEqual(
        MAX_DISAGREEMENT,
      );
    }
  });
});

describe('the static route image of whole HCMC', () => {
  it('paints water colour only where the raw OSM has water (the routes of issue 37)', async () => {
    const engine = await createEngine({ packs: [testPack('hcmc-city')] });
    const areas = osmWater(`${OSM}hcmc-2018-01-01.osm.pbf`);
    const origin = { lat: 10.7725, lng: 106.698 };
    for (const destination of [
      { lat: 10.8185, lng: 106.6588 },
      { lat: 10.7798, lng: 106.699 },
    ]) {
      const query = { origin: '10.7725,106.6980', destination: `${destination.lat},${destination.lng}` };
      const png = await engine.staticRoute({ ...query, width: 800, height: 600 });
      expect(png).toBeInstanceOf(Uint8Array);
      const img = PNG.sync.read(Buffer.from(png as Uint8Array));
      // The view the engine fitted to its route, to rasterise the raw OSM water in.
      const found = findRouteLine(engine.regions, { origin, destination, vehicle: 'car', type: 'fastest' });
      if ('status' in found) throw new Error(found.error_message);
      const ref = waterMask(areas, view(routeViewport(found.line, 800, 600)));
      // Pixels in the water colour (#aad3f0) where the raw OSM has land: roads and labels may hide water, but
      // water may not appear on land.
      let flooded = 0;
      for (let i = 0; i < ref.length; i++) {
        const [r, g, b] = [img.data[4 * i]!, img.data[4 * i + 1]!, img.data[4 * i + 2]!];
        if (ref[i] === 0 && Math.abs(r - 0xaa) <= 2 && Math.abs(g - 0xd3) <= 2 && Math.abs(b - 0xf0) <= 2) flooded++;
      }
      expect(flooded / ref.length, query.destination).toBeLessThanOrEqual(MAX_DISAGREEMENT);
    }
  }, 600_000);
});
