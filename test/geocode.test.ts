/**
 * Forward, reverse and place_id geocoding on real packs (Hanoi, Ho Chi Minh City), with expected places found
 * independently by scanning the raw OSM files.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { decodePlusCode } from '../src/places/text/pluscode';
import { encodePlaceId } from '../src/places/place-id';
import { OSM, testPack } from './helpers/packs';
import { judgeReverse } from './helpers/reverse-check';
import { referenceWardAt } from './helpers/ward-reference';
import { mulberry32 } from '../src/trip/rng';

/** Plain regex scan of an OSM XML file: node coordinates and the tags of nodes and ways (with their refs). */
function scanXml(file: string) {
  const xml = readFileSync(OSM + file, 'utf8');
  const coords = new Map<string, [number, number]>();
  const elements: Array<{ type: string; id: string; tags: Record<string, string>; lat: number; lon: number }> = [];
  const tagsOf = (body: string) =>
    Object.fromEntries([...body.matchAll(/<tag k="([^"]*)" v="([^"]*)"\/>/g)].map((m) => [m[1]!, m[2]!]));
  for (const m of xml.matchAll(/<node id="(\d+)"[^>]*?lat="([-\d.]+)" lon="([-\d.]+)"(\/>|>([\s\S]*?)<\/node>)/g)) {
    coords.set(m[1]!, [Number(m[2]), Number(m[3])]);
    if (m[5]) elements.push({ type: 'node', id: m[1]!, tags: tagsOf(m[5]), lat: Number(m[2]), lon: Number(m[3]) });
  }
  for (const m of xml.matchAll(/<way id="(\d+)"[^>]*>([\s\S]*?)<\/way>/g)) {
    const refs = [...new Set([...m[2]!.matchAll(/<nd ref="(\d+)"\/>/g)].map((r) => r[1]!))].filter((r) =>
      coords.has(r),
    );
    if (refs.length === 0) continue;
    const lat = refs.reduce((s, r) => s + coords.get(r)![0], 0) / refs.length;
    const lon = refs.reduce((s, r) => s + coords.get(r)![1], 0) / refs.length;
    elements.push({ type: 'way', id: m[1]!, tags: tagsOf(m[2]!), lat, lon });
  }
  return elements;
}

const within = (loc: { lat: number; lng: number } | undefined, lat: number, lon: number, metres: number) =>
  !!loc && haversine(loc.lat, loc.lng, lat, lon) <= metres;

let hanoi: Engine;
let hcmc: Engine;
let both: Engine;
beforeAll(async () => {
  hanoi = await createEngine({ packs: [testPack('hanoi')] });
  hcmc = await createEngine({ packs: [testPack('hcmc')] });
  both = await createEngine({ packs: [testPack('hanoi'), testPack('hcmc')] });
});

