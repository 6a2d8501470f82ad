/**
 * Initialisms in stored names stand for their words ("TT Dạy Nghề Phú Nhuận" is found by "trung tâm dạy nghề phú
 * nhuận", "Trường PT Năng Khiếu" by "phổ thông năng khiếu"), a place on a long street is found with the street's
 * initials ("nga hoang cmt8"), and a query's short initialism is read only between two other words ("Trần Quốc Th" is
 * a street being typed, not "tiểu học"; "Vietcombank CN Nam Sài Gòn" a bank's chi nhánh). Truth: the raw PBF's elements of those names, never the engine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { storedTermsOf } from '../src/places/search/terms';
import { readEnglish } from '../src/places/text/english-words';
import { osmElements } from './helpers/osm-elements';
import { testPack } from './helpers/packs';

describe('initialisms', () => {
  it("a stored name's initialisms also stand for their words, optional", () => {
    const terms = storedTermsOf('TT Dạy Nghề Phú Nhuận');
    expect(terms.filter((t) => !t.optional).map((t) => t.folded)).toEqual(['tt', 'day', 'nghe', 'phu', 'nhuan']);
    expect(terms.filter((t) => t.expanded).map((t) => t.exact)).toEqual(['trung', 'tâm']);
    expect(storedTermsOf('Trường PT Năng Khiếu').some((t) => t.expanded && t.folded === 'pho')).toBe(true);
    // A number is no initialism.
    expect(storedTermsOf('Nhà 12').some((t) => t.expanded)).toBe(false);
  });

  it("a query's initialisms of two letters are read only between two other words (not a word being typed, a type word)", () => {
    const held = () => true;
    expect(readEnglish('Trần Quốc Th', held)).toBe('Trần Quốc Th');
    expect(readEnglish('TT Củ Chi', held)).toBe('TT Củ Chi');
    expect(readEnglish('UBND phường 5', held)).toBe('ủy ban nhân dân phường 5');
    expect(readEnglish('Vietcombank CN Nam Sài Gòn', held)).toBe('Vietcombank chi nhánh Nam Sài Gòn');
    expect(readEnglish('Vietcombank CN', held)).toBe('Vietcombank CN');
  });
});

describe('spelled out for a name written with initialisms, on the whole-HCMC pack', () => {
  let engine: Engine;
  let named: (name: string, street?: string) => [number, number][];
  beforeAll(async () => {
    engine = await createEngine({ packs: [testPack('hcmc-city')], wasm: false });
    const elements = osmElements('hcmc-city');
    named = (name, street) =>
      elements
        .filter((e) => e.tags.name === name && (street === undefined || e.tags['addr:street'] === street))
        .map((e) => [e.lat, e.lon]);
  }, 600_000);

  it.each([
    ['trung tâm dạy nghề phú nhuận', 'TT Dạy Nghề Phú Nhuận'],
    ['trung tâm tin học đh tự nhiên', 'TT Tin Học ĐH Tự Nhiên'],
    ['phổ thông năng khiếu', 'Trường PT Năng Khiếu'],
    // A place on a long street, with the street's initials.
    ['nga hoang cmt8', 'Nga Hoàng', 'Cách Mạng Tháng Tám'],
    ['Gloria Jeans NTMK', "Gloria Jean's Coffees", 'Nguyễn Thị Minh Khai'],
    // "CN" (chi nhánh) between a bank and its branch's name.
    ['Vietcombank CN Nam Sài Gòn', 'Ngân Hàng Ngoại Thương Việt Nam - Vietcombank - Chi Nhánh Nam Sài Gòn'],
  ])('%s: the place named %s', (address, name, street?: string) => {
    const truth = named(name, street);
    expect(truth.length).toBeGreaterThan(0);
    const top = engine.geocode({ address }).results[0];
    expect(top).toBeDefined();
    const { lat, lng } = top!.geometry.location;
    expect(Math.min(...truth.map(([a, b]) => haversine(lat, lng, a, b)))).toBeLessThan(150);
  });
});

describe("universities by their English initials, on the whole-HCMC pack (each the school's own campus, as mapped)", () => {
  let engine: Engine;
  let named: (pattern: RegExp) => [number, number][];
  beforeAll(async () => {
    engine = await createEngine({ packs: [testPack('hcmc-city')], wasm: false });
    const elements = osmElements('hcmc-city');
    named = (pattern) => elements.filter((e) => pattern.test(e.tags.name ?? '')).map((e) => [e.lat, e.lon]);
  }, 600_000);

  it.each([
    ['UIT', /^Đại học Công Nghệ Thông Tin$/u],
    ['IUH', /^Trường Đại Học Công Nghiệp TP\.HCM$/u],
    ['TDTU', /^ĐH Tôn Đức Thắng$/u],
    ['UMP', /^(ĐH|Đại học) Y Dược( TP\.HCM)?$/u],
    // Bách Khoa (its campuses), not HCMUTE (Sư Phạm Kỹ Thuật), whose initials begin with these.
    ['HCMUT', /^(ĐH|Đại học) Bách Khoa( TpHCM)?$/iu],
    ['NLU', /^ĐH Nông Lâm TP\.HCM$/u],
    // Two kinds of place and nothing else ("đại học", "ngân hàng"): the place called exactly so is no partial answer.
    ['BUH', /^(ĐH|Đại học) Ngân hàng( TP\.HCM)?$/iu],
  ])('%s: %s', (address, name) => {
    const truth = named(name);
    expect(truth.length).toBeGreaterThan(0);
    const top = engine.geocode({ address }).results[0];
    expect(top).toBeDefined();
    expect(top!.partial_match).toBeFalsy();
    const { lat, lng } = top!.geometry.location;
    expect(Math.min(...truth.map(([a, b]) => haversine(lat, lng, a, b)))).toBeLessThan(150);
  });
});
