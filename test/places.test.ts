/** Autocomplete, place detail, search terms, and bad input, on the real Hanoi and HCMC packs. */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { MAX_AUTOCOMPLETE_LIMIT } from '../src/api/autocomplete';
import { PlaceKind } from '../src/places/kinds';
import { termsOf } from '../src/places/search/terms';
import { withinOneEdit } from '../src/places/text/edits';
import { fold } from '../src/places/text/fold';
import { OSM, testPack } from './helpers/packs';

let hanoi: Engine;
let hcmc: Engine;
beforeAll(async () => {
  hanoi = await createEngine({ packs: [testPack('hanoi')] });
  hcmc = await createEngine({ packs: [testPack('hcmc')] });
});

const restaurants = (
  JSON.parse(readFileSync(OSM + 'hanoi-restaurants-2024.overpass.json', 'utf8')).elements as any[]
).map((e) => ({
  name: e.tags?.name as string | undefined,
  lat: (e.lat ?? e.center?.lat) as number,
  lon: (e.lon ?? e.center?.lon) as number,
}));
const near = (loc: { lat: number; lng: number } | undefined, lat: number, lon: number, m = 50) =>
  !!loc && haversine(loc.lat, loc.lng, lat, lon) <= m;
const locationOf = (e: Engine, placeId: string) => e.placeDetail({ place_id: placeId }).result.geometry?.location;

describe('search terms (the folding and abbreviation table as the index sees it)', () => {
  it('folds diacritics including đ, expands abbreviations, marks type words optional', () => {
    const show = (s: string) =>
      termsOf(s)
        .map((t) => (t.optional ? '?' : '') + t.folded)
        .join(' ');
    expect(show('Đường Láng, Q.Đống Đa')).toBe('?duong lang ?quan dong da');
    expect(show('P. Hàng Gai, Q1, TP.HCM')).toBe('?phuong hang gai ?quan 1 ?thanh ?pho ho chi minh');
    expect(show('T.P. Hà Nội')).toBe('?thanh ?pho ha noi');
    expect(show('HN')).toBe('ha noi');
    expect(show('Sài Gòn')).toBe('ho chi minh');
    expect(show('TX Sơn Tây')).toBe('?thi ?xa son tay');
    expect(show('TT Văn Điển')).toBe('?thi ?tran van dien');
    expect(show('X. Phùng Xá')).toBe('?xa phung xa');
    expect(show('Ng. 10 Trung Kính')).toBe('?ngo 10 trung kinh');
    expect(show('số 5 ngõ 10 ngách 2 Trung Kính')).toBe('?so 5 ?ngo 10 ?ngach 2 trung kinh');
    expect(show('12/3A Hẻm 51')).toBe('12 3a ?hem 51');
    expect(show('Thành phố Đà Nẵng')).toBe(show('ĐN').replace(/^/, '?thanh ?pho '));
    for (const t of termsOf('Nguyễn Huệ')) expect(t.folded).toBe(fold(t.exact));
  });

  it('one-edit matching: insert, delete, replace, adjacent swap', () => {
    expect(withinOneEdit('hang', 'hang')).toBe(true);
    expect(withinOneEdit('hang', 'hnag')).toBe(true);
    expect(withinOneEdit('hang', 'han')).toBe(true);
    expect(withinOneEdit('hang', 'hangg')).toBe(true);
    expect(withinOneEdit('hang', 'hong')).toBe(true);
    expect(withinOneEdit('hang', 'hnog')).toBe(false);
    expect(withinOneEdit('hang', 'ha')).toBe(false);
  });
});