describe('forward geocode, Hanoi', () => {
  const raw = scanXml('hanoi-quoctugiam.osm');
  const byAddress = (house: string, street: string) =>
    raw.find((e) => e.tags['addr:housenumber'] === house && e.tags['addr:street'] === street)!;

  it('finds addresses written in many ways (diacritics, abbreviations, order, old and new admin names)', () => {
    const a = byAddress('31', 'Phố Cao Bá Quát');
    const b = byAddress('33', 'Phố Quốc Tử Giám');
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    const cases: Array<[string, typeof a]> = [
      ['31 Cao Bá Quát', a],
      ['31 Phố Cao Bá Quát, Phường Điện Biên, Quận Ba Đình, Hà Nội', a],
      ['31 cao ba quat, p. dien bien, q. ba dinh, hn', a],
      ['Ba Đình, Cao Bá Quát 31', a],
      ['số 33 Quốc Tử Giám, Văn Miếu, Đống Đa, TP Hà Nội', b],
      ['33 Quoc Tu Giam, Van Mieu - Quoc Tu Giam, Ha Noi', b],
      ['33 Quốc Tử Giámm, Đống Đa', b],
    ];
    for (const [q, want] of cases) {
      const r = hanoi.geocode({ address: q });
      expect(r.status, q).toBe('OK');
      expect(
        within(r.results[0]?.geometry.location, want.lat, want.lon, 50),
        `${q} → ${r.results[0]?.formatted_address}`,
      ).toBe(true);
    }
  });

  it('a house written with a ward it is not in is no confident answer (31 Cao Bá Quát is in Phường Ba Đình)', () => {
    const a = byAddress('31', 'Phố Cao Bá Quát');
    const r = hanoi.geocode({ address: '31 Cao Bá Quát, Phường Hoàn Kiếm, Thành phố Hà Nội' });
    const top = r.results[0];
    if (top && !within(top.geometry.location, a.lat, a.lon, 50))
      expect(top.partial_match, top.formatted_address).toBe(true);
  });

  it('old and new admin names both find places there', () => {
    const stop = raw.find((e) => e.tags.name === 'Văn Miếu' && e.type === 'node')!;
    for (const q of [
      'Văn Miếu, Đống Đa',
      'Văn Miếu - Quốc Tử Giám, Hà Nội',
      'Phường Văn Miếu, Quận Đống Đa',
      'P. Văn Miếu - Quốc Tử Giám, HN',
    ]) {
      const r = hanoi.geocode({ address: q });
      expect(r.status, q).toBe('OK');
      expect(
        within(r.results[0]?.geometry.location, stop.lat, stop.lon, 500),
        `${q} → ${r.results[0]?.formatted_address}`,
      ).toBe(true);
    }
  });

  it('a house number the data does not hold falls back to the street, then to the ward', () => {
    const r = hanoi.geocode({ address: '999 Phố Cao Bá Quát, Ba Đình, Hà Nội' });
    expect(r.status).toBe('OK');
    const top = r.results[0]!;
    expect(top.formatted_address.startsWith('Phố Cao Bá Quát,')).toBe(true);
    // The street result lies on the street: near a node of a way of that name (plain scan of the raw file).
    const drive = JSON.parse(readFileSync(OSM + 'hanoi-central-drive-2025.overpass.json', 'utf8')).elements as any[];
    const nodes = new Map(drive.filter((e) => e.type === 'node').map((e) => [e.id, e]));
    const onStreet = drive
      .filter((e) => e.type === 'way' && e.tags?.name === 'Phố Cao Bá Quát')
      .flatMap((w) => w.nodes.map((n: number) => nodes.get(n)).filter(Boolean));
    expect(onStreet.length).toBeGreaterThan(0);
    expect(
      Math.min(
        ...onStreet.map((n: any) => haversine(n.lat, n.lon, top.geometry.location.lat, top.geometry.location.lng)),
      ),
    ).toBeLessThan(30);

    const ward = hanoi.geocode({ address: '12 Phố Không Có Thật, Phường Văn Miếu - Quốc Tử Giám, Hà Nội' });
    expect(ward.status).toBe('OK');
    expect(ward.results[0]!.address_components[0]!.long_name).toBe('Phường Văn Miếu - Quốc Tử Giám');
  });

  it('NOT_FOUND when nothing matches', () => {
    expect(hanoi.geocode({ address: 'Xyzzyqwv Plughfrob' }).status).toBe('NOT_FOUND');
  });

  it('results have the documented shape: components most to least specific, plus code, place_id', () => {
    const a = byAddress('31', 'Phố Cao Bá Quát');
    const r = hanoi.geocode({ address: '31 Cao Bá Quát, Ba Đình' });
    // The 2025 ward is the one whose official polygon holds the place.
    expect(referenceWardAt(a.lat, a.lon)?.fullName).toBe('Phường Ba Đình');
    expect(r.plus_code).toEqual({});
    const top = r.results[0]!;
    expect(top.types).toEqual([]);
    expect(top.reference).toBe(top.place_id);
    expect(top.place_id).toMatch(/^[0-9a-z.]+$/);
    expect(top.address_components.map((c) => c.long_name)).toEqual([
      '31',
      'Phố Cao Bá Quát',
      'Phường Ba Đình',
      'Thành phố Hà Nội',
    ]);
    expect(top.address_components[1]!.short_name).toBe('Cao Bá Quát');
    expect(top.formatted_address).toBe('31 Phố Cao Bá Quát, Phường Ba Đình, Thành phố Hà Nội');
    const area = decodePlusCode(top.plus_code.global_code)!;
    expect(a.lat).toBeGreaterThan(area.latLo - 0.0002);
    expect(top.geometry.location.lat).toBeGreaterThanOrEqual(area.latLo);
    expect(top.geometry.location.lat).toBeLessThan(area.latHi);
    expect(top.geometry.location.lng).toBeGreaterThanOrEqual(area.lngLo);
    expect(top.geometry.location.lng).toBeLessThan(area.lngHi);
    expect(top.plus_code.compound_code).toBe(`${top.plus_code.global_code.slice(4)} Ba Đình, Hà Nội`);
  });
});

