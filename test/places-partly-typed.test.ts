/**
 * Text typed partly as people type it, on the whole Ho Chi Minh City pack: an unfinished last word in a geocode (read
 * as autocomplete reads it when nothing whole answers, or when a stub of one or two letters makes a better name of
 * another place than as a word of its own, and the answer marked partial), marks dropped from some
 * words of a marked query (told by a syllable that cannot be written without its tone), "pho" without marks, "metro"
 * for a station, typos that keep the tone written, units that contradict each other (any answer only partial), and in
 * autocomplete a unit's type word or name begun after a name, a kind's words begun ("bus s"), a begun word that goes
 * on the name rather than a word typed already ("Chợ Bà C"), and what a place is near begun ("ATM near Turtl").
 * Each case is compared with the same engine's answer to the text written out whole, not with fixed coordinates.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import type { GeocodeResponse } from '../src/api/place-shapes';
import { testPack } from './helpers/packs';

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ packs: [testPack('hcmc-city')], wasm: false });
}, 180_000);

/** The top result of a forward geocode (undefined when none). */
const top = (address: string) => {
  const r = engine.geocode({ address }) as GeocodeResponse;
  return r.status === 'OK' ? r.results[0] : undefined;
};

/** Autocomplete of `typed` holds, among its first five, the best prediction of the same text without its last word. */
const foundWithoutLast = (typed: string): void => {
  const without = typed.slice(0, typed.lastIndexOf(' '));
  const want = engine.autocomplete({ input: without, limit: 1 }).predictions[0];
  expect(want, without).toBeDefined();
  const got = engine.autocomplete({ input: typed, limit: 5 }).predictions.map((p) => p.place_id);
  expect(got, typed).toContain(want!.place_id);
};

/** Autocomplete of `typed` puts first the best prediction of the text written out, `whole`. */
const firstAsWhole = (typed: string, whole: string): void => {
  const want = engine.autocomplete({ input: whole, limit: 1 }).predictions[0];
  expect(want, whole).toBeDefined();
  expect(engine.autocomplete({ input: typed, limit: 1 }).predictions[0]?.place_id, typed).toBe(want!.place_id);
};

