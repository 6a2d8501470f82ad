/**
 * GeoJSON inputs to the pack builder (issue 35): features as places. The real Đà Lạt tourist POIs (the simple form:
 * name_vi, name_en, category, osm_id) are read as the file gives them and found by their names in the dalat test pack;
 * every geometry type places its feature at its point or the mean of its positions; OSM-style properties are tags; a
 * feature naming an OSM element merges with that element of the other inputs (also one of a PBF, whose nodes come in a
 * second pass) instead of making a second place; unusable features and files that are not GeoJSON fail with the file,
 * the feature and the reason named.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOsmPack } from '../data-tools/build-pack.js';
import { readOsmFile } from '../data-tools/osm/read.js';
import type { ElementRef, OsmSink, Tags } from '../data-tools/osm/types.js';
import { createEngine } from '../src/engine.js';
import { haversine } from '../src/geo.js';
import { OSM, testPack } from './helpers/packs.js';
import { packPlaces, type PackPlace } from './helpers/pack-places.js';

const POIS = `${OSM}dalat-tourist-pois.geojson`;
const tmp = mkdtempSync(join(tmpdir(), 'geojson-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Keeps the features a reader gives; OSM elements are not expected from GeoJSON. */
class FeatureSink implements OsmSink {
  features: { element: ElementRef | null; lat: number; lon: number; tags: Tags }[] = [];
  node(): void {
    throw new Error('a GeoJSON input gave a node');
  }
  way(): void {
    throw new Error('a GeoJSON input gave a way');
  }
  relation(): void {
    throw new Error('a GeoJSON input gave a relation');
  }
  feature(element: ElementRef | null, lat: number, lon: number, tags: Tags): void {
    this.features.push({ element, lat, lon, tags });
  }
}