describe('forward geocode, Ho Chi Minh City', () => {
  const raw = scanXml('hcmc-d1-d3.osm');
  it('finds POIs and addresses with district numbers, nicknames and 2025 ward names', () => {
    const lake = raw.find((e) => e.type === 'node' && e.tags.name === 'Hồ Con Rùa' && e.tags.historic)!;
    const consulate = raw.find(
      (e) => e.tags['addr:housenumber'] === '175' && e.tags['addr:street'] === 'Hai Bà Trưng',
    )!;
    const cases: Array<[string, typeof lake]> = [
      ['Hồ Con Rùa', lake],
      ['Ho Con Rua, Q1, TPHCM', lake],
      ['Hồ Con Rùa, Phường Sài Gòn, Hồ Chí Minh', lake],
      ['Hồ Con Rùa, P. Bến Nghé, Quận 1, Sài Gòn', lake],
      ['175 Hai Bà Trưng, Quận 1, TP.HCM', consulate],
      ['Tổng Lãnh Sự Quán Trung Quốc', consulate],
    ];
    for (const [q, want] of cases) {
      const r = hcmc.geocode({ address: q });
      expect(r.status, q).toBe('OK');
      expect(
        within(r.results[0]?.geometry.location, want.lat, want.lon, 50),
        `${q} → ${r.results[0]?.formatted_address}`,
      ).toBe(true);
    }
  });
});

describe('reverse geocode', () => {
  it('answers with the place at the point, else the nearest street, in the ward of the point; then the rest nearest first, the ward last', () => {
    // Judged by straight scans of the places, buildings, road segments and official polygons (reverse-check.ts).
    const [x0, y0, x1, y1] = hanoi.places.regions[0]!.region.meta.bbox!;
    const rand = mulberry32(7);
    const rules = new Set<string>();
    for (let k = 0; k < 100; k++) {
      const lat = y0 + rand() * (y1 - y0);
      const lng = x0 + rand() * (x1 - x0);
      const v = judgeReverse(hanoi, lat, lng);
      rules.add(v.rule);
      expect(v.problems, `${lat},${lng}`).toEqual([]);
      expect(v.ward ?? true, `${lat},${lng}`).toBe(true);
    }
    expect([...rules]).toEqual(expect.arrayContaining(['within 50 m', 'street']));
  });

  it('a point on a street has that street among its results (Phố Hàng Bông)', () => {
    const res = hanoi.geocode({ latlng: '21.029570,105.845810' });
    expect(res.results.map((x) => x.formatted_address).some((a) => a.startsWith('Phố Hàng Bông,'))).toBe(true);
  });

  it('NOT_FOUND beyond the documented radius', () => {
    expect(hanoi.geocode({ latlng: '10.0,100.0' }).status).toBe('NOT_FOUND');
    const b = hanoi.places.regions[0]!.region.meta.bbox!;
    expect(hanoi.geocode({ latlng: `${b[3] + 0.05},${b[2] + 0.05}` }).status).toBe('NOT_FOUND');
  });
});

