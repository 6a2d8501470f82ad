import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { KIND_INDEX } from '../src/map/kinds.js';
import { defaultStyle } from '../src/map/style/default-style.js';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { drawBasemap } from '../src/render/map.js';
import { RenderCache } from '../src/render/render-cache.js';
import { Canvas, Viewport } from '../src/render/raster/index.js';
import { ADMIN, testPack } from './helpers/packs.js';

type Polygon = number[][][];
interface Ward {
  name: string;
  polygons: Polygon[];
}

/** Even-odd point in polygon (rings of [lon, lat]). */
const inside = (lon: number, lat: number, rings: Polygon): boolean => {
  let c = false;
  for (const r of rings) {
    for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
      const [xi, yi] = r[i]!,
        [xj, yj] = r[j]!;
      if (yi! > lat !== yj! > lat && lon < ((xj! - xi!) * (lat - yi!)) / (yj! - yi!) + xi!) c = !c;
    }
  }
  return c;
};

/** Old and new tone-mark placement are one spelling ("Hoà" and "Hòa"): the two official files differ in it. */
const TONES: Record<string, string> = {
  oà: 'òa',
  oá: 'óa',
  oả: 'ỏa',
  oã: 'õa',
  oạ: 'ọa',
  uỳ: 'ùy',
  uý: 'úy',
  uỷ: 'ủy',
  uỹ: 'ũy',
  uỵ: 'ụy',
};
/**
 * The name as compared: tone marks placed one way, and without the type word, on which the communes list and the
 * newer boundary export differ for a few units (Trảng Bom: "Xã" in one, "Phường" in the other; Đồng Nai: "Tỉnh" in
 * one, "Thành phố" in the other).
 */
const spelling = (s: string) =>
  s
    .normalize('NFC')
    .replace(/o[àáảãạ]|u[ỳýỷỹỵ]/g, (m) => TONES[m] ?? m)
    .replace(/^(Phường|Xã|Đặc khu|Thị trấn|Tỉnh|Thành phố) /, '');

let region: Region;
let official: Ward[];
beforeAll(() => {
  region = new Region(Pack.from(testPack('hcmc-city')));
  const geo = JSON.parse(
    gunzipSync(readFileSync(`${ADMIN}vn-2025-boundaries/wards-2025.geojson.gz`)).toString('utf8'),
  ) as { features: { properties: { full_name: string }; geometry: { type: string; coordinates: unknown } }[] };
  official = geo.features.map((f) => ({
    name: f.properties.full_name,
    polygons:
      f.geometry.type === 'Polygon' ? [f.geometry.coordinates as Polygon] : (f.geometry.coordinates as Polygon[]),
  }));
}, 600_000);

describe('2025 ward labels of whole HCMC', () => {
  it('name every ward of the pack at a point inside its official polygon', () => {
    const b = region.basemap!;
    const labels: { name: string; lon: number; lat: number }[] = [];
    for (let f = 0; f < b.count; f++) {
      if (b.kind[f] !== KIND_INDEX['place/ward']) continue;
      const [lon, lat] = b.partCoords(b.featPart.at(f));
      labels.push({ name: region.strings.get(b.name[f]!), lon: lon! / 1e7, lat: lat! / 1e7 });
    }
    expect(labels.length).toBe(region.wards!.count);
    expect(labels.length).toBeGreaterThan(150);
    for (const l of labels) {
      // Checked against the raw official polygons: the ward that holds the label point has the label's name.
      const holders = official.filter((w) => w.polygons.some((p) => inside(l.lon, l.lat, p)));
      expect(
        holders.map((w) => spelling(w.name)),
        `${l.name} at ${l.lat},${l.lon}`,
      ).toContain(spelling(l.name));
    }
    expect(labels.map((l) => l.name)).toContain('Phường Bến Thành');
  });

  it('name every 2025 province of the pack once, at a point inside its official polygon', () => {
    const geo = JSON.parse(
      gunzipSync(readFileSync(`${ADMIN}vn-2025-boundaries/provinces-2025.geojson.gz`)).toString('utf8'),
    ) as { features: { properties: { full_name: string }; geometry: { type: string; coordinates: unknown } }[] };
    const provinces: Ward[] = geo.features.map((f) => ({
      name: f.properties.full_name,
      polygons:
        f.geometry.type === 'Polygon' ? [f.geometry.coordinates as Polygon] : (f.geometry.coordinates as Polygon[]),
    }));
    const b = region.basemap!;
    const labels: { name: string; lon: number; lat: number }[] = [];
    for (let f = 0; f < b.count; f++) {
      if (b.kind[f] !== KIND_INDEX['place/province']) continue;
      const [lon, lat] = b.partCoords(b.featPart.at(f));
      labels.push({ name: region.strings.get(b.name[f]!), lon: lon! / 1e7, lat: lat! / 1e7 });
    }
    expect(labels.map((l) => l.name)).toContain('Thành phố Hồ Chí Minh');
    expect(new Set(labels.map((l) => l.name)).size).toBe(labels.length);
    for (const l of labels) {
      const holders = provinces.filter((p) => p.polygons.some((poly) => inside(l.lon, l.lat, poly)));
      expect(
        holders.map((p) => spelling(p.name)),
        `${l.name} at ${l.lat},${l.lon}`,
      ).toContain(spelling(l.name));
    }
  });

  it('the default style labels the 2025 wards, not the extract\u2019s legacy units', () => {
    const style = defaultStyle('https://x') as { layers: { id: string }[] };
    const placeOnly = { ...style, layers: style.layers.filter((l) => l.id === 'place-label') };
    const view = new Viewport([106.69, 10.785], 13, 800, 600);
    const drawn = drawBasemap(new Canvas(800, 600), view, region, placeOnly, new RenderCache());
    const b = region.basemap!;
    const points = (kind: string) => {
      const out: [number, number][] = [];
      for (let f = 0; f < b.count; f++) {
        if (b.kind[f] !== KIND_INDEX[kind]) continue;
        const [lon, lat] = b.partCoords(b.featPart.at(f));
        out.push([view.x(lon! / 1e7), view.y(lat! / 1e7)]);
      }
      return out;
    };
    const wards = points('place/ward');
    // The extract has legacy units ("Phường 12", "Quận 10") as place nodes in this view; none of them is labelled.
    const legacy = ['place/suburb', 'place/quarter', 'place/neighbourhood']
      .flatMap(points)
      .filter(([x, y]) => x > 0 && y > 0 && x < 800 && y < 600);
    expect(legacy.length).toBeGreaterThan(10);
    expect(drawn.labels.length).toBeGreaterThan(10);
    for (const l of drawn.labels) {
      const near = Math.min(...wards.map(([x, y]) => Math.hypot(x - l.cx, y - l.cy)));
      expect(near, `label at ${l.cx},${l.cy}`).toBeLessThan(2);
    }
  });
});
