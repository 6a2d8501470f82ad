/**
 * Precision over recall, one address system per address, and no repeated answers, on the real Hanoi and Ho Chi Minh
 * City packs. What "absent" means is checked here too: a scan of every input file finds no element with the name.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAdminUnits } from '../data-tools/admin';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { fold } from '../src/places/text/fold';
import { mulberry32 } from '../src/trip/rng';
import { ADMIN, OSM, PACK_INPUTS, testPack } from './helpers/packs';

let hanoi: Engine;
let hcmc: Engine;
beforeAll(async () => {
  hanoi = await createEngine({ packs: [testPack('hanoi')], wasm: false });
  hcmc = await createEngine({ packs: [testPack('hcmc')], wasm: false });
}, 120_000);

/** Folded text of every input file of a pack (names and tags as written, JSON escapes decoded), padded with spaces. */
function inputText(region: 'hanoi' | 'hcmc'): string {
  const text = PACK_INPUTS[region]
    .map((f) => {
      const raw = readFileSync(OSM + f, 'utf8');
      return fold(
        f.endsWith('.json') ? JSON.stringify(JSON.parse(raw)) : raw.replace(/&#39;/g, "'").replace(/&amp;/g, '&'),
      );
    })
    .join(' ');
  return ` ${text} `;
}
/** Whether the inputs hold the name as whole words. */
const holds = (text: string, name: string): boolean => text.includes(` ${fold(name)} `);

describe('places the data does not hold', () => {
  // Real landmarks of central Hanoi whose names no input holds (checked below): never an unrelated confident answer.
  const absent = [
    'Nhà hát Lớn Hà Nội',
    'Ngân hàng Nhà nước',
    'Hồ Gươm',
    'Lăng Chủ tịch Hồ Chí Minh',
    'Bảo tàng Hồ Chí Minh',
    'Chợ Bến Thành',
  ];

  it('the landmarks are really absent from the inputs', () => {
    const text = inputText('hanoi');
    for (const name of absent) expect(holds(text, name), name).toBe(false);
  });

  it('answer NOT_FOUND, or only a partial match', () => {
    for (const address of absent) {
      const r = hanoi.geocode({ address });
      if (r.status === 'OK')
        for (const x of r.results) expect(x.partial_match, `${address} → ${x.formatted_address}`).toBe(true);
      else expect(r.status, address).toBe('NOT_FOUND');
    }
  });

  it('a landmark named with its street answers the street, marked partial (Hồ Thiền Quang → Phố Thiền Quang)', () => {
    expect(holds(inputText('hanoi'), 'Hồ Thiền Quang')).toBe(false);
    const r = hanoi.geocode({ address: 'Hồ Thiền Quang' });
    expect(r.status).toBe('OK');
    expect(r.results[0]!.partial_match).toBe(true);
    expect(r.results[0]!.address_components[0]!.long_name).toBe('Phố Thiền Quang');
  });

  it('a house number the data does not hold answers the street, marked partial', () => {
    const r = hanoi.geocode({ address: '999 Phố Hàng Bông' });
    expect(r.results[0]!.partial_match).toBe(true);
    expect(r.results[0]!.formatted_address.startsWith('Phố Hàng Bông,')).toBe(true);
    const exact = hanoi.geocode({ address: '107 Phố Hàng Bông' });
    expect(exact.results[0]!.partial_match).toBeUndefined();
    expect(exact.results[0]!.formatted_address.startsWith('107 Phố Hàng Bông,')).toBe(true);
  });

  it("a place met by part of its name and a word inside its street's name is partial ('dong khoi')", () => {
    // Đồng Khởi lies in Quận 1, outside the district pack; Dòng Đức Bà stands on Nam Kỳ Khởi Nghĩa.
    expect(holds(inputText('hcmc'), 'Đồng Khởi')).toBe(false);
    const r = hcmc.geocode({ address: 'dong khoi' });
    if (r.status === 'OK')
      for (const x of r.results) expect(x.partial_match, `dong khoi → ${x.formatted_address}`).toBe(true);
    // A street written from its first word still names the place on it.
    const pho = hcmc.geocode({ address: 'Phở Hòa Pasteur' });
    expect(pho.results[0]!.partial_match).toBeUndefined();
    expect(pho.results[0]!.formatted_address).toContain('Pasteur');
  });

  it('a place of another region is NOT_FOUND (Hồ Gươm in Ho Chi Minh City, Chợ Bến Thành in Hà Nội)', () => {
    expect(hcmc.geocode({ address: 'Hồ Gươm' }).status).toBe('NOT_FOUND');
    expect(hcmc.geocode({ address: 'Phở Thìn Bờ Hồ' }).status).toBe('NOT_FOUND');
    expect(hanoi.geocode({ address: 'Chợ Bến Thành' }).status).toBe('NOT_FOUND');
  });
});

describe('queries as people type them', () => {
  /** A named element of the inputs, found by a plain scan of the Overpass JSON files. */
  function element(name: string): { lat: number; lon: number } {
    for (const f of PACK_INPUTS.hanoi.filter((x) => x.endsWith('.json'))) {
      for (const e of JSON.parse(readFileSync(OSM + f, 'utf8')).elements) {
        if (e.tags?.name === name || e.tags?.['name:en'] === name)
          return { lat: e.lat ?? e.center.lat, lon: e.lon ?? e.center.lon };
      }
    }
    throw new Error(`no element named ${name}`);
  }
  const near = (r: ReturnType<Engine['geocode']>, at: { lat: number; lon: number }) =>
    r.status === 'OK' &&
    haversine(r.results[0]!.geometry.location.lat, r.results[0]!.geometry.location.lng, at.lat, at.lon) <= 150;

  it('abbreviations, English names, category words and missing diacritics', () => {
    const cases: Array<[string, string]> = [
      ['bach mai hospital', 'Bệnh viện Bạch Mai'],
      ['BV Bạch Mai', 'Bệnh viện Bạch Mai'],
      ['benh vien bach mai', 'Bệnh viện Bạch Mai'],
      ['National Institute of Hematology', 'Viện Huyết học - Truyền máu Trung ương'],
      ['giang cafe', 'Cà Phê Giảng - Cà Phê Trứng'],
      ['cafe Giảng', 'Cà Phê Giảng - Cà Phê Trứng'],
      ['Vietnam National Eye Hospital', 'Bệnh viện Mắt Trung ương'],
    ];
    for (const [q, name] of cases)
      expect(
        near(hanoi.geocode({ address: q }), element(name)),
        `${q} → ${hanoi.geocode({ address: q }).results[0]?.formatted_address}`,
      ).toBe(true);
  });

  it('no two results share a formatted address (a street stored in pieces, the same address twice)', () => {
    for (const address of ['dinh tien hoang', '20 Hai Bà Trưng', 'Phố Huế', 'Hàng Bông']) {
      const r = hanoi.geocode({ address });
      const texts = r.results.map((x) => x.formatted_address);
      expect(new Set(texts).size, address).toBe(texts.length);
      const p = hanoi.autocomplete({ input: address }).predictions.map((x) => x.description);
      expect(new Set(p).size, address).toBe(p.length);
    }
  });
});

describe('one address system per address', () => {
  const table = loadAdminUnits(ADMIN);
  const legacy = (level: string) => table.units.filter((u) => u.system === 'legacy' && u.level === level);
  const legacyDistricts = new Set(legacy('district').map((u) => u.nameWithType));
  /** A 2025 address holds no legacy district (Quận, Huyện, Thị xã, or a district-level city such as Thành phố Thủ Đức). */
  const isModern = (address: string): boolean => !address.split(', ').some((p) => legacyDistricts.has(p));
  /** A legacy address's ward, when it names one, is a legacy ward of the district it names. */
  const isLegacyWhole = (address: string): boolean => {
    const parts = address.split(', ');
    const district = legacy('district').find((d) => parts.includes(d.nameWithType));
    if (!district) return parts.some((p) => /^(Tỉnh|Thành phố) /.test(p));
    const wardPart = parts[parts.indexOf(district.nameWithType) - 1];
    return (
      !wardPart ||
      !/^(Phường|Xã|Thị trấn) /.test(wardPart) ||
      legacy('ward').some((w) => w.parent === district.id && w.nameWithType === wardPart)
    );
  };

  it('reverse results show the 2025 address; the legacy one comes whole, apart, on request', () => {
    const [x0, y0, x1, y1] = hanoi.regions[0]!.meta.bbox!;
    const rand = mulberry32(3);
    let legacyShown = 0;
    for (let k = 0; k < 150; k++) {
      const latlng = `${y0 + rand() * (y1 - y0)},${x0 + rand() * (x1 - x0)}`;
      const r = hanoi.geocode({ latlng, has_deprecated_administrative_unit: true });
      for (const x of r.results) {
        expect(isModern(x.formatted_address), x.formatted_address).toBe(true);
        if (x.deprecated_description) {
          legacyShown++;
          expect(isLegacyWhole(x.deprecated_description), x.deprecated_description).toBe(true);
          expect(x.deprecated_compound!.district || x.deprecated_compound!.commune).not.toBe('');
        }
      }
      const plain = hanoi.geocode({ latlng });
      for (const x of plain.results) expect(x.deprecated_description).toBeUndefined();
    }
    expect(legacyShown).toBeGreaterThan(50);
  });

  it('a query in legacy units is answered in the legacy system, whole', () => {
    const r = hanoi.geocode({ address: 'Phường Tràng Tiền, Quận Hoàn Kiếm' });
    expect(r.results[0]!.formatted_address).toBe('Phường Tràng Tiền, Quận Hoàn Kiếm, Thành phố Hà Nội');
    for (const x of r.results)
      expect(isModern(x.formatted_address) || isLegacyWhole(x.formatted_address), x.formatted_address).toBe(true);
  });

  it('has_deprecated_administrative_unit must be a boolean', () => {
    const r = hanoi.geocode({ address: 'Hàng Bông', has_deprecated_administrative_unit: 'maybe' as 'true' });
    expect(r.status).toBe('BAD_REQUEST');
    expect(r.error_message).toMatch(/has_deprecated_administrative_unit/);
    expect(hanoi.autocomplete({ input: 'Hàng Bông', has_deprecated_administrative_unit: 'x' as 'true' }).status).toBe(
      'BAD_REQUEST',
    );
  });
});