/** Writes a GeoJSON document (or any text) to a temporary file and returns its path. */
function file(name: string, content: unknown): string {
  const path = join(tmp, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const collection = (...features: unknown[]) => ({ type: 'FeatureCollection', features });
const feature = (geometry: unknown, properties: unknown, extra: object = {}) => ({
  type: 'Feature',
  ...extra,
  geometry,
  properties,
});
const point = (lon: number, lat: number) => ({ type: 'Point', coordinates: [lon, lat] });

interface RawPoi {
  geometry: { type: string; coordinates: [number, number] };
  properties: { osm_id: string | null; name_vi: string; name_en: string | null; category: string };
}
const rawPois = (): RawPoi[] => (JSON.parse(readFileSync(POIS, 'utf8')) as { features: RawPoi[] }).features;

describe('reading GeoJSON', () => {
  it('reads the 25 Đà Lạt POIs as the file gives them: point, names, OSM id, kind', () => {
    const raw = rawPois();
    const sink = new FeatureSink();
    expect(readOsmFile(POIS, sink)).toEqual({ format: 'geojson' });
    expect(raw).toHaveLength(25);
    expect(sink.features).toHaveLength(25);
    raw.forEach((f, i) => {
      const got = sink.features[i]!;
      expect([got.lon, got.lat]).toEqual(f.geometry.coordinates);
      expect(got.tags['name:vi']).toBe(f.properties.name_vi);
      expect(got.tags['name:en']).toBe(f.properties.name_en ?? undefined);
      const [type, id] = f.properties.osm_id?.split('/') ?? [];
      expect(got.element).toEqual(f.properties.osm_id ? { type, id: Number(id) } : null);
      // Null properties (opening_hours of most) are not tags; the identifiers are not tags either.
      expect(Object.values(got.tags).every((v) => typeof v === 'string' && v !== '')).toBe(true);
      expect(got.tags.osm_id).toBeUndefined();
    });
    // The simple form's kinds as OSM tags (SIMPLE_CATEGORIES).
    const byName = new Map(sink.features.map((f) => [f.tags['name:vi'], f.tags]));
    expect(byName.get('Bảo tàng Lâm Đồng')!.tourism).toBe('museum');
    expect(byName.get('Chợ Đà Lạt')!.amenity).toBe('marketplace');
    expect(byName.get('Hồ Tuyền Lâm')).toMatchObject({ natural: 'water', water: 'lake' });
    expect(byName.get('Thác Datanla')!.natural).toBe('waterfall');
    expect(byName.get('Nhà thờ Cam Ly')!.amenity).toBe('place_of_worship');
  });

  it('places every geometry type at its point, or the mean of its distinct positions (outer rings only)', () => {
    const [x, y] = [108.4, 11.9]; // Đà Lạt
    const square = [
      [x, y],
      [x + 0.02, y],
      [x + 0.02, y + 0.02],
      [x, y + 0.02],
      [x, y],
    ];
    const hole = [
      [x + 0.001, y + 0.001],
      [x + 0.002, y + 0.001],
      [x + 0.001, y + 0.001],
    ];
    const named = (name: string) => ({ name, tourism: 'attraction' });
    const path = file(
      'geometries.geojson',
      collection(
        feature(point(x, y), named('point')),
        feature({ type: 'Point', coordinates: [x, y, 1500] }, named('point with altitude')),
        feature(
          {
            type: 'MultiPoint',
            coordinates: [
              [x, y],
              [x + 0.02, y + 0.04],
              [x, y],
            ],
          },
          named('multipoint'),
        ),
        feature(
          {
            type: 'LineString',
            coordinates: [
              [x, y],
              [x + 0.01, y],
              [x + 0.03, y],
            ],
          },
          named('line'),
        ),
        feature({ type: 'MultiLineString', coordinates: [[[x, y]], [[x, y + 0.03]]] }, named('lines')),
        feature({ type: 'Polygon', coordinates: [square, hole] }, named('polygon with a hole')),
        feature(
          {
            type: 'MultiPolygon',
            coordinates: [
              [square],
              [
                [
                  [x + 0.1, y],
                  [x + 0.1, y + 0.1],
                  [x + 0.1, y],
                ],
              ],
            ],
          },
          named('two polygons'),
        ),
        feature(
          {
            type: 'GeometryCollection',
            geometries: [point(x, y), { type: 'LineString', coordinates: [[x, y + 0.02]] }],
          },
          named('collection'),
        ),
      ),
    );
    const sink = new FeatureSink();
    readOsmFile(path, sink);
    const at = Object.fromEntries(sink.features.map((f) => [f.tags.name, [f.lon, f.lat]]));
    const close = (name: string, lon: number, lat: number) => {
      expect(at[name]![0], name).toBeCloseTo(lon, 9);
      expect(at[name]![1], name).toBeCloseTo(lat, 9);
    };
    close('point', x, y);
    close('point with altitude', x, y);
    close('multipoint', x + 0.01, y + 0.02); // the repeated position counts once
    close('line', x + 0.04 / 3, y);
    close('lines', x, y + 0.015);
    close('polygon with a hole', x + 0.01, y + 0.01); // four distinct corners; the hole does not count
    close('two polygons', (4 * x + 0.04 + 2 * (x + 0.1)) / 6, (4 * y + 0.04 + y + y + 0.1) / 6);
    close('collection', x, y + 0.01);
  });

  it('reads OSM-style properties as tags, and the OSM element in each written form', () => {
    const path = file(
      'properties.geojson',
      collection(
        feature(point(105.85, 21.03), {
          name: 'Quán A',
          'name:en': 'A Eatery',
          amenity: 'restaurant',
          'addr:housenumber': 12,
          'building:levels': 3,
          wheelchair: true,
          outdoor_seating: false,
          note: null,
          '@id': 'node/42',
          '@timestamp': '2024-01-01',
          '@relations': [{ role: 'x' }],
          category: 'museum', // the OSM tag written beside it (amenity) stays, the mapped tourism=museum joins it
        }),
        feature(point(105.85, 21.03), { name_vi: 'Chùa B', name: 'Chùa Bê', category: 'Religious' }, { id: 'way/7' }),
        feature(point(105.85, 21.03), { name_en: 'C', osm_id: 9, osm_type: 'R', category: 'spa' }),
        feature(point(105.85, 21.03), { tags: { name: 'D', shop: 'bakery' }, osm_id: '11', osm_type: 'node' }),
        feature(point(105.85, 21.03), { 'addr:housenumber': '5A', 'addr:street': 'Phố Huế' }, { id: 17 }),
      ),
    );
    const sink = new FeatureSink();
    readOsmFile(path, sink);
    expect(sink.features.map((f) => f.element)).toEqual([
      { type: 'node', id: 42 },
      { type: 'way', id: 7 },
      { type: 'relation', id: 9 },
      { type: 'node', id: 11 },
      null,
    ]);
    expect(sink.features.map((f) => f.tags)).toEqual([
      {
        tourism: 'museum',
        name: 'Quán A',
        'name:en': 'A Eatery',
        amenity: 'restaurant',
        'addr:housenumber': '12',
        'building:levels': '3',
        wheelchair: 'yes',
        outdoor_seating: 'no',
      },
      // name_vi is name:vi; `name` stays the name; the category compares in lower case.
      { 'name:vi': 'Chùa B', name: 'Chùa Bê', amenity: 'place_of_worship' },
      // A kind the table does not know stays an unused tag.
      { 'name:en': 'C', category: 'spa' },
      { name: 'D', shop: 'bakery' },
      { 'addr:housenumber': '5A', 'addr:street': 'Phố Huế' },
    ]);
  });

  it('reads a single Feature, a byte-order mark and an empty collection', () => {
    const one = new FeatureSink();
    readOsmFile(file('one.json', '\ufeff' + JSON.stringify(feature(point(106.7, 10.77), { name: 'X' }))), one);
    expect(one.features.map((f) => [f.tags.name, f.lat, f.lon])).toEqual([['X', 10.77, 106.7]]);
    const none = new FeatureSink();
    expect(readOsmFile(file('empty.geojson', collection()), none)).toEqual({ format: 'geojson' });
    expect(none.features).toEqual([]);
  });
});

describe('unusable GeoJSON', () => {
  it('fails the file with every unusable feature named by index, id and reason, and gives the sink none', () => {
    const good = feature(point(108.44, 11.94), { name: 'Good' });
    const path = file(
      'broken.geojson',
      collection(
        good,
        feature(null, { name: 'Nowhere' }, { id: 'DL01' }),
        feature({ type: 'Circle', coordinates: [108.44, 11.94] }, { name: 'Round' }),
        feature({ type: 'Point', coordinates: ['108.44', '11.94'] }, { name: 'Text' }),
        feature(point(11.94, 108.44), { name_vi: 'Swapped', osm_id: 'node/5' }),
        feature(point(108.44, 11.94), { category: 'museum' }, { id: 7 }),
        feature(point(108.44, 11.94), { name: 'Bad id', osm_id: 'place/5' }),
        feature(point(108.44, 11.94), { name: 'No type', osm_id: 5 }),
        feature({ type: 'Polygon', coordinates: [] }, { name: 'Empty' }),
        feature({ type: 'LineString', coordinates: [[108.44]] }, { name: 'Short' }),
        feature(point(108.44, 11.94), ['name']),
        'a string',
        { type: 'Point', coordinates: [108.44, 11.94] },
      ),
    );
    const sink = new FeatureSink();
    let message = '';
    try {
      readOsmFile(path, sink);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(sink.features).toEqual([]);
    expect(message).toContain(`${path}: 12 of 13 GeoJSON features cannot be places:`);
    for (const line of [
      'feature 1 (id "DL01", "Nowhere") has no geometry',
      'feature 2 ("Round") has a geometry of type "Circle", which GeoJSON does not have',
      'feature 3 ("Text") has a position that is not [longitude, latitude] (["108.44","11.94"])',
      'feature 4 (osm_id "node/5", "Swapped") has a position out of range, [11.94,108.44] (GeoJSON positions are [longitude, latitude] in degrees)',
      'feature 5 (id 7) has no name and no house number',
      'feature 6 (osm_id "place/5", "Bad id") has osm_id "place/5", not "node/…", "way/…" or "relation/…"',
      'feature 7 (osm_id 5, "No type") has osm_id 5 without an osm_type of node, way or relation',
      'feature 8 ("Empty") has a geometry without positions',
      'feature 9 ("Short") has a position that is not [longitude, latitude] ([108.44])',
      'feature 10 has "properties" that are not an object',
      'feature 11 is not a GeoJSON Feature',
      'feature 12 is not a GeoJSON Feature',
    ])
      expect(message).toContain(`\n  ${line}`);
  });

  it('lists at most 20 unusable features', () => {
    const many = Array.from({ length: 30 }, (_, i) => feature(point(200, 10), { name: `P${i}` }));
    expect(() => readOsmFile(file('many.geojson', collection(...many)), new FeatureSink())).toThrow(
      /30 of 30 GeoJSON features cannot be places:(\n {2}feature \d+ .*){20}\n {2}… and 10 more$/,
    );
  });

  it('refuses files that are not GeoJSON with the file named', () => {
    const cases: [string, string, RegExp][] = [
      ['garbage.geojson', '\u0000\u0001 not json', /garbage\.geojson: not valid JSON/],
      ['truncated.geojson', '{"type": "FeatureCollection", "features": [', /truncated\.geojson: not valid JSON/],
      ['array.geojson', '[{"type": "Feature"}]', /array\.geojson: neither Overpass JSON .* nor GeoJSON/],
      ['object.json', '{"features": []}', /object\.json: neither Overpass JSON \(no "elements" array\) nor GeoJSON/],
      [
        'topo.json',
        '{"type": "Topology", "objects": {}}',
        /topo\.json: not a GeoJSON FeatureCollection or Feature \(its type is "Topology"\)/,
      ],
      [
        'point.geojson',
        JSON.stringify(point(106.7, 10.77)),
        /point\.geojson: not a GeoJSON FeatureCollection or Feature \(its type is "Point"\)/,
      ],
      [
        'nofeatures.geojson',
        '{"type": "FeatureCollection"}',
        /nofeatures\.geojson: a GeoJSON FeatureCollection without a "features" array/,
      ],
      [
        'features.geojson',
        '{"type": "FeatureCollection", "features": {}}',
        /features\.geojson: a GeoJSON FeatureCollection without a "features" array/,
      ],
    ];
    for (const [name, text, error] of cases)
      expect(() => readOsmFile(file(name, text), new FeatureSink()), name).toThrow(error);
  });

  it('never lets anything but an error naming the file out, whatever the features hold', () => {
    const path = join(tmp, 'fuzz.geojson');
    const position = fc.oneof(
      fc.tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true })),
      fc.array(fc.oneof(fc.double(), fc.string(), fc.constant(null)), { maxLength: 3 }),
    );
    const geometry = fc.oneof(
      fc.record({ type: fc.constantFrom('Point'), coordinates: position }),
      fc.record({
        type: fc.constantFrom('MultiPoint', 'LineString', 'Polygon', 'MultiPolygon', 'MultiLineString', 'Hexagon'),
        coordinates: fc.array(fc.oneof(position, fc.array(position, { maxLength: 3 })), { maxLength: 4 }),
      }),
      fc.record({ type: fc.constant('GeometryCollection'), geometries: fc.jsonValue() }),
      fc.jsonValue(),
    );
    const properties = fc.oneof(
      fc.dictionary(
        fc.constantFrom(
          'name',
          'name_vi',
          'name_en',
          'category',
          'osm_id',
          'osm_type',
          '@id',
          'tags',
          'addr:housenumber',
          'constructor',
          '__proto__',
        ),
        fc.jsonValue(),
      ),
      fc.jsonValue(),
    );
    const feat = fc.oneof(
      fc.record({ type: fc.constant('Feature'), geometry, properties, id: fc.jsonValue() }, { requiredKeys: ['type'] }),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.array(feat, { maxLength: 6 }), (features) => {
        writeFileSync(path, JSON.stringify(collection(...features)));
        const sink = new FeatureSink();
        try {
          readOsmFile(path, sink);
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
          expect((e as Error).message.startsWith(`${path}: `)).toBe(true);
          expect(sink.features).toEqual([]);
          return;
        }
        // Read: every feature is a place with a point in range and a name or a house number.
        expect(sink.features).toHaveLength(features.length);
        for (const f of sink.features) {
          expect(Math.abs(f.lat) <= 90 && Math.abs(f.lon) <= 180).toBe(true);
          expect(Object.values(f.tags).every((v) => typeof v === 'string')).toBe(true);
        }
      }),
      { seed: 35, numRuns: 2000 },
    );
  });
});

