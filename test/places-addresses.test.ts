/**
 * House numbers on the whole of Ho Chi Minh City, judged against the raw OSM (addr:housenumber and addr:street of the
 * PBF, read here): every written form of an alley house finds the house the data has, and a house number the data
 * lacks is estimated between its numbered neighbours on the same side of the street, marked partial.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { readOsmFile } from '../data-tools/osm/read';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { PlaceKind } from '../src/places/kinds';
import { decodePlaceId, encodePlaceId, streetPointPosition } from '../src/places/place-id';
import { parseAddress } from '../src/places/text/address';
import { houseKey, storedHouseKey, streetAlleyPath } from '../src/places/text/house-path';
import { mulberry32 } from '../src/trip/rng';
import { OSM, testPack } from './helpers/packs';

/** An address of the raw data: house number, street, position (a way's by the mean of its nodes). */
interface RawAddress {
  house: string;
  street: string;
  lat: number;
  lon: number;
}

/** Every element of the PBF with addr:housenumber and addr:street. */
function rawAddresses(): RawAddress[] {
  const nodes = new Map<number, [number, number]>();
  const tagged: Array<{ tags: Record<string, string>; at?: [number, number]; refs?: number[] }> = [];
  readOsmFile(`${OSM}hcmc-2018-01-01.osm.pbf`, {
    node: (_id, lat, lon, tags) => {
      nodes.set(_id, [lat, lon]);
      if (tags?.['addr:housenumber'] && tags['addr:street']) tagged.push({ tags, at: [lat, lon] });
    },
    way: (_id, refs, tags) => {
      if (tags['addr:housenumber'] && tags['addr:street']) tagged.push({ tags, refs });
    },
    relation: () => undefined,
    feature: () => undefined,
  });
  const out: RawAddress[] = [];
  for (const t of tagged) {
    let at = t.at;
    if (!at && t.refs) {
      const pts = [...new Set(t.refs)].map((r) => nodes.get(r)).filter((p): p is [number, number] => !!p);
      if (pts.length > 0)
        at = [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];
    }
    if (at)
      out.push({
        house: t.tags['addr:housenumber']!.trim(),
        street: t.tags['addr:street']!.trim(),
        lat: at[0],
        lon: at[1],
      });
  }
  return out;
}

let engine: Engine;
let raw: RawAddress[];
beforeAll(async () => {
  engine = await createEngine({ packs: [testPack('hcmc-city')], wasm: false });
  raw = rawAddresses();
}, 300_000);

/** Seeded sample of `n` items. */
function sample<T>(xs: readonly T[], n: number, seed: number): T[] {
  const rand = mulberry32(seed);
  const pool = [...xs];
  const out: T[] = [];
  while (out.length < n && pool.length > 0) out.push(pool.splice(Math.floor(rand() * pool.length), 1)[0]!);
  return out;
}

describe('stored house keys', () => {
  it('a plain house number read with its street parsed once gives the key of the whole address parsed', () => {
    // Every addr:housenumber + addr:street of the PBF (22 k): the shortcut region-places.ts takes per street.
    const paths = new Map<string, string | null>();
    let plain = 0;
    for (const a of raw) {
      let path = paths.get(a.street);
      if (path === undefined) paths.set(a.street, (path = streetAlleyPath(a.street)));
      const whole = parseAddress(`${a.house} ${a.street}`);
      expect(storedHouseKey(a.house, a.street, path), `${a.house} ${a.street}`).toBe(
        houseKey(whole.house, whole.alley),
      );
      if (path !== null && /^\d+[a-z]?(\/\d+[a-z]?)*$/i.test(a.house)) plain++;
    }
    expect(plain).toBeGreaterThan(raw.length / 2);
  });
});

