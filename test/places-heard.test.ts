/**
 * Names spelt as their writer says them (text/syllable.ts soundAlikes): the north's ch/tr, s/x, d/gi/r and l/n, the
 * south's v/d and its endings ("đứt" for Đức, "tấc" for Tất), on the whole-HCMC pack and the Hanoi pack. Truth: the
 * raw inputs' elements and road names, and the official ward polygons, never the engine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { fold } from '../src/places/text/fold';
import { osmElements } from './helpers/osm-elements';
import { testPack, type TestRegion } from './helpers/packs';
import { HIT_METRES } from './helpers/typed-queries';
import { referenceWardAt } from './helpers/ward-reference';

const engines = new Map<TestRegion, Engine>();
beforeAll(async () => {
  for (const region of ['hcmc-city', 'hanoi'] as const)
    engines.set(region, await createEngine({ packs: [testPack(region)], wasm: false }));
}, 600_000);

const named = (region: TestRegion, name: RegExp, also: (t: Record<string, string>) => boolean = () => true) =>
  osmElements(region).filter((e) => name.test(fold(e.tags.name ?? '')) && also(e.tags));

describe('a place whose name is misspelt as it sounds', () => {
  it.each([
    ['trợ bến thành', /^cho ben thanh$/, (t: Record<string, string>) => t.amenity === 'marketplace'],
    ['bệnh viện trợ rẫy', /cho ray/, (t: Record<string, string>) => t.amenity === 'hospital'],
    ['nhà thờ đứt bà', /^nha tho duc ba$/, () => true],
    // Its only name is stored without marks ("Tao Dan Park"): "đàng" is heard as its "Dan", one typo away too.
    ['công viên tao đàng', /^tao dan park$/, (t: Record<string, string>) => t.leisure === 'park'],
    // A syllable of two letters heard otherwise ("da": Gia) has the kind asked and one name word to vouch for it.
    ['công viên da định', /^cong vien gia dinh$/, (t: Record<string, string>) => t.leisure === 'park'],
    // The kind's own word heard otherwise ("chường" for trường) is read as the kind.
    // (Its campuses are tagged university or school.)
    [
      'chường đại học bách khoa',
      /(dai hoc|dh) bach khoa/,
      (t: Record<string, string>) => t.amenity === 'university' || t.amenity === 'school',
    ],
  ])('%s', (address, name, also) => {
    const truth = named('hcmc-city', name, also);
    expect(truth.length).toBeGreaterThan(0);
    const top = engines.get('hcmc-city')!.geocode({ address }).results[0];
    expect(top).toBeDefined();
    const { lat, lng } = top!.geometry.location;
    expect(Math.min(...truth.map((e) => haversine(lat, lng, e.lat, e.lon)))).toBeLessThan(HIT_METRES);
  });
});

describe('a street misspelt as it sounds is that street, whole', () => {
  it.each([
    ['hcmc-city', 'chần quốc thảo', 'Trần Quốc Thảo'],
    ['hcmc-city', 'nguyễn tấc thành quận 4', 'Nguyễn Tất Thành'],
    ['hcmc-city', 'đường hai bà chưng quận 1', 'Hai Bà Trưng'],
    ['hanoi', 'phố chàng tiền', 'Phố Tràng Tiền'],
    ['hanoi', 'nò sũ', 'Phố Lò Sũ'],
    // Read as the street before the parser sees it: as written, "hưng đạo" is a commune's name, and "hiu" no word.
    ['hanoi', 'chần hưng đạo hoàn kiếm', 'Phố Trần Hưng Đạo'],
    ['hanoi', 'lê văn hiu', 'Phố Lê Văn Hưu'],
  ] as const)('%s: %s', (region, address, street) => {
    // The street is in the inputs under that name.
    expect(named(region, new RegExp(`^${fold(street)}$`), (t) => t.highway !== undefined).length).toBeGreaterThan(0);
    const top = engines.get(region)!.geocode({ address }).results[0];
    expect(top?.partial_match).toBeFalsy();
    expect(fold(top!.address_components[0]!.long_name)).toBe(fold(street));
  });
});

describe('a ward misspelt as it sounds', () => {
  it.each([
    ['phường giên hồng', 'Phường Diên Hồng'],
    ['phường đứt nhuận', 'Phường Đức Nhuận'],
    // "da" (Gia) has the unit's type word and one name word to vouch for it.
    ['phường da định', 'Phường Gia Định'],
    // "Phường" asks for a ward though the admin table holds none so written: not the market named Tân Định.
    ['phường tân địn quận 1', 'Phường Tân Định'],
  ])('%s is %s, by its official polygon', (address, ward) => {
    const top = engines.get('hcmc-city')!.geocode({ address }).results[0];
    expect(top?.partial_match).toBeFalsy();
    expect(fold(top!.address_components[0]!.long_name)).toBe(fold(ward));
    expect(referenceWardAt(top!.geometry.location.lat, top!.geometry.location.lng)?.fullName).toBe(ward);
  });
});

describe('a word heard otherwise is tried only when the words as written find nothing whole', () => {
  it('"pho di bo" (no walking street in the Hanoi inputs) is not a place whose other name holds "Vi"', () => {
    expect(named('hanoi', /pho di bo/)).toEqual([]);
    const results = engines.get('hanoi')!.geocode({ address: 'pho di bo' }).results;
    expect(results.filter((r) => !r.partial_match)).toEqual([]);
  });
  // (Read as heard before the search, "Rấy", which no place holds so marked, became "Giấy": NOT_FOUND.)
  it('a tone slipped is read as written first: "Bệnh viện Chợ Rấy" is Chợ Rẫy', () => {
    const truth = named('hcmc-city', /cho ray/, (t) => t.amenity === 'hospital');
    expect(truth.length).toBeGreaterThan(0);
    const top = engines.get('hcmc-city')!.geocode({ address: 'Bệnh viện Chợ Rấy' }).results[0]!;
    const { lat, lng } = top.geometry.location;
    expect(Math.min(...truth.map((e) => haversine(lat, lng, e.lat, e.lon)))).toBeLessThan(HIT_METRES);
  });
  it('a street written right keeps its answer ("đường trần hưng đạo quận 1")', () => {
    const top = engines.get('hcmc-city')!.geocode({ address: 'đường trần hưng đạo quận 1' }).results[0];
    expect(top?.partial_match).toBeFalsy();
    expect(fold(top!.address_components[0]!.long_name)).toBe('tran hung dao');
  });
});