describe('text typed partly', () => {
  it('an unfinished last word finds what the whole word finds, marked partial (the text names no whole place)', () => {
    for (const [typed, whole] of [
      ['chợ bến th', 'chợ bến thành'],
      ['thao cam v', 'thảo cầm viên'],
      ['dai hoc ton duc th', 'đại học tôn đức thắng'],
    ]) {
      const got = top(typed!),
        want = top(whole!);
      expect(want, whole).toBeDefined();
      expect(got?.place_id, typed).toBe(want!.place_id);
      expect(got?.partial_match, typed).toBe(true);
      expect(want!.partial_match ?? false, whole).toBe(false);
    }
  });

  it("autocomplete: a unit's type word begun or whole after the name ('phuon', 'quậ', 'phường') is where the writer is going", () => {
    // Compared with the same text without the begun word: its best prediction is among the first five.
    const typedSoFar = ['212 Phan Xich Long phuon', 'Chợ Bến Thành quậ', 'nguyễn văn trỗi phườ'];
    for (const typed of [...typedSoFar, '12 Phan Văn Trị, phường', '139 Hoàng Văn Thụ phường']) foundWithoutLast(typed);
  });

  it("autocomplete: a unit's name or type word begun after a name may be where the place is, when the words find nothing", () => {
    // Compared with the same text without the begun word, as above.
    const begun = ['SC VivoCity Phú', 'chợ Bà Chiểu Bìn', 'BX Miền Đông Bìn', 'viện Pasteur th', 'Landmark 81 Bin'];
    // Also when a whole address of the words finds something else ("cho binh tay q": the ward Bình Tây).
    for (const typed of [...begun, 'SECC Quậ', 'Vincom Center Dis', 'cho binh tay q', 'Binh Tay market Di'])
      foundWithoutLast(typed);
    // Where places of the name are found, those of the unit begun come first: compared with the text written out.
    for (const [typed, whole] of [['KFC Gò', 'KFC Gò Vấp']]) {
      const want = engine.autocomplete({ input: whole!, limit: 1 }).predictions[0];
      expect(want?.description, whole).toMatch(/^KFC, .*Gò Vấp/u);
      expect(engine.autocomplete({ input: typed!, limit: 1 }).predictions[0]?.place_id, typed).toBe(want!.place_id);
    }
  });

  it('a stub of one or two letters completes a name when that reads better than the stub as a word of its own', () => {
    // As a word, "B" is Hẻm B and "Hòa" part of Chợ Phú Hòa, 3.8 km from either Chợ Hòa Bình.
    const got = top('Chợ Hòa B');
    expect(got?.formatted_address).toMatch(/^Chợ Hòa Bình/);
    expect(got?.partial_match).toBe(true);
    // A stub that is the end of the place's own name, or of a street read whole, keeps the whole answer.
    expect(top('Chợ Tăng Nhơn Phú B')?.partial_match ?? false).toBe(false);
    expect(top('Mai Chí Thọ Q2')?.formatted_address).toMatch(/^Mai Chí Thọ/);
  });

  it('autocomplete: an unfinished last word goes on with the name, not again with a word typed already', () => {
    // "C" begins the "Chợ" of every market's name too, a shorter word than "Chiểu" (so a closer prefix).
    for (const name of ['Chợ Bà Chiểu', 'Chợ Bình Chánh'])
      expect(engine.autocomplete({ input: name, limit: 1 }).predictions[0]?.structured_formatting.main_text).toBe(name);
    firstAsWhole('Chợ Bà C', 'Chợ Bà Chiểu');
    firstAsWhole('chợ bà ch', 'Chợ Bà Chiểu');
    firstAsWhole('Chợ Bình C', 'Chợ Bình Chánh');
  });

  it("autocomplete: an unfinished word that goes on a kind's words is that kind ('Mien Tay bus s' is a bus station)", () => {
    firstAsWhole('Mien Tay bus s', 'Mien Tay bus station');
    firstAsWhole('Ben Thanh bus sta', 'Ben Thanh bus station');
    // Words written bare in a marked text are written so: "Quang T" begins no "quảng trường" (a square) here.
    firstAsWhole('chùa Phổ Quang T', 'chùa Phổ Quang Tân Bình');
  });

  it('autocomplete: what a place is near may be begun ("ATM near Turtl")', () => {
    firstAsWhole('ATM near Turtl', 'ATM near Turtle Lake');
    firstAsWhole('cafe near Independen', 'cafe near Independence Palace');
    firstAsWhole('pharmacy near Tan Di', 'pharmacy near Tan Dinh market');
  });

  it('autocomplete: the words before a begun unit word, read alone, where with it they find nothing good', () => {
    // With "q" the words parse as a street's name; alone, as the market's words in Phường Bến Thành.
    firstAsWhole('cho ben thanh q', 'cho ben thanh');
    foundWithoutLast('2 Nguyễn Thị Minh Khai, Q');
    foundWithoutLast('cho Cau qua');
  });

  it('a whole answer to the words as typed is kept: the last word is read whole first', () => {
    // "Bến Thành" as typed is the market itself, not the start of a longer word.
    expect(top('chợ bến thành')?.formatted_address).toMatch(/^Chợ Bến Thành/);
    expect(engine.geocode({ address: 'zzqx vv' }).status).toBe('NOT_FOUND');
  });

  it('words left without marks in a marked query are read as unmarked when one cannot be written so', () => {
    // "duc" closes on c without a tone: the writer dropped the marks of "Đức Bà".
    const want = top('Nhà thờ Đức Bà');
    expect(want).toBeDefined();
    for (const typed of ['nhà thờ duc ba', 'Nhà thờ Duc Ba']) expect(top(typed)?.place_id, typed).toBe(want!.place_id);
  });

  it('"pho" written bare before a number alone is Phở, a dish: streets are numbered as "Đường số N"', () => {
    const want = top('phở 24 quận 1');
    expect(want?.formatted_address).toMatch(/^Phở 24/);
    expect(top('pho 24 q1')?.place_id).toBe(want!.place_id);
  });

  it('"metro" is a word for a station ("ga metro Tao Đàn" is the station Tao Đàn)', () => {
    const want = top('ga Tao Đàn');
    expect(want?.formatted_address).toMatch(/^Tao Đàn/);
    for (const typed of ['ga metro tao dan', 'metro station Tao Dan'])
      expect(top(typed)?.place_id, typed).toBe(want!.place_id);
  });

  it('a unit\'s name after "metro" may end a name: "Metro Hiệp Phú" is the supermarket so called, no station', () => {
    // The supermarket stands in Tân Thới Hiệp (OSM way 327591200, its outline around 10.8641, 106.6477), far from the
    // ward Hiệp Phú and from any station.
    const want = top('siêu thị Metro Hiệp Phú');
    const at = want!.geometry.location;
    expect(haversine(at.lat, at.lng, 10.8641, 106.6477)).toBeLessThan(150);
    for (const typed of ['Metro Hiệp Phú', 'metro hiep phu']) {
      expect(top(typed)?.place_id, typed).toBe(want!.place_id);
      expect(top(typed)?.partial_match, typed).toBeUndefined();
    }
  });

  it('a word written with marks keeps its tone through a typo ("phà" is not "Phấn", "Việt" not "Tám")', () => {
    expect(top('phà long th')?.formatted_address).toMatch(/^Phà Long Thịnh/);
    // No Lê Văn Việt in Quận 1 (Lê Văn Tám park is one typo and a tone away): the district, partly what was asked.
    const got = top('Lê Văn Việt Quận 1');
    expect(got?.formatted_address).toBe('Quận 1, Thành phố Hồ Chí Minh');
    expect(got?.partial_match).toBe(true);
  });

  it('a name that is the query with its abbreviations written out is called so ("Sacombank Q8")', () => {
    const want = top('Sacombank quận 8');
    expect(want?.formatted_address).toMatch(/^Sacombank Quận 8|Phạm Hùng/);
    expect(top('Sacombank Q8')?.place_id).toBe(want!.place_id);
  });

  it('units that contradict each other leave the answer partial', () => {
    const right = top('chợ Bến Thành quận 1');
    expect(right?.partial_match ?? false).toBe(false);
    const wrong = top('chợ Bến Thành quận 5');
    expect(wrong?.partial_match).toBe(true);
  });
});