describe('alley houses in every written form', () => {
  it('"A/B street", "số B hẻm A street" and "hẻm A số B street" find the house A/B', () => {
    // Houses A/B whose number and street the data holds once (a second one elsewhere would make the truth two places).
    const count = new Map<string, number>();
    for (const a of raw) count.set(`${a.house}|${a.street}`, (count.get(`${a.house}|${a.street}`) ?? 0) + 1);
    const alleyHouses = raw.filter(
      (a) => /^\d+\/\d+$/.test(a.house) && count.get(`${a.house}|${a.street}`) === 1 && /\p{L}/u.test(a.street),
    );
    const cases = sample(alleyHouses, 40, 35);
    let hits = 0;
    const misses: string[] = [];
    for (const a of cases) {
      const [alley, house] = a.house.split('/');
      const forms = [
        `${a.house} ${a.street}`,
        `số ${house} hẻm ${alley} ${a.street}`,
        `hẻm ${alley} số ${house} ${a.street}`,
      ];
      const tops = forms.map((address) => engine.geocode({ address }).results[0]);
      const found = tops.every(
        (t) => t && !t.partial_match && haversine(t.geometry.location.lat, t.geometry.location.lng, a.lat, a.lon) <= 50,
      );
      if (found) hits++;
      else misses.push(`${forms.join(' / ')} → ${tops.map((t) => t?.formatted_address ?? 'NOT_FOUND').join(' / ')}`);
    }
    console.log(`alley houses: ${hits} of ${cases.length} found in all three forms`);
    for (const m of misses) console.log(`  ${m}`);
    expect(cases.length).toBe(40);
    expect(hits / cases.length).toBeGreaterThanOrEqual(0.85);
  });
});

/** A plain house number the raw data lacks between two neighbours of its side (n - 2 and n + 2) less than 300 m apart. */
interface MissingHouse {
  street: string;
  n: number;
  below: RawAddress;
  above: RawAddress;
}

/** A seeded sample of `count` missing houses of the raw data. */
function missingHouses(count: number, seed: number): MissingHouse[] {
  // Plain numbers by street; a gap of one house between two neighbours of the same parity less than 300 m apart.
  const byStreet = new Map<string, Array<RawAddress & { n: number }>>();
  for (const a of raw) {
    // Plain numbers on a street with a real name (the import's placeholder "a" is none).
    if (!/^\d+$/.test(a.house) || !/\p{L}{2}/u.test(a.street)) continue;
    // One street however its name is cased ("Dân Chủ", "DÂN CHỦ").
    const street = a.street.normalize('NFC').toLowerCase();
    const list = byStreet.get(street) ?? [];
    list.push({ ...a, n: Number(a.house) });
    byStreet.set(street, list);
  }
  const gaps: MissingHouse[] = [];
  for (const [street, list] of byStreet) {
    const held = new Set(list.map((a) => a.n));
    for (const odd of [0, 1]) {
      const side = list.filter((a) => a.n % 2 === odd).sort((x, y) => x.n - y.n);
      for (let k = 0; k + 1 < side.length; k++) {
        const [below, above] = [side[k]!, side[k + 1]!];
        if (above.n - below.n !== 4 || held.has(below.n + 2)) continue;
        if (haversine(below.lat, below.lon, above.lat, above.lon) > 300) continue;
        gaps.push({ street, n: below.n + 2, below, above });
      }
    }
  }
  return sample(gaps, count, seed);
}

/** Whether a point lies between a missing house's neighbours: no farther from either than they are apart (+ 30 m). */
function between(g: MissingHouse, at: { lat: number; lng: number } | undefined): boolean {
  const span = haversine(g.below.lat, g.below.lon, g.above.lat, g.above.lon) + 30;
  return (
    at !== undefined &&
    haversine(at.lat, at.lng, g.below.lat, g.below.lon) <= span &&
    haversine(at.lat, at.lng, g.above.lat, g.above.lon) <= span
  );
}