describe('autocomplete', () => {
  it('finds places as they are typed, with and without diacritics, and by prefix', () => {
    const little = restaurants.find((r) => r.name === 'Nhà Hàng Little Hanoi')!;
    for (const input of [
      'Nhà Hàng Little Hanoi',
      'nha hang little hanoi',
      'Nhà Hàng Little Ha',
      'nha hang little hano',
      'Nha Hang Litle Hanoi',
    ]) {
      const r = hanoi.autocomplete({ input });
      expect(r.status).toBe('OK');
      expect(
        near(locationOf(hanoi, r.predictions[0]!.place_id), little.lat, little.lon),
        `${input} → ${r.predictions[0]?.description}`,
      ).toBe(true);
    }
  });

  it('ranks the candidate whose diacritics agree with the query first', () => {
    // Pairs of street places whose names fold the same but differ in diacritics (found by a plain scan).
    const r = hanoi.places.regions[0]!;
    const byFold = new Map<string, Set<string>>();
    for (let i = 0; i < r.places.count; i++) {
      if (r.places.kind[i] !== PlaceKind.street) continue;
      const name = r.region.strings.get(r.places.name[i]!).toLowerCase();
      const set = byFold.get(fold(name)) ?? new Set();
      set.add(name);
      byFold.set(fold(name), set);
    }
    const pairs = [...byFold.values()].filter((s) => s.size > 1);
    expect(pairs.length).toBeGreaterThan(0);
    for (const names of pairs) {
      for (const name of names) {
        const top = hanoi.autocomplete({ input: name }).predictions[0]!;
        expect(top.structured_formatting.main_text.toLowerCase(), name).toBe(name);
      }
    }
  });

  it('location bias: the same input near two points gives different first predictions, each the nearest', () => {
    const branches = restaurants.filter((r) => r.name === 'Highlands Coffee');
    expect(branches.length).toBeGreaterThan(1);
    // Two branches at least 300 m apart.
    let a = branches[0]!;
    let b = branches.find((x) => haversine(a.lat, a.lon, x.lat, x.lon) > 300)!;
    expect(b).toBeDefined();
    const firstNear = (p: { lat: number; lon: number }) =>
      hanoi.autocomplete({ input: 'Highlands Coffee', location: `${p.lat},${p.lon}` }).predictions[0]!;
    const pa = firstNear(a);
    const pb = firstNear(b);
    expect(pa.place_id).not.toBe(pb.place_id);
    expect(near(locationOf(hanoi, pa.place_id), a.lat, a.lon)).toBe(true);
    expect(near(locationOf(hanoi, pb.place_id), b.lat, b.lon)).toBe(true);
    // A radius filter keeps only places inside it.
    const within = hanoi.autocomplete({ input: 'Highlands Coffee', location: `${a.lat},${a.lon}`, radius: 0.2 });
    for (const p of within.predictions)
      expect(
        haversine(a.lat, a.lon, ...(Object.values(locationOf(hanoi, p.place_id)!) as [number, number])) <= 200,
      ).toBe(true);
  });

  it('old and new admin names in the input', () => {
    for (const input of ['Văn Miếu, Đống Đa', 'Văn Miếu - Quốc Tử Giám, Hà Nội']) {
      const r = hanoi.autocomplete({ input });
      const loc = locationOf(hanoi, r.predictions[0]!.place_id);
      expect(near(loc, 21.0267483, 105.836649, 500), `${input} → ${r.predictions[0]?.description}`).toBe(true);
    }
  });

  it('has the documented fields, scores in descending order, at most limit predictions, more_compound', () => {
    const r = hcmc.autocomplete({ input: 'Hai Bà Trưng', limit: MAX_AUTOCOMPLETE_LIMIT, more_compound: 'true' });
    expect(r.status).toBe('OK');
    expect(r.predictions.length).toBeGreaterThan(1);
    expect(r.predictions.length).toBeLessThanOrEqual(MAX_AUTOCOMPLETE_LIMIT);
    expect(typeof r.executed_time).toBe('number');
    expect(r.executed_time_all).toBeGreaterThanOrEqual(r.executed_time);
    for (let i = 1; i < r.predictions.length; i++)
      expect(r.predictions[i]!.score).toBeLessThanOrEqual(r.predictions[i - 1]!.score);
    for (const p of r.predictions) {
      expect(p.description).toBe(
        p.structured_formatting.secondary_text
          ? `${p.structured_formatting.main_text}, ${p.structured_formatting.secondary_text}`
          : p.structured_formatting.main_text,
      );
      expect(p.reference).toBe(p.place_id);
      expect(typeof p.has_children).toBe('boolean');
      expect(['poi', 'address', 'street', 'ward', 'district', 'province']).toContain(p.display_type);
      expect(p.plus_code.global_code).toMatch(/^[23456789CFGHJMPQRVWX]{8}\+[23456789CFGHJMPQRVWX]{2}$/);
      expect(Array.isArray(p.matched_substrings) && Array.isArray(p.terms)).toBe(true);
      for (const m of p.matched_substrings)
        expect(fold(p.description.slice(m.offset, m.offset + m.length))).toMatch(/^(hai|ba|trung)$/);
      for (const t of p.terms) expect(p.description.slice(t.offset, t.offset + t.value.length)).toBe(t.value);
      expect(p.compound).toBeDefined();
      expect(p.compound!.province).toBe('Hồ Chí Minh');
    }
    expect(hcmc.autocomplete({ input: 'Hai Bà Trưng', limit: 3 }).predictions).toHaveLength(3);
    expect(hcmc.autocomplete({ input: 'Hai Bà Trưng' }).predictions[0]!.compound).toBeUndefined();
  });

  it('no match is OK with no predictions', () => {
    const r = hanoi.autocomplete({ input: 'qqqqxxzzv' });
    expect(r.status).toBe('OK');
    expect(r.predictions).toEqual([]);
  });
});

