/**
 * A place asked for in a sentence ("chợ Bến Thành ở đâu", "how to get to Ben Thanh market") and "thành phố" written
 * last for the writer's own city ("bệnh viện mắt thành phố"); a market named by its ward with the city after it
 * ("chợ bến thành TP.HCM"); a ferry landing by its kind ("bến phà Cát Lái"). Truth: the raw PBF's elements (the places the
 * twentieth blind set names), never the engine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { withoutQuestion } from '../src/places/text/question';
import { testPack } from './helpers/packs';
import { osmElements } from './helpers/osm-elements';

describe('withoutQuestion', () => {
  it('leaves out a request before the place and a question after it', () => {
    expect(withoutQuestion('chợ Bến Thành ở đâu vậy')).toBe('chợ Bến Thành');
    expect(withoutQuestion('cho hỏi đường tới nhà thờ Tân Định')).toBe('nhà thờ Tân Định');
    expect(withoutQuestion('Suối Tiên đi như thế nào')).toBe('Suối Tiên');
    expect(withoutQuestion('đường đi thác Prenn')).toBe('thác Prenn');
    // "đường đi bộ" is a walking street.
    expect(withoutQuestion('đường đi bộ Nguyễn Huệ ở đâu')).toBe('đường đi bộ Nguyễn Huệ');
    expect(withoutQuestion("where's Nguyen Hue walking street?")).toBe('Nguyen Hue walking street');
    expect(withoutQuestion('how to get to Ben Thanh market')).toBe('Ben Thanh market');
    // Without marks, runs no name holds.
    expect(withoutQuestion('cho ben thanh quan may')).toBe('cho ben thanh');
  });

  it('keeps names: words of a request without marks that are a name, and a question alone', () => {
    // "Đền Lừ" is a street of Hanoi, "Đền Hùng" a temple: "den" without marks is no "đến".
    for (const text of ['duong den lu', 'đường Đền Lừ', 'den hung', 'ở đâu', 'Tới', 'where'])
      expect(withoutQuestion(text)).toBe(text);
  });
});

describe('asked in a sentence, on the whole-HCMC pack', () => {
  let engine: Engine;
  let at: Map<string, [number, number]>;
  beforeAll(async () => {
    engine = await createEngine({ packs: [testPack('hcmc-city')], wasm: false });
    at = new Map(osmElements('hcmc-city').map((e) => [e.id, [e.lat, e.lon]]));
  }, 600_000);

  /** Metres from the raw element `ref` to the top answer of `address`. */
  const metres = (address: string, ref: string) => {
    const top = engine.geocode({ address }).results[0];
    const p = at.get(ref)!;
    return top ? haversine(top.geometry.location.lat, top.geometry.location.lng, p[0], p[1]) : Infinity;
  };

  it.each([
    ['chợ Bến Thành ở đâu', 'way/39514795'],
    ['how to get to Ben Thanh market', 'way/39514795'],
    ['đường đi đến bệnh viện Chợ Rẫy', 'way/463034285'],
    ['cho hỏi đường tới nhà thờ Tân Định', 'way/60118189'],
    ['where is the Jade Emperor pagoda', 'node/411919298'],
    ['công viên Tao Đàn ở quận nào', 'way/500888743'],
  ])('%s: the place itself (%s)', (address, ref) => {
    expect(metres(address, ref)).toBeLessThan(150);
  });

  it.each([
    ['bệnh viện mắt thành phố', 'way/225209455'],
    ['viện Pasteur thành phố', 'way/193092896'],
    ['bưu điện thành phố ở đâu', 'way/39514793'],
  ])('%s: "thành phố" last is Hồ Chí Minh, the city of the pack (%s)', (address, ref) => {
    expect(metres(address, ref)).toBeLessThan(150);
  });

  it('a kind named by a ward, then the city after its type word: the city is where, the ward the name', () => {
    // "Bến Thành" is a ward too; "TP.HCM" after it is no word of the market's name.
    expect(metres('chợ bến thành TP.HCM', 'way/39514795')).toBeLessThan(150);
    expect(engine.geocode({ address: 'chợ bến thành TP.HCM' }).results[0]?.partial_match ?? false).toBe(false);
  });

  it('"bến phà" asks for a ferry landing: the one of Cát Lái, not a landing called "Bến Đá" 19 km off', () => {
    expect(metres('bến phà Cát Lái', 'node/366427318')).toBeLessThan(150);
  });

  it("a kind named by a ward, then its district: the ward's words name the place, the district says where", () => {
    // "Tân Sơn Nhất Gò Vấp", "Gia Định Gò Vấp" read together as one unit's name find nothing.
    expect(metres('Chợ Tân Sơn Nhất Gò Vấp', 'way/125294544')).toBeLessThan(150);
    expect(metres('cong vien Gia Dinh Go Vap', 'way/32735067')).toBeLessThan(400);
    // The district binds: Chợ Bình Khánh of An Khánh (Thủ Đức) is no market of Cần Giờ.
    const top = engine.geocode({ address: 'cho Binh Khanh Can Gio' }).results[0];
    expect(top?.formatted_address ?? '').not.toMatch(/^Chợ Bình Khánh, .*An Khánh/);
  });

  it('a name holding "Thành phố" is found by it first', () => {
    expect(engine.geocode({ address: 'Nhà hát Thành phố' }).results[0]?.formatted_address).toMatch(
      /^Nhà hát Thành phố,/,
    );
  });
});