describe('house numbers the data lacks', () => {
  it('are estimated between their numbered neighbours on the same side, marked partial', () => {
    const cases = missingHouses(30, 36);
    let estimated = 0;
    const misses: string[] = [];
    for (const g of cases) {
      const top = engine.geocode({ address: `${g.n} ${g.street}` }).results[0];
      if (top?.partial_match === true && between(g, top.geometry.location)) estimated++;
      else
        misses.push(
          `${g.n} ${g.street} → ${top ? `${top.partial_match ? '[partial] ' : ''}${top.formatted_address}` : 'NOT_FOUND'}`,
        );
    }
    console.log(`missing houses: ${estimated} of ${cases.length} estimated between their neighbours`);
    for (const m of misses) console.log(`  ${m}`);
    expect(cases.length).toBeGreaterThanOrEqual(20);
    expect(estimated / cases.length).toBeGreaterThanOrEqual(0.8);
  });

  it("keep their house and place in their place_id: geocode and Place/Detail of it give that house, not its street's", () => {
    let kept = 0;
    const cases = missingHouses(30, 36);
    for (const g of cases) {
      const top = engine.geocode({ address: `${g.n} ${g.street}` }).results[0];
      if (!top?.partial_match || !between(g, top.geometry.location)) continue;
      const [byId, detail] = [
        engine.geocode({ place_id: top.place_id }),
        engine.placeDetail({ place_id: top.place_id }),
      ];
      expect(byId.results[0]!.place_id).toBe(top.place_id);
      expect(byId.results[0]!.geometry.location).toEqual(top.geometry.location);
      expect(byId.results[0]!.formatted_address).toBe(top.formatted_address);
      expect(detail.result.place_id).toBe(top.place_id);
      expect(detail.result.geometry!.location).toEqual(top.geometry.location);
      expect(detail.result.name).toBe(top.formatted_address.split(',')[0]);
      expect(detail.result.name!.startsWith(`${g.n} `)).toBe(true);
      kept++;
    }
    expect(kept).toBeGreaterThanOrEqual(20);
  });

  it('are offered by autocomplete, first, when nothing holds the whole text typed', () => {
    const cases = missingHouses(30, 36);
    let first = 0;
    const misses: string[] = [];
    for (const g of cases) {
      const p = engine.autocomplete({ input: `${g.n} ${g.street}`, limit: 5 }).predictions[0];
      const at = p && engine.placeDetail({ place_id: p.place_id }).result.geometry?.location;
      if (p?.structured_formatting.main_text.startsWith(`${g.n} `) && between(g, at)) {
        expect(p.display_type).toBe('address');
        first++;
      } else misses.push(`${g.n} ${g.street} → ${p?.description ?? 'nothing'}`);
    }
    console.log(`missing houses: ${first} of ${cases.length} first in autocomplete, between their neighbours`);
    for (const m of misses) console.log(`  ${m}`);
    expect(first / cases.length).toBeGreaterThanOrEqual(0.8);
  });

  it('ids altered or made up give NOT_FOUND or BAD_REQUEST, never another point', () => {
    const [g] = missingHouses(1, 36);
    const id = engine.geocode({ address: `${g!.n} ${g!.street}` }).results[0]!.place_id;
    const [tag, num, house, lat, lng, chk] = id.split('.');
    expect([tag, num, house, lat, lng, chk].every((x) => x !== undefined && x !== '')).toBe(true);
    const next = (c: string) => (c === '0' ? '1' : '0');
    for (const other of [
      [tag, num, `${house}0`, lat, lng, chk],
      [tag, num, house, `${lat!.slice(0, -1)}${next(lat!.at(-1)!)}`, lng, chk],
      [tag, num, house, lat, lng, `${next(chk![0]!)}${chk!.slice(1)}`],
      [tag, (parseInt(num!, 36) + 1).toString(36), house, lat, lng, chk],
      [tag, num, house, 'zzzzzzz', lng, chk],
      [tag, num, `x${house!.slice(1)}`, lat, lng, chk],
      [tag, num, 'xzzzzzz', lat, lng, chk],
    ]) {
      expect(engine.geocode({ place_id: other.join('.') }).status).toBe('NOT_FOUND');
      expect(engine.placeDetail({ place_id: other.join('.') }).status).toBe('NOT_FOUND');
    }
    for (const other of [
      `${id}.1`,
      `${tag}.${num}.${house}.${lat}.${chk}`,
      id.replace(house!, 'ha/b'),
      id.replace(house!, 'q1'),
    ])
      expect(engine.placeDetail({ place_id: other }).status).toBe('BAD_REQUEST');
  });
});