/** The places of a pack built (without hierarchies or admin units: quick) from the inputs: all, and by element. */
function placesOf(inputs: string[]): { all: PackPlace[]; of: (element: string) => PackPlace[] } {
  const all = packPlaces(buildOsmPack({ inputs, name: 'geojson-test', hierarchies: false }));
  return { all, of: (element) => all.filter((p) => p.element === element) };
}

describe('GeoJSON features merged with the OSM elements they name', () => {
  // A small OSM file: a café node, a building way, a road through both sides; all in central Hanoi.
  const osm = `<?xml version="1.0"?><osm version="0.6">
    <node id="1" lat="21.0300" lon="105.8500"><tag k="amenity" v="cafe"/><tag k="name" v="Cà phê Một"/><tag k="addr:housenumber" v="3"/></node>
    <node id="2" lat="21.0310" lon="105.8510"/><node id="3" lat="21.0310" lon="105.8520"/>
    <node id="4" lat="21.0320" lon="105.8520"/><node id="5" lat="21.0320" lon="105.8510"/>
    <node id="6" lat="21.0290" lon="105.8490"/><node id="7" lat="21.0290" lon="105.8530"/>
    <way id="10"><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="5"/><nd ref="2"/><tag k="building" v="yes"/><tag k="name" v="Nhà Mười"/></way>
    <way id="20"><nd ref="6"/><nd ref="7"/><tag k="highway" v="residential"/><tag k="name" v="Phố Hai Mươi"/></way>
  </osm>`;
  const osmFile = file('small.osm', osm);
  const overlay = file(
    'overlay.geojson',
    collection(
      feature(point(105.8502, 21.0301), { osm_id: 'node/1', name_en: 'Cafe One' }),
      feature(
        {
          type: 'Polygon',
          coordinates: [
            [
              [105.851, 21.031],
              [105.852, 21.031],
              [105.852, 21.032],
              [105.851, 21.031],
            ],
          ],
        },
        { osm_id: 'way/10', name_en: 'House Ten', category: 'museum' },
      ),
      feature(point(105.851, 21.029), { osm_id: 'way/20', name: 'Phố Hai Mươi', 'name:en': 'Twenty Street' }),
      feature(point(105.86, 21.04), { name: 'Nơi Mới', category: 'landmark' }),
      feature(point(105.861, 21.041), { name: 'Không Loại' }),
    ),
  );

  it('a later feature overlays its element: one place, the feature’s point and names, the element’s other tags and geometry', async () => {
    const alone = placesOf([osmFile]);
    const merged = placesOf([osmFile, overlay]);
    const cafe = merged.of('node/1');
    expect(cafe).toHaveLength(1);
    expect(cafe[0]).toMatchObject({ name: 'Cà phê Một', house: '3', category: 'cafe', lat: 21.0301, lon: 105.8502 });
    expect(cafe[0]!.alts).toContain('Cafe One');
    const house = merged.of('way/10');
    expect(house).toHaveLength(1);
    // The building's tags stay (its name), the feature adds the English name and the kind; the point is the feature's.
    expect(house[0]).toMatchObject({ name: 'Nhà Mười', category: 'museum', lat: 21.0313333, lon: 105.8516667 });
    expect(house[0]!.alts).toContain('House Ten');
    // The road stays a road (a street with its English name), routable as before: a feature is no place on a road.
    expect(merged.of('way/20')).toEqual([]);
    const streets = (m: { all: PackPlace[] }) => m.all.filter((p) => p.name === 'Phố Hai Mươi' && p.kind === 3);
    expect(streets(alone).length).toBeGreaterThan(0);
    expect(streets(merged).map((p) => [p.lat, p.lon])).toEqual(streets(alone).map((p) => [p.lat, p.lon]));
    // Features naming no element are places of their own, of a known kind or a named point.
    const own = merged.all.filter((p) => p.name === 'Nơi Mới' || p.name === 'Không Loại');
    expect(own.map((p) => [p.name, p.category, p.kind])).toEqual([
      ['Nơi Mới', 'attraction', 1],
      ['Không Loại', 'named_point', 1],
    ]);
    const engine = await createEngine({
      packs: [buildOsmPack({ inputs: [osmFile, overlay], name: 'x', hierarchies: false })],
      wasm: false,
    });
    const route = engine.direction({ origin: '21.0290,105.8491', destination: '21.0290,105.8529' });
    expect(route.status).toBe('OK');
  });

  it('an earlier feature gives way to a later OSM version of its element, as between OSM inputs', () => {
    const merged = placesOf([overlay, osmFile]);
    const cafe = merged.of('node/1');
    expect(cafe).toHaveLength(1);
    expect(cafe[0]).toMatchObject({ name: 'Cà phê Một', lat: 21.03, lon: 105.85 });
    expect(cafe[0]!.alts).not.toContain('Cafe One');
  });

  it('merges with a node of a PBF, read in the second pass after the feature', () => {
    // A named POI node of Monaco, found by reading the PBF itself.
    let poi: { id: number; tags: Tags } | undefined;
    readOsmFile(`${OSM}monaco.osm.pbf`, {
      node(id, _lat, _lon, tags) {
        if (!poi && tags?.amenity === 'restaurant' && tags.name) poi = { id, tags };
      },
      way() {},
      relation() {},
      feature() {},
    });
    const pbfOverlay = file(
      'monaco.geojson',
      collection(feature(point(7.42, 43.73), { osm_id: `node/${poi!.id}`, name_vi: 'Nhà hàng Monaco' })),
    );
    const merged = placesOf([`${OSM}monaco.osm.pbf`, pbfOverlay]).of(`node/${poi!.id}`);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ name: poi!.tags.name, category: 'restaurant', lat: 43.73, lon: 7.42 });
    expect(merged[0]!.alts).toContain('Nhà hàng Monaco');
  });
});