describe('place detail', () => {
  it('returns name, address and location of a prediction', () => {
    const p = hcmc.autocomplete({ input: 'Hồ Con Rùa' }).predictions[0]!;
    const d = hcmc.placeDetail({ place_id: p.place_id, sessiontoken: 't' });
    expect(d.status).toBe('OK');
    expect(d.result.name).toBe(p.structured_formatting.main_text);
    expect(d.result.place_id).toBe(p.place_id);
    expect(d.result.formatted_address).toContain('Thành phố Hồ Chí Minh');
    expect(hcmc.placeDetail({ placeid: p.place_id }).status).toBe('OK');
  });
});

describe('autocomplete and place detail bad input → BAD_REQUEST naming the parameter', () => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{}, /input/],
    [{ input: '' }, /input/],
    [{ input: '  \n ' }, /input/],
    [{ input: 'a'.repeat(10_000) }, /input/],
    [{ input: '🍜🍜' }, /input/],
    [{ input: 'phở 👍🏽' }, /input/],
    [{ input: 'ha\u0007noi' }, /input/],
    [{ input: 'ha\u009bnoi' }, /input/],
    [{ input: 'hang', limit: 0 }, /limit/],
    [{ input: 'hang', limit: -3 }, /limit/],
    [{ input: 'hang', limit: '2.5' }, /limit/],
    [{ input: 'hang', limit: 'ten' }, /limit/],
    [{ input: 'hang', radius: -1 }, /radius/],
    [{ input: 'hang', radius: 0 }, /radius/],
    [{ input: 'hang', radius: 'far' }, /radius/],
    [{ input: 'hang', location: '95,105' }, /location/],
    [{ input: 'hang', location: '21' }, /location/],
    [{ input: 'hang', location: '21,105,1' }, /location/],
    [{ input: 'hang', location: 'NaN,NaN' }, /location/],
    [{ input: 'hang', more_compound: 'maybe' }, /more_compound/],
    [{ input: 'hang', sessiontoken: 'x'.repeat(1000) }, /sessiontoken/],
  ];
  it.each(cases.map(([p, m]) => [JSON.stringify(p).slice(0, 60), p, m] as const))(
    'autocomplete %s',
    (_, params, message) => {
      const r = hanoi.autocomplete(params as never);
      expect(r.status).toBe('BAD_REQUEST');
      expect(r.error_message).toMatch(message);
      expect(r.predictions).toEqual([]);
    },
  );
  it('limit above its maximum is refused naming it and the maximum; the maximum itself is answered', () => {
    for (const limit of [MAX_AUTOCOMPLETE_LIMIT + 1, 10_000, '51'] as const) {
      const r = hanoi.autocomplete({ input: 'pho', limit });
      expect(r.status).toBe('BAD_REQUEST');
      expect(r.error_message).toBe(`limit must be at most ${MAX_AUTOCOMPLETE_LIMIT}`);
    }
    const r = hanoi.autocomplete({ input: 'pho', limit: MAX_AUTOCOMPLETE_LIMIT });
    expect(r.status).toBe('OK');
    expect(r.predictions.length).toBe(MAX_AUTOCOMPLETE_LIMIT);
  });
  it('place detail', () => {
    expect(hanoi.placeDetail({} as never)).toMatchObject({ status: 'BAD_REQUEST', result: {} });
    expect(hanoi.placeDetail({ place_id: '' }).error_message).toMatch(/place_id/);
    expect(hanoi.placeDetail({ place_id: 'nope' }).error_message).toMatch(/place_id/);
    expect(hanoi.placeDetail({ place_id: 'aaaaaa.1.aaa', sessiontoken: 'a\u0000' }).error_message).toMatch(
      /sessiontoken/,
    );
    expect(hanoi.autocomplete(undefined as never).status).toBe('BAD_REQUEST');
    expect(hanoi.placeDetail(null as never).status).toBe('BAD_REQUEST');
  });
});
