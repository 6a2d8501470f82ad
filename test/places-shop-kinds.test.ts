/**
 * Kinds of shop and service people look for every day, in their words: "tạp hóa" mapped as a department store (most of
 * whole HCMC's shop=department_store are family shops named after their owners), "tiệm vàng" (shop=jewelry), "sửa xe"
 * (motorcycle repair), "hồ bơi" (a swimming pool, named or not), "giặt ủi" (laundry), "in ấn" (printing); a kind in
 * a district written without marks ("chua o quan 6", "cay xang binh chanh"). Truth: the raw PBF's elements of the
 * kind and the admin mapping, never the engine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { osmElements, type OsmElement } from './helpers/osm-elements';
import { loadAdminUnits } from '../data-tools/admin/load';
import { ADMIN, testPack } from './helpers/packs';
import { referenceWardAt } from './helpers/ward-reference';
import { HIT_METRES } from './helpers/typed-queries';

type Tags = Record<string, string>;

/** Metres from a result's location to the nearest of the truth's elements. */
function metresToTruth(r: { geometry: { location: { lat: number; lng: number } } }, truth: readonly OsmElement[]) {
  const { lat, lng } = r.geometry.location;
  return Math.min(...truth.map((e) => haversine(lat, lng, e.lat, e.lon)));
}

const CASES: [query: string, what: string, is: (t: Tags) => boolean][] = [
  ['tap hoa anh kha huynh tan phat nha be', 'the shop named anh kha', (t) => t.name === 'anh kha'],
  ['tạp hóa Thu Phương Bình Mỹ Củ Chi', 'the shop named Thu phương', (t) => t.name === 'Thu phương'],
  ['tiệm vàng phường bến thành', 'a jeweller', (t) => t.shop === 'jewelry'],
  [
    'sua xe may phu nhuan',
    'a motorbike repairer (tagged so, or named "Sửa xe …")',
    (t) => t.shop === 'motorcycle_repair' || /^sửa xe/iu.test(t.name ?? ''),
  ],
  ['hồ bơi phường an khánh', 'a swimming pool', (t) => t.leisure === 'swimming_pool'],
  ['giặt ủi quận 1', 'a laundry', (t) => t.shop === 'laundry' || t.shop === 'dry_cleaning'],
  // "in" of "in ấn" is not the English filler: read so, "ấn" matched An Đông Market.
  ['in ấn quận 10', 'a copy shop or printer', (t) => t.shop === 'copyshop' || t.craft === 'printing'],
];

/** The whole-HCMC engine the checks below share. */
let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ packs: [testPack('hcmc-city')], wasm: false });
}, 600_000);

describe('everyday kinds of shop and service, on the whole-HCMC pack', () => {
  it.each(CASES)('%s: %s', (address, _what, is) => {
    const truth = osmElements('hcmc-city').filter((e) => is(e.tags));
    expect(truth.length).toBeGreaterThan(0);
    const top = engine.geocode({ address }).results[0];
    expect(top).toBeDefined();
    expect(metresToTruth(top!, truth)).toBeLessThan(HIT_METRES);
  });
});

/** A place that sells milk tea or tea, by its raw tags: what "trà sữa" asks for (a café serving coffee is not one). */
function isTeaPlace(t: Tags): boolean {
  const first = (t.cuisine ?? '').toLowerCase().split(';')[0]!.trim();
  return (
    first === 'bubble_tea' ||
    first === 'tea' ||
    t.shop === 'tea' ||
    /trà sữa|tra sua|milk tea|bubble tea/iu.test(t.name ?? '')
  );
}

describe('"trà sữa" asks for milk tea, not for any café', () => {
  it.each([
    ['hcmc-city', 'trà sữa tân phú'],
    ['hcmc-city', 'milk tea district 3'],
    ['hanoi', 'trà sữa hoàn kiếm'],
  ] as const)(
    '%s: %s answers a milk tea or tea place, or only partly',
    async (region, address) => {
      const engine = await createEngine({ packs: [testPack(region)], wasm: false });
      const truth = osmElements(region).filter((e) => isTeaPlace(e.tags));
      expect(truth.length).toBeGreaterThan(0);
      for (const r of engine.geocode({ address }).results.filter((x) => !x.partial_match))
        expect(metresToTruth(r, truth)).toBeLessThan(HIT_METRES);
      await engine.close();
    },
    600_000,
  );
});

describe('"cửa hàng" before a brand says it is a shop, which its name need not', () => {
  it.each([
    ['cửa hàng circle k gò vấp', /^Circle K/iu],
    ['cửa hàng pizza hut quận 1', /^Pizza Hut/iu],
  ])(
    '%s: a whole answer, one of the brand',
    async (address, brand) => {
      const engine = await createEngine({ packs: [testPack('hcmc-city')], wasm: false });
      const truth = osmElements('hcmc-city').filter(
        (e) => brand.test(e.tags.name ?? '') || brand.test(e.tags.brand ?? ''),
      );
      expect(truth.length).toBeGreaterThan(0);
      const top = engine.geocode({ address }).results[0];
      expect(top).toBeDefined();
      expect(top!.partial_match).toBeFalsy();
      expect(metresToTruth(top!, truth)).toBeLessThan(HIT_METRES);
      await engine.close();
    },
    600_000,
  );
});