describe('place_ids of a street shown at a point', () => {
  it('give back the house or crossing and the position they were made of, for any house key and any point', () => {
    const { packs, tags, regions } = engine.places;
    const r = regions[0]!;
    const streets: number[] = [];
    for (let i = 0; i < r.places.count && streets.length < 500; i++)
      if (r.places.kind[i] === PlaceKind.street) streets.push(i);
    fc.assert(
      fc.property(
        fc.constantFrom(...streets),
        fc.oneof(
          fc.record({ house: fc.stringMatching(/^[0-9a-z/-]{1,24}$/) }),
          fc.record({ crossing: fc.constantFrom(...streets.map((p) => r.places.name[p]!)) }),
        ),
        fc.double({ min: -90, max: 90, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        (place, what, lat, lng) => {
          const id = encodePlaceId(r.tag, r.region, place, { lat, lng, ...what });
          expect(id.length).toBeLessThanOrEqual(64);
          expect(decodePlaceId(id, packs, tags)).toEqual({
            status: 'ok',
            regionIndex: 0,
            place,
            point: { lat: streetPointPosition(lat), lng: streetPointPosition(lng), ...what },
          });
        },
      ),
      { numRuns: 2000, seed: 31 },
    );
  });
});

describe('a street named with no unit', () => {
  it("is read in the pack's own province first, though a neighbour's road of the name is more important", () => {
    // The whole-city pack holds the edge of Đồng Nai, whose Hùng Vương is a trunk road; Quận 5's is a boulevard.
    const there = engine.geocode({ address: 'Hùng Vương, Đồng Nai' });
    expect(there.status).toBe('OK');
    expect(there.results[0]!.formatted_address).toMatch(/^Hùng Vương, .*Đồng Nai$/);
    for (const address of ['Hùng Vương', 'đường Hùng Vương']) {
      const r = engine.geocode({ address });
      expect(r.results[0]!.formatted_address, address).toMatch(/^Hùng Vương, .*Thành phố Hồ Chí Minh$/);
    }
  });
});

describe("a type word inside a street's name", () => {
  it('written without marks ("duong an duong vuong") is a word of the name, not a second street', () => {
    // "duong" is both the type word Đường and the name word Dương: the street is the whole name, not a house on it.
    const streets = new Set(rawAddresses().map((a) => a.street));
    for (const [address, street] of [
      ['duong an duong vuong quan 5', 'An Dương Vương'],
      ['duong kinh duong vuong binh tan', 'Kinh Dương Vương'],
    ]) {
      expect(streets.has(street!)).toBe(true);
      const top = engine.geocode({ address }).results[0]!;
      expect(top.partial_match, address).toBeFalsy();
      expect(top.address_components[0]!.long_name, address).toBe(street);
    }
  });
});

describe('a name written with its street', () => {
  it('is the place called so on it, not one whose name the words only begin (Saigon Square, not Saigon Square 2)', () => {
    // OSM: way 165518952 "Saigon Square", 77-89 Nam Kỳ Khởi Nghĩa, around 10.7726, 106.7001; node 4131328599 "Saigon
    // Square 2" on the same street at 10.7690, 106.7020.
    const at = engine.geocode({ address: 'Saigon Square Nam Kỳ Khởi Nghĩa' }).results[0]!.geometry.location;
    expect(haversine(at.lat, at.lng, 10.7726, 106.7001)).toBeLessThan(150);
  });
});

describe('bad and strange address text', () => {
  it('never throws: a status for every input, BAD_REQUEST naming the parameter when it is too long', () => {
    const cases = [
      '1/'.repeat(1000),
      '1234567890,./-'.repeat(143),
      'P.5, '.repeat(100),
      'Quận 1 '.repeat(70),
      'gần '.repeat(120) + 'chợ',
      'số 1 ngõ 2 ngách 3 hẻm 4 kiệt 5 '.repeat(15),
      '東京 Москва 北京 Hà Nội مرحبا',
      'ddddddddddd ooooooo wwwww ffffff jjjj',
      'Quận Nhứt Nhứt Nhứt',
      '\u0301'.repeat(400),
      'cafe gần gần gần gần phố',
      'near near near',
      '123/45/67/89/10/11/12/13/14/15/16/17/18/19/20 Nguyễn Huệ',
      'Hangf Bacj Hangf Bacj Hangf Bacj ',
      'Quoocs Tuwr Giams 9999999999999999999',
    ];
    for (const address of cases) {
      const g = engine.geocode({ address });
      expect(['OK', 'NOT_FOUND', 'BAD_REQUEST'], address).toContain(g.status);
      if (g.status === 'BAD_REQUEST') expect(g.error_message).toMatch(/^address /);
      const a = engine.autocomplete({ input: address });
      expect(['OK', 'BAD_REQUEST'], address).toContain(a.status);
      if (a.status === 'BAD_REQUEST') expect(a.error_message).toMatch(/^input /);
    }
  });
});