describe('place_id', () => {
  it('every place of the pack resolves through geocode and placeDetail to itself', () => {
    const r = hanoi.places.regions[0]!;
    for (let i = 0; i < r.places.count; i++) {
      const id = encodePlaceId(r.tag, r.region, i);
      const g = hanoi.geocode({ place_id: id });
      expect(g.status).toBe('OK');
      expect(g.results).toHaveLength(1);
      expect(g.results[0]!.geometry.location).toEqual({ lat: r.lat(i), lng: r.lon(i) });
      const d = hanoi.placeDetail({ place_id: id });
      expect(d.status).toBe('OK');
      expect(d.result.geometry!.location).toEqual({ lat: r.lat(i), lng: r.lon(i) });
      expect(d.result.name).toMatch(/\S/);
    }
  });

  it('ids returned by every endpoint resolve, and name their pack in a multi-pack engine', () => {
    const ids = [
      ...both.geocode({ address: 'Hồ Con Rùa' }).results.map((x) => x.place_id),
      ...both.geocode({ address: '31 Cao Bá Quát' }).results.map((x) => x.place_id),
      ...both.geocode({ latlng: '21.0285,105.8542' }).results.map((x) => x.place_id),
      ...both.geocode({ latlng: '10.7826,106.6959' }).results.map((x) => x.place_id),
      ...both.autocomplete({ input: 'pasteur' }).predictions.map((x) => x.place_id),
      ...both.autocomplete({ input: 'hang gai' }).predictions.map((x) => x.place_id),
    ];
    expect(ids.length).toBeGreaterThan(10);
    const tags = new Set(ids.map((id) => id.split('.')[0]));
    expect(tags.size).toBe(2);
    for (const id of ids) {
      const g = both.geocode({ place_id: id });
      expect(g.status).toBe('OK');
      expect(g.results[0]!.place_id).toBe(id);
      expect(both.placeDetail({ place_id: id }).result.place_id).toBe(id);
    }
    // An id of the HCMC pack is foreign to the Hanoi engine.
    const hcmcId = hcmc.geocode({ address: 'Hồ Con Rùa' }).results[0]!.place_id;
    expect(hanoi.geocode({ place_id: hcmcId }).status).toBe('NOT_FOUND');
    expect(hanoi.placeDetail({ place_id: hcmcId }).status).toBe('NOT_FOUND');
  });

  it('garbage ids give BAD_REQUEST or NOT_FOUND, never another place', () => {
    const good = hanoi.geocode({ address: '31 Cao Bá Quát' }).results[0]!.place_id;
    const [tag, num, chk] = good.split('.');
    const flip = (c: string) => (c === '0' ? '1' : '0');
    for (const id of [
      `${tag}.${num}.${flip(chk![0]!)}${chk!.slice(1)}`,
      `${tag}.zzzzzz.${chk}`,
      `aaaaaa.${num}.${chk}`,
    ]) {
      expect(hanoi.geocode({ place_id: id }).status).toBe('NOT_FOUND');
      expect(hanoi.placeDetail({ place_id: id }).status).toBe('NOT_FOUND');
    }
    for (const id of [
      'abc',
      'x'.repeat(10_000),
      'ChIJN1t_tDeuEmsRUsoyG83frY4',
      '../../etc/passwd',
      `${good} `.repeat(3),
      '💥',
    ]) {
      const g = hanoi.geocode({ place_id: id });
      expect(g.status).toBe('BAD_REQUEST');
      expect(g.error_message).toMatch(/place_id/);
      expect(hanoi.placeDetail({ place_id: id }).status).toBe('BAD_REQUEST');
    }
  });
});

describe('geocode bad input → BAD_REQUEST naming the parameter', () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{}, /address, latlng or place_id/],
    [{ address: '' }, /address/],
    [{ address: '   \t ' }, /address/],
    [{ address: 'a'.repeat(10_000) }, /address/],
    [{ address: 'Hàng Gai 🍜' }, /address/],
    [{ address: 'Hàng\u0000Gai' }, /address/],
    [{ address: 'Hàng Gai', latlng: '21,105' }, /address and latlng/],
    [{ latlng: '91,105' }, /latlng/],
    [{ latlng: '21,181' }, /latlng/],
    [{ latlng: 'NaN,105' }, /latlng/],
    [{ latlng: '21.03' }, /latlng/],
    [{ latlng: '21,105,3' }, /latlng/],
    [{ latlng: 'abc' }, /latlng/],
    [{ latlng: '' }, /latlng/],
    [{ place_id: 42 }, /place_id/],
  ];
  it.each(cases.map(([p, m]) => [JSON.stringify(p).slice(0, 60), p, m] as const))('%s', (_, params, message) => {
    const r = hanoi.geocode(params as never);
    expect(r.status).toBe('BAD_REQUEST');
    expect(r.error_message).toMatch(message);
    expect(r.results).toEqual([]);
    expect(r.plus_code).toEqual({});
  });
  it('non-object parameters do not throw', () => {
    expect(hanoi.geocode(undefined as never).status).toBe('BAD_REQUEST');
    expect(hanoi.geocode(null as never).status).toBe('BAD_REQUEST');
  });
});