describe('the Đà Lạt tourist POIs in the dalat test pack', () => {
  it('are each one place at the file’s point, whether or not OSM knows them', () => {
    const places = packPlaces(testPack('dalat'));
    for (const f of rawPois()) {
      const [lon, lat] = f.geometry.coordinates;
      const same = places.filter((p) => p.name === f.properties.name_vi);
      expect(
        same.filter((p) => p.kind === 1),
        f.properties.name_vi,
      ).toHaveLength(1);
      const p = same.find((q) => q.kind === 1)!;
      expect(haversine(p.lat, p.lon, lat, lon), f.properties.name_vi).toBeLessThan(0.1);
      if (f.properties.name_en) expect(p.alts).toContain(f.properties.name_en);
      if (f.properties.osm_id) expect(p.element).toBe(f.properties.osm_id);
    }
  });

  it('are found by their Vietnamese and their English names', async () => {
    const engine = await createEngine({ packs: [testPack('dalat')], wasm: false });
    let top = 0;
    let queries = 0;
    for (const f of rawPois()) {
      const [lon, lat] = f.geometry.coordinates;
      for (const q of [f.properties.name_vi, f.properties.name_en]) {
        if (!q) continue;
        queries++;
        const r = engine.geocode({ address: q });
        expect(r.status, q).toBe('OK');
        if (r.status !== 'OK') continue;
        const at = r.results.findIndex(
          (x) => haversine(x.geometry.location.lat, x.geometry.location.lng, lat, lon) <= 150,
        );
        expect(at, `${q} → ${r.results.map((x) => x.formatted_address).join(' | ')}`).toBeGreaterThanOrEqual(0);
        if (at === 0) top++;
        // Only a homonym may rank above it: a place carrying the POI's own Vietnamese name (the street Hồ Xuân Hương,
        // named after the lake).
        for (const x of r.results.slice(0, at))
          expect(x.formatted_address.startsWith(`${f.properties.name_vi},`), `${q} → ${x.formatted_address}`).toBe(
            true,
          );
      }
    }
    console.log(`Đà Lạt tourist POIs: ${top} of ${queries} names give the POI first`);
    expect(queries).toBe(41);
  });
});