describe('shops and services asked for by what they sell or do, in an area', () => {
  it.each([
    ['shop quần áo quận 1', 'a clothes shop', (t: Tags) => ['clothes', 'fashion', 'boutique'].includes(t.shop ?? '')],
    ['thú y bình chánh', 'a vet', (t: Tags) => t.amenity === 'veterinary'],
    // Karaoke places are mostly tagged amenity=nightclub: a nightclub is of the same family as a karaoke.
    ['karaoke quận 3', 'a place named karaoke', (t: Tags) => /karaoke/iu.test(t.name ?? '')],
    // "laptop" is a kind's word, not the syllables "lap top" run together.
    ['laptop phú nhuận', 'a computer shop', (t: Tags) => t.shop === 'computer'],
    [
      'community centre district 5',
      'a community centre (tagged so, or named "Nhà văn hóa …", "Nhà thiếu nhi …")',
      (t: Tags) => t.amenity === 'community_centre' || /^(nhà văn hóa|nhà văn hoá|nhà thiếu nhi)/iu.test(t.name ?? ''),
    ],
    // A street named like a legacy ward of Quận 1: the kind asked on the street, not a stand-in for a landmark.
    [
      'khách sạn phạm ngũ lão',
      'a hotel on Phạm Ngũ Lão',
      (t: Tags) =>
        ['hotel', 'guest_house', 'hostel'].includes(t.tourism ?? '') && /Phạm Ngũ Lão/u.test(t['addr:street'] ?? ''),
    ],
  ])('%s: a whole answer, %s', (address, _what, is) => {
    const truth = osmElements('hcmc-city').filter((e) => is(e.tags));
    expect(truth.length).toBeGreaterThan(0);
    const top = engine.geocode({ address }).results[0];
    expect(top).toBeDefined();
    expect(top!.partial_match).toBeFalsy();
    expect(metresToTruth(top!, truth)).toBeLessThan(HIT_METRES);
  });

  // A kind the area lacks gets no confident answer of a kind near it: a massage place is no nail salon, a motorbike
  // shop no car dealer.
  it.each([
    ['tiệm nail quận 7', (t: Tags) => /\bnails?\b/iu.test(t.name ?? '') || t.beauty === 'nails'],
    ['car dealer thu duc', (t: Tags) => t.shop === 'car'],
  ])('%s: every whole answer is of the kind asked', (address, is) => {
    const truth = osmElements('hcmc-city').filter((e) => is(e.tags));
    for (const r of engine.geocode({ address }).results.filter((x) => !x.partial_match))
      expect(metresToTruth(r, truth)).toBeLessThan(HIT_METRES);
  });
});

describe('a kind in a district, written without marks', () => {
  it('"chua (o) quan 6" is a pagoda, not the fire police whose name holds "Chữa cháy" and "Quận 6"', () => {
    const pagodas = osmElements('hcmc-city').filter(
      (e) => e.tags.religion === 'buddhist' || /^chùa /iu.test(e.tags.name ?? ''),
    );
    const office = osmElements('hcmc-city').filter((e) => /chữa cháy .*quận 6$/iu.test(e.tags.name ?? ''));
    expect(office.length).toBeGreaterThan(0);
    for (const address of ['chua quan 6', 'chua o quan 6', 'chùa ở quận 6']) {
      const top = engine.geocode({ address }).results[0]!;
      expect(metresToTruth(top, pagodas), address).toBeLessThanOrEqual(HIT_METRES);
      expect(metresToTruth(top, office), address).toBeGreaterThan(HIT_METRES);
    }
  });

  it('"cay xang binh chanh" is a fuel station in Bình Chánh, not one whose operator is named after it elsewhere', () => {
    // A station in Nhà Bè, run by "Tram Xang Dau Binh Chanh" (its operator, written without marks).
    const elsewhere = osmElements('hcmc-city').find((e) => e.tags.operator === 'Tram Xang Dau Binh Chanh');
    expect(elsewhere).toBeDefined();
    // The 2025 communes the legacy district Huyện Bình Chánh went into (admin/vn-2025's mapping).
    const admin = loadAdminUnits(ADMIN);
    const district = admin.units.find((u) => u.system === 'legacy' && u.nameWithType === 'Huyện Bình Chánh')!;
    const successors = new Set(
      admin.units
        .filter((u) => u.parent === district.id)
        .flatMap((w) => admin.legacyTo2025.get(w.id) ?? [])
        .map((id) => admin.units[id]!.nameWithType),
    );
    expect(successors.size).toBeGreaterThan(0);
    for (const address of ['cay xang binh chanh', 'cây xăng bình chánh']) {
      const top = engine.geocode({ address }).results[0]!;
      expect(metresToTruth(top, [elsewhere!]), address).toBeGreaterThan(HIT_METRES);
      const ward = referenceWardAt(top.geometry.location.lat, top.geometry.location.lng);
      expect(successors.has(ward!.fullName), `${address}: ${ward?.fullName}`).toBe(true);
    }
  });
});
