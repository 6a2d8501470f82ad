/**
 * Names as people type them (issue 35), on the real Hanoi, Ho Chi Minh City and whole-city packs, with the truth read
 * from the raw OSM inputs (test/helpers/osm-elements.ts: every element of a name, wherever it is): one mark off, two
 * letters swapped, Telex and VNI with the keyboard off, words run together or apart, numbers in names, an exact name
 * against longer ones, and folding that must not make another word. Each rule is checked on the issue's examples and
 * on a set generated from the inputs' own names, whose rates are printed and held to floors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { loadAdminUnits } from '../data-tools/admin';
import { numberAfterName } from '../src/places/name-number';
import { regionQuery } from '../src/places/rank';
import { categorySpans } from '../src/places/text/category-match';
import { fold, tokens } from '../src/places/text/fold';
import { mulberry32 } from '../src/trip/rng';
import { osmElements, type OsmElement } from './helpers/osm-elements';
import { ADMIN, testPack } from './helpers/packs';

type Pack = 'hanoi' | 'hcmc-city';
const engines = {} as Record<Pack, Engine>;
beforeAll(async () => {
  for (const pack of ['hanoi', 'hcmc-city'] as const)
    engines[pack] = await createEngine({ packs: [testPack(pack)], wasm: false });
}, 600_000);

/** Metres within which an answer is the element, and beyond which a confident answer is wrong. */
const HIT_M = 150;
const WRONG_M = 500;

/** Keys of the tags that make an element a place of its own (not a road, a building alone or an admin unit). */
const PLACE_KEYS = ['amenity', 'shop', 'tourism', 'leisure', 'office', 'historic', 'healthcare', 'craft'];
const isPlace = (e: OsmElement): boolean => e.tags.name !== undefined && PLACE_KEYS.some((k) => e.tags[k]);

/** The elements named `name` (case aside) in a pack's inputs. */
function named(pack: Pack, name: string): OsmElement[] {
  const want = name.normalize('NFC').toLowerCase();
  return osmElements(pack).filter((e) => e.tags.name?.normalize('NFC').toLowerCase() === want);
}

type Verdict = 'hit' | 'miss' | 'wrong';

/** How the top geocode answer to `query` does against the truth elements (any of them: branches of a chain). */
function verdict(pack: Pack, query: string, truth: readonly OsmElement[]): Verdict {
  const r = engines[pack].geocode({ address: query });
  const top = r.status === 'OK' ? r.results[0] : undefined;
  if (!top) return 'miss';
  const { lat, lng } = top.geometry.location;
  const metres = Math.min(...truth.map((e) => haversine(lat, lng, e.lat, e.lon)));
  if (metres <= HIT_M) return 'hit';
  return !top.partial_match && metres > WRONG_M ? 'wrong' : 'miss';
}

/** The name of the top answer to `query` (its place detail), or its status. */
function topName(pack: Pack, query: string): string {
  const r = engines[pack].geocode({ address: query });
  if (r.status !== 'OK') return r.status;
  const d = engines[pack].placeDetail({ place_id: r.results[0]!.place_id });
  return `${r.results[0]!.partial_match ? '[partial] ' : ''}${d.status === 'OK' ? d.result!.name : d.status}`;
}

/** The top answer's position, or null. */
function topAt(pack: Pack, query: string): { lat: number; lng: number; partial: boolean } | null {
  const r = engines[pack].geocode({ address: query });
  const top = r.status === 'OK' ? r.results[0] : undefined;
  return top ? { ...top.geometry.location, partial: top.partial_match === true } : null;
}

/** Rates of verdicts over generated cases; the misses and wrong answers are printed. */
function rates(title: string, cases: Array<{ pack: Pack; query: string; truth: OsmElement[] }>) {
  let hit = 0;
  let wrong = 0;
  const off: string[] = [];
  for (const c of cases) {
    const v = verdict(c.pack, c.query, c.truth);
    if (v === 'hit') hit++;
    else off.push(`${v} ${JSON.stringify(c.query)} → ${topName(c.pack, c.query)} (${c.truth[0]!.tags.name})`);
    if (v === 'wrong') wrong++;
  }
  const r = { n: cases.length, hit: hit / cases.length, wrong: wrong / cases.length };
  console.log(
    `${title}: ${r.n} queries, ${(100 * r.hit).toFixed(1)} % right, ${(100 * r.wrong).toFixed(1)} % confidently wrong\n  ${off.join('\n  ')}`,
  );
  return r;
}

/**
 * Named places of a pack's inputs with a name of two words or more, one per name (branches of a chain share their
 * truth: every element of the name), in input order, at most `n`, drawn with a fixed seed.
 */
function sample(pack: Pack, n: number, keep: (name: string) => boolean, seed: number): Array<[string, OsmElement[]]> {
  const byName = new Map<string, OsmElement[]>();
  for (const e of osmElements(pack)) {
    if (!isPlace(e)) continue;
    const name = e.tags.name!.normalize('NFC');
    if (name.split(/\s+/).length < 2 || !keep(name)) continue;
    const list = byName.get(name.toLowerCase()) ?? [];
    list.push(e);
    byName.set(name.toLowerCase(), list);
  }
  const rand = mulberry32(seed);
  const all = [...byName.values()].map((l) => [l[0]!.tags.name!.normalize('NFC'), l] as [string, OsmElement[]]);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, n);
}

/** Tone marks (combining). */
const TONE = /[\u0300\u0301\u0303\u0309\u0323]/u;

describe('one mark off is one edit', () => {
  it('finds the place with one tone or vowel mark wrong (the issue: Đúc Bà, Chợ Rấy)', () => {
    expect(verdict('hcmc-city', 'Nhà thờ Đúc Bà', named('hcmc-city', 'Nhà thờ Đức Bà'))).toBe('hit');
    expect(verdict('hcmc-city', 'Bệnh viện Chợ Rấy', named('hcmc-city', 'Bệnh viện Chợ Rẫy'))).toBe('hit');
  });

  it('words read as a unit are spelt as the unit: a place named after it is found with a mark off (Thống Nhât)', () => {
    const truth = named('hcmc-city', 'Bệnh viện Thống Nhất');
    expect(truth.length).toBeGreaterThan(0);
    expect(verdict('hcmc-city', 'Bệnh viện Thống Nhât', truth)).toBe('hit');
  });

  it('a name as written beats one a mark away (Thiên Quang is the place of that name, not Phố Thiền Quang)', () => {
    const thien = named('hanoi', 'Thiên Quang tỉnh');
    expect(thien.length).toBeGreaterThan(0);
    expect(verdict('hanoi', 'Thiên Quang tỉnh', thien)).toBe('hit');
    const street = osmElements('hanoi').filter((e) => e.tags.highway && e.tags.name === 'Phố Thiền Quang');
    expect(verdict('hanoi', 'Thiền Quang', street)).toBe('hit');
  });

  it('generated: names of the Hanoi inputs with one mark dropped from one word', () => {
    const cases = sample('hanoi', 80, (n) => /\p{M}/u.test(n.normalize('NFD')), 1).flatMap(([name, truth]) => {
      const words = name.split(' ');
      // The longest marked word loses its tone, else its vowel mark.
      let k = -1;
      words.forEach((w, i) => {
        if (/\p{M}|đ/iu.test(w.normalize('NFD')) && (k < 0 || w.length > words[k]!.length)) k = i;
      });
      if (k < 0) return [];
      const nfd = words[k]!.normalize('NFD');
      const chars = [...nfd];
      const mark = chars.findIndex((c) => TONE.test(c));
      const at = mark >= 0 ? mark : chars.findIndex((c) => /\p{M}/u.test(c));
      // A word marked only by its stroke (đ) loses the stroke.
      if (at >= 0) chars.splice(at, 1);
      else chars[chars.findIndex((c) => /đ/i.test(c))] = 'd';
      words[k] = chars.join('').normalize('NFC');
      const query = words.join(' ');
      // A slip that spells another place's name asks for that place.
      return named('hanoi', query).length > 0 ? [] : [{ pack: 'hanoi' as const, query, truth }];
    });
    const r = rates('one mark dropped (Hanoi)', cases);
    expect(r.n).toBeGreaterThanOrEqual(50);
    expect(r.hit).toBeGreaterThanOrEqual(0.85);
    expect(r.wrong).toBeLessThanOrEqual(0.03);
  });
});

describe('folding makes no other word where the query has marks', () => {
  it('"chùa" is not the "chua" of "Sữa chua"; "Quảng trường" is not "Quang Trung"', () => {
    const yoghurt = named('hanoi', 'Sữa chua thạch lá nếp');
    expect(yoghurt.length).toBe(1);
    for (const q of ['chùa thạch lá', 'Chùa thạch lá nếp']) expect(verdict('hanoi', q, yoghurt), q).not.toBe('hit');
    expect(verdict('hanoi', 'sữa chua thạch lá', yoghurt)).toBe('hit');
    const r = engines.hanoi.geocode({ address: 'Quảng trường Ba Đình' });
    for (const x of r.results) expect(x.formatted_address.startsWith('Phố Quang Trung')).toBe(false);
  });
});

describe('two letters swapped', () => {
  it('generated: names of the Hanoi inputs with two adjacent letters of their longest word swapped, first two too', () => {
    const rand = mulberry32(2);
    const cases = sample('hanoi', 120, () => true, 2).flatMap(([name, truth]) => {
      const words = name.split(' ');
      let k = -1;
      words.forEach((w, i) => {
        if (/^\p{L}{4,}$/u.test(w) && (k < 0 || w.length > words[k]!.length)) k = i;
      });
      if (k < 0) return [];
      const w = [...words[k]!];
      const at = Math.floor(rand() * (w.length - 1));
      if (w[at] === w[at + 1]) return [];
      [w[at], w[at + 1]] = [w[at + 1]!, w[at]!];
      words[k] = w.join('');
      return [{ pack: 'hanoi' as const, query: words.join(' '), truth }];
    });
    const r = rates('adjacent swap (Hanoi)', cases);
    expect(r.n).toBeGreaterThanOrEqual(80);
    expect(r.hit).toBeGreaterThanOrEqual(0.85);
    expect(r.wrong).toBeLessThanOrEqual(0.03);
  });
});

/** A word typed with the keyboard off (Telex), from the method's documentation: see places-typing.test.ts. */
function telex(word: string): string {
  const keys: Record<string, string> = { '\u0301': 's', '\u0300': 'f', '\u0309': 'r', '\u0303': 'x', '\u0323': 'j' };
  let out = '';
  let tone = '';
  for (const ch of word.normalize('NFC')) {
    if (ch === 'đ' || ch === 'Đ') {
      out += ch === 'đ' ? 'dd' : 'Dd';
      continue;
    }
    const [base, ...marks] = [...ch.normalize('NFD')];
    out += base;
    for (const m of marks)
      if (keys[m]) tone = keys[m]!;
      else out += m === '\u0302' ? base!.toLowerCase() : 'w';
  }
  return out + tone;
}

describe('Telex and VNI typed with the keyboard off', () => {
  const street = (name: string) => osmElements('hanoi').filter((e) => e.tags.highway && e.tags.name === name);

  it('reads the issue examples', () => {
    for (const q of ['Hangf Bacj', 'Ha2ng Ba5c', 'phoos Hangf Bacj'])
      expect(verdict('hanoi', q, street('Phố Hàng Bạc')), q).toBe('hit');
    for (const q of ['Quoocs Tuwr Giams', 'Quo6c Tu73 Gia1m', 'Quo61c Tu73 Gia1m'])
      expect(verdict('hanoi', q, street('Phố Quốc Tử Giám')), q).toBe('hit');
  });

  it('leaves brands and English words alone (Circle K, Lotteria, Pizza Hut, Express, Coffee)', () => {
    for (const name of ['Circle K', 'Lotteria', 'Pizza Hut', 'Family Mart', 'Coffee Bean']) {
      const truth = named('hcmc-city', name);
      if (truth.length === 0) continue;
      expect(verdict('hcmc-city', name, truth), name).toBe('hit');
    }
  });

  it('generated: marked names of the Hanoi inputs typed wholly in Telex find what the names find', () => {
    const names = sample('hanoi', 80, (n) => /\p{M}/u.test(n.normalize('NFD')), 3);
    const plain = rates(
      'marked names as written (Hanoi)',
      names.map(([name, truth]) => ({ pack: 'hanoi' as const, query: name, truth })),
    );
    const typed = rates(
      'marked names in Telex (Hanoi)',
      names.map(([name, truth]) => ({ pack: 'hanoi' as const, query: name.split(' ').map(telex).join(' '), truth })),
    );
    expect(typed.hit).toBeGreaterThanOrEqual(plain.hit - 0.05);
    expect(typed.wrong).toBeLessThanOrEqual(plain.wrong + 0.02);
  });
});

describe('words run together or apart', () => {
  it('Eximbank finds Exim Bank, and Exim bank finds Eximbank', () => {
    expect(verdict('hanoi', 'Eximbank', named('hanoi', 'Exim Bank'))).toBe('hit');
    expect(verdict('hcmc-city', 'Exim bank', named('hcmc-city', 'Eximbank'))).toBe('hit');
  });

  it('generated: names of the whole-city inputs with two adjacent words run together', () => {
    const rand = mulberry32(4);
    const cases = sample('hcmc-city', 100, (n) => n.split(' ').length >= 2, 4).map(([name, truth]) => {
      const words = name.split(' ');
      const at = Math.floor(rand() * (words.length - 1));
      words.splice(at, 2, words[at]! + words[at + 1]!);
      return { pack: 'hcmc-city' as const, query: words.join(' '), truth };
    });
    const r = rates('two words run together (whole city)', cases);
    expect(r.hit).toBeGreaterThanOrEqual(0.75);
    expect(r.wrong).toBeLessThanOrEqual(0.05);
  });
});

describe('one word for several, other spellings, loose tags', () => {
  it('a brand written as one word is found by its words apart (Thế Giới Di Động is Thegioididong)', () => {
    const truth = osmElements('hcmc-city').filter(
      (e) => e.tags.name === 'Thegioididong' && e.tags['addr:street'] === 'Hoàng Văn Thụ',
    );
    expect(truth.length).toBeGreaterThan(0);
    expect(verdict('hcmc-city', 'Thế Giới Di Động Hoàng Văn Thụ', truth)).toBe('hit');
  });

  it('a lone i or y is spelt either way (Lí Thường Kiệt, Lê Văn Sĩ)', () => {
    expect(topName('hcmc-city', 'Lê Văn Sĩ Phú Nhuận')).toBe('Lê Văn Sỹ');
    expect(topName('hcmc-city', 'Lí Thường Kiệt Quận 10')).toBe('Lý Thường Kiệt');
  });

  it('generated: universities tagged amenity=school are found as universities, by their name after "đại học"', () => {
    // Every school of the whole-city inputs whose name leads with ĐH or Đại học: asked "đại học" and the rest of it.
    // The truth: every place called so, whichever way it writes "đại học" (a university's other campuses).
    const lead = /^(ĐH|Đại học|Trường Đại học|Trường ĐH) /iu;
    const restOf = (name: string): string =>
      name
        .normalize('NFC')
        .replace(lead, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]/gu, '');
    // Names compared NFC: some are stored decomposed ("Trường ĐH Quốc tế Sài Gòn").
    const nfc = (e: OsmElement): string => e.tags.name!.normalize('NFC');
    const places = osmElements('hcmc-city').filter((e) => isPlace(e) && lead.test(nfc(e)));
    const cases = places
      .filter((e) => e.tags.amenity === 'school')
      .map((e) => {
        const rest = restOf(e.tags.name!);
        const truth = places.filter((o) => restOf(o.tags.name!) === rest);
        return { pack: 'hcmc-city' as const, query: `đại học ${nfc(e).replace(lead, '')}`, truth };
      });
    // Measured 88 % right, 7 % wrong (before schools read their names' kind: 50 % and 17 %); what is left are sister
    // places ranked first: "Bệnh viện Đại học Y Dược" for the university, a college called "HỒNG BÀNG".
    const r = rates('universities tagged as schools (whole city)', cases);
    expect(r.n).toBeGreaterThanOrEqual(10);
    expect(r.hit).toBeGreaterThanOrEqual(0.85);
    expect(r.wrong).toBeLessThanOrEqual(0.08);
  });

  it('generated: asked for a university, no place whose name says it is a school is a confident answer', () => {
    // Every school of the whole-city inputs whose name says it is one, in English ("International School Ho Chi Minh
    // City") or by its level ("Trường THPT Nguyễn Du"), asked as a university of the same words: the school is a wrong
    // answer, whatever the right one is.
    const english = /\bSchool\b/u;
    const level = /^(?:Trường )?(?:THPT|THCS|Tiểu học|Trung học phổ thông|Trung học cơ sở) /iu;
    // The name before any words in brackets ("… (American Academy)"), as the pack shows it.
    const base = (e: OsmElement): string => (e.tags.name ?? '').normalize('NFC').split('(')[0]!.trimEnd();
    const asUniversity = (name: string): string | null =>
      /University|College|Academy|Đại học|ĐH|Cao đẳng/iu.test(name)
        ? null
        : english.test(name)
          ? name.replace(english, 'University')
          : level.test(name)
            ? name.replace(level, 'Đại học ')
            : null;
    const cases = osmElements('hcmc-city').flatMap((e) => {
      const query = e.tags.amenity === 'school' ? asUniversity(base(e)) : null;
      return query ? [{ query, school: e }] : [];
    });
    expect(cases.length).toBeGreaterThanOrEqual(100);
    // A confident answer at the school (a partial one says the kind asked was not found).
    const wrong = cases
      .filter((c) => {
        const top = engines['hcmc-city'].geocode({ address: c.query }).results?.[0];
        const at = top?.geometry.location;
        return at && !top.partial_match && haversine(at.lat, at.lng, c.school.lat, c.school.lon) <= HIT_M;
      })
      .map((c) => c.query);
    console.log(`universities asked by schools' names: ${wrong.length} of ${cases.length} answered by the school`);
    expect(wrong).toEqual([]);
  });
});

describe('a street named like a ward', () => {
  it('generated: a Hanoi place written with its street, whose name a legacy ward also has, is answered whole there', () => {
    // Hoàn Kiếm's legacy wards are named after streets (Trần Hưng Đạo, Hàng Bạc, Tràng Tiền…): "Bệnh viện Tim Hà Nội
    // Trần Hưng Đạo" names the hospital's street, not the ward it lies beside. Every named place of the Hanoi inputs
    // on such a street, asked by its name and street; right is a whole answer (not partial) at the place.
    const wards = new Set(
      loadAdminUnits(ADMIN)
        .units.filter((u) => u.level === 'ward' && u.system === 'legacy')
        .map((u) => fold(u.name)),
    );
    const street = (e: OsmElement): string => (e.tags['addr:street'] ?? '').replace(/^(Phố|Đường)\s+/u, '');
    const cases = osmElements('hanoi').filter(
      (e) =>
        isPlace(e) &&
        e.tags['addr:street'] &&
        wards.has(fold(street(e))) &&
        !fold(e.tags.name!).includes(fold(street(e))),
    );
    expect(cases.length).toBeGreaterThanOrEqual(30);
    let whole = 0;
    let wrong = 0;
    for (const e of cases) {
      const top = engines.hanoi.geocode({ address: `${e.tags.name} ${street(e)}` }).results?.[0];
      if (!top || top.partial_match) continue;
      const metres = haversine(top.geometry.location.lat, top.geometry.location.lng, e.lat, e.lon);
      if (metres <= HIT_M) whole++;
      else if (metres > WRONG_M) wrong++;
    }
    // Measured 130 and 1 of 168 (42 and 1 before a ward's words that are the place's street counted as the street).
    console.log(
      `places on a street named like a ward (Hanoi): ${whole} of ${cases.length} whole there, ${wrong} wrong`,
    );
    expect(whole / cases.length).toBeGreaterThanOrEqual(0.7);
    expect(wrong / cases.length).toBeLessThanOrEqual(0.02);
  });
  it('generated: a legacy ward named like a street, written bare with its district, is the street', () => {
    // Since 2025 a ward of the old system is asked for with its type word ("phường Hàng Bạc"); written bare with its
    // district ("Hàng Bạc Hoàn Kiếm", "Kim Mã Ba Đình") the words name the street the ward was named after. Every legacy
    // ward of the Hanoi pack's four districts whose name a road of the inputs has (as "Phố X", "Đường X" or "X"), and
    // no 2025 ward has ("Giảng Võ Ba Đình" may well ask for the ward of today).
    const admin = loadAdminUnits(ADMIN).units;
    const today = new Set(admin.filter((u) => u.system === '2025' && u.level === 'ward').map((u) => fold(u.name)));
    const districts = admin.filter(
      (u) => u.system === 'legacy' && u.level === 'district' && u.parent >= 0 && admin[u.parent]!.name === 'Hà Nội',
    );
    const inPack = districts.filter((d) => ['Hoàn Kiếm', 'Ba Đình', 'Đống Đa', 'Hai Bà Trưng'].includes(d.name));
    const roads = new Map<string, string>();
    for (const e of osmElements('hanoi'))
      if (e.tags.highway && e.tags.name) roads.set(fold(e.tags.name.replace(/^(Phố|Đường)\s+/u, '')), e.tags.name);
    const cases = admin.flatMap((u) => {
      const d = inPack.find((x) => x.id === u.parent);
      const road = roads.get(fold(u.name));
      return u.level === 'ward' && d && road && !today.has(fold(u.name))
        ? [{ ward: u.name, district: d.name, road }]
        : [];
    });
    expect(cases.length).toBeGreaterThanOrEqual(10);
    let street = 0;
    let typedStreet = 0;
    for (const c of cases) {
      const bare = engines.hanoi.geocode({ address: `${c.ward} ${c.district}` }).results[0];
      if (bare && !bare.partial_match && fold(bare.address_components[0]!.long_name) === fold(c.road)) street++;
      // With its type word it is the ward (or no answer where the ward went into several of today's), never the street.
      const typed = engines.hanoi.geocode({ address: `phường ${c.ward} ${c.district}` }).results[0];
      if (typed && !/^Phường /u.test(typed.address_components[0]!.long_name)) typedStreet++;
    }
    // Measured 30 of 32 (before a bare legacy ward gave way to the street: 15); the other two answer a place of the
    // name (the metro station Cát Linh, Bệnh viện Thanh Nhàn).
    console.log(`legacy wards named like streets (Hanoi): ${street} of ${cases.length} bare the street`);
    expect(street).toBeGreaterThanOrEqual(Math.ceil(cases.length * 0.85));
    expect(typedStreet).toBe(0);
  });
  it('generated: a legacy ward named with a street type word, after a house number, is the street (10 phố Huế)', () => {
    // "Phường Phố Huế" was named after the road: a house number before "phố Huế" puts the words on the road, and no
    // house 10 is in the inputs, so the road answers, partly (it answered the restaurants "Pho 10" before).
    const admin = loadAdminUnits(ADMIN).units;
    const roads = new Set<string>();
    for (const e of osmElements('hanoi')) if (e.tags.highway && e.tags.name) roads.add(e.tags.name);
    const wards = admin.filter(
      (u) => u.system === 'legacy' && u.level === 'ward' && /^(Phố|Đường) /u.test(u.name) && roads.has(u.name),
    );
    expect(wards.map((u) => u.name)).toContain('Phố Huế');
    for (const u of wards)
      for (const query of [`10 ${u.name}`, `số 10 ${u.name.toLowerCase()}`, `10 ${fold(u.name)}`]) {
        const top = engines.hanoi.geocode({ address: query }).results[0];
        expect(top?.address_components[0]!.long_name, query).toBe(u.name);
      }
    // With its type word it stays the ward (answered by the ward of today it went into).
    expect(engines.hanoi.geocode({ address: 'phường Phố Huế' }).results[0]?.formatted_address).toMatch(/^Phường /u);
  });
  it("a place met by only part of its street's name is no confident answer (Tran Hanoi, Train Street Hanoi)", () => {
    // Bệnh viện Tim Hà Nội, 92 Trần Hưng Đạo: "Tran" meets the first word of its street and "Hanoi" its name; a street
    // is written whole, so these ask for something else (Train Street is not in the data).
    for (const query of ['Tran Hanoi', 'Train Street Hanoi']) {
      const top = engines.hanoi.geocode({ address: query }).results?.[0];
      expect(top === undefined || top.partial_match === true, query).toBe(true);
    }
    expect(topName('hanoi', 'bệnh viện Tim Trần Hưng Đạo')).toBe('Bệnh viện Tim Hà Nội');
  });
});

describe('schools by level', () => {
  it('generated: "trường cấp 1 / 2 / 3 X" finds the primary, secondary or high school X', () => {
    // Every school of the whole-city inputs whose name says its level (Tiểu học, THCS, THPT, with or without "Trường"),
    // asked as people say the level; the truth: every school of that level with the rest of the name.
    const LEVELS: ReadonlyArray<readonly [number, RegExp]> = [
      [1, /^(?:trường )?(?:tiểu học|th) /iu],
      [2, /^(?:trường )?(?:trung học cơ sở|thcs) /iu],
      [3, /^(?:trường )?(?:trung học phổ thông|thpt) /iu],
    ];
    const nfc = (e: OsmElement): string => e.tags.name!.normalize('NFC');
    const cases = LEVELS.flatMap(([level, lead]) => {
      const schools = osmElements('hcmc-city').filter(
        (e) => e.tags.amenity === 'school' && isPlace(e) && lead.test(nfc(e)),
      );
      const rest = (e: OsmElement) => nfc(e).replace(lead, '').toLowerCase();
      return schools.map((e) => ({
        pack: 'hcmc-city' as const,
        query: `trường cấp ${level} ${nfc(e).replace(lead, '')}`,
        truth: schools.filter((o) => rest(o) === rest(e)),
      }));
    });
    // Measured 97.2 % right, 1.1 % wrong (before "cấp N" was read: none found; before a name's level narrowed a school's
    // kinds: 95.8 % and 1.9 %, a THCS answering "cấp 3").
    const r = rates('schools by level (whole city)', cases);
    expect(r.n).toBeGreaterThanOrEqual(300);
    expect(r.hit).toBeGreaterThanOrEqual(0.95);
    expect(r.wrong).toBeLessThanOrEqual(0.03);
  });
});

describe('names next to streets and wards', () => {
  it('a large place written with the street it faces is found though its point lies far from the road', () => {
    // The hospital's and the zoo's points lie inside their grounds, 200–450 m from the roads they face: partly what
    // was asked (the street written is not where the point is), but the place, not the street.
    for (const [query, name] of [
      ['bv chợ rẫy nguyễn chí thanh', 'Bệnh Viện Chợ Rẫy'],
      ['thao cam vien nguyen binh khiem', 'Thảo Cầm Viên Sài Gòn'],
    ] as const) {
      const truth = named('hcmc-city', name);
      expect(truth.length, name).toBeGreaterThan(0);
      const at = topAt('hcmc-city', query)!;
      expect(Math.min(...truth.map((e) => haversine(at.lat, at.lng, e.lat, e.lon))), query).toBeLessThan(HIT_M);
    }
  });
  it('"cơ sở" (a campus) between a name and its street says which, no word of the name (bv k cơ sở quán sứ)', () => {
    const campus = named('hanoi', 'Bệnh viện K').filter((e) => e.tags['addr:street'] === 'Phố Quán Sứ');
    expect(campus.length).toBe(1);
    for (const query of ['bv k cơ sở quán sứ', 'bv k co so quan su']) {
      const at = topAt('hanoi', query);
      expect(at?.partial, query).toBe(false);
      expect(haversine(at!.lat, at!.lng, campus[0]!.lat, campus[0]!.lon), query).toBeLessThan(HIT_M);
    }
  });
  it('a name before a street is all of the name: no place holding part of it is a confident answer', () => {
    // Neither place is in the inputs: no café of the chain on Phan Xích Long, no building called Masteri An Phú.
    const elements = osmElements('hcmc-city');
    expect(
      elements.some((e) => /phúc long/iu.test(e.tags.name ?? '') && e.tags['addr:street'] === 'Phan Xích Long'),
    ).toBe(false);
    expect(elements.some((e) => /masteri an phú/iu.test(e.tags.name ?? ''))).toBe(false);
    // The street itself, partly what was asked (not the café Phúc An beside it).
    expect(topName('hcmc-city', 'Phúc Long Phan Xích Long')).toBe('[partial] Phan Xích Long');
    // The Masteri of the ward named, partial: its name does not hold the ward's.
    expect(topName('hcmc-city', 'Masteri An Phú TP Thủ Đức')).toBe('[partial] Masteri Thao Dien');
  });
});

describe('streets named like places', () => {
  it("an alley named after its street is not the street asked without the alley's word (cô giang, mạc đỉnh chi)", () => {
    // Both are roads of the inputs, with alleys off them named "Hẻm X".
    for (const street of ['Cô Giang', 'Mạc Đĩnh Chi']) {
      const alley = `hem ${fold(street)}`;
      expect(named('hcmc-city', street).some((e) => e.tags.highway)).toBe(true);
      expect(osmElements('hcmc-city').some((e) => e.tags.highway && fold(e.tags.name ?? '') === alley)).toBe(true);
    }
    expect(topName('hcmc-city', 'cô giang')).toBe('Cô Giang');
    // One mark off ("đỉnh"), as the heard set wrote it.
    expect(topName('hcmc-city', 'mạc đỉnh chi')).toBe('Mạc Đĩnh Chi');
    // Asked with the alley's word, the alley.
    expect(topName('hcmc-city', 'hẻm cô giang')).toBe('Hẻm Cô Giang');
  });
  it("the words after an alley number are the street's name, not a kind of place (ngõ 12 Chùa Bộc)", () => {
    const alley = named('hanoi', 'Ngõ 12 Chùa Bộc');
    expect(alley.length).toBeGreaterThan(0);
    expect(topName('hanoi', 'ngõ 12 Chùa Bộc')).toBe('Ngõ 12 Chùa Bộc');
    // An alley the data lacks leaves only its street, partly what was asked.
    expect(osmElements('hanoi').some((e) => /^Ngõ 41 (Phố )?Thái Hà$/u.test(e.tags.name ?? ''))).toBe(false);
    expect(topName('hanoi', 'ngõ 41 Thái Hà')).toMatch(/^\[partial\]/);
  });
});

describe('numbers and exact names', () => {
  it('a number in a name is part of it (Nhi Đồng 1 is not Nhi Đồng 2; Landmark 81 is not The Landmark)', () => {
    expect(verdict('hcmc-city', 'Bệnh viện Nhi Đồng 1', named('hcmc-city', 'Bệnh viện Nhi Đồng 1'))).toBe('hit');
    expect(verdict('hcmc-city', 'Bệnh viện Nhi Đồng 2', named('hcmc-city', 'Bệnh viện Nhi Đồng 2'))).toBe('hit');
    // The Landmark 81 is an area under construction in 2018: found only if the pack holds it, never as The Landmark.
    expect(named('hcmc-city', 'The Landmark 81').length).toBe(1);
    const landmark = named('hcmc-city', 'The Landmark')[0]!;
    const top = topAt('hcmc-city', 'Landmark 81');
    if (top) expect(haversine(top.lat, top.lng, landmark.lat, landmark.lon)).toBeGreaterThan(HIT_M);
    // No hospital of the inputs holds 108 in its name: no hospital of another number stands for it.
    expect(osmElements('hcmc-city').some((e) => e.tags.amenity === 'hospital' && /\b108\b/.test(e.tags.name!))).toBe(
      false,
    );
    const r = engines['hcmc-city'].geocode({ address: 'Bệnh viện 108' });
    expect(r.status === 'NOT_FOUND' || r.results[0]!.partial_match === true).toBe(true);
  });

  it('generated: whole-city names ending in a number, asked with another number, answer no place of the name', () => {
    const all = new Set(osmElements('hcmc-city').map((e) => fold(e.tags.name ?? '')));
    // A number after a unit word ("PCCC Quận 11", "UBND phường 1") names the unit: the query side reads it so.
    const unit = /(^|\s)(quận|quan|q|phường|phuong|p|huyện|huyen)\.?\s*\d+$/iu;
    const cases = sample('hcmc-city', 400, (n) => /\s\d{1,3}$/.test(n) && !unit.test(n), 5).flatMap(([name, truth]) => {
      const at = name.lastIndexOf(' ') + 1;
      const other = `${name.slice(0, at)}${Number(name.slice(at)) + 7}`;
      return all.has(fold(other)) ? [] : [{ name, other, truth }];
    });
    expect(cases.length).toBeGreaterThanOrEqual(30);
    const asWritten = rates(
      'names ending in a number, as written (whole city)',
      cases.map((c) => ({ pack: 'hcmc-city' as const, query: c.name, truth: c.truth })),
    );
    expect(asWritten.hit).toBeGreaterThanOrEqual(0.85);
    // The place itself (its name) must not answer; another place near it may (a hotel of the same name without
    // the number, next door). A place whose house number or street holds the written number does ("Mầm non 1" at
    // 8/49 Tân Hoá for "Mầm non 8": the number may be the address), rarely.
    const answered = cases.filter((c) => fold(topName('hcmc-city', c.other)) === fold(c.name));
    console.log(
      `asked with another number: ${answered.length} of ${cases.length} still answer the place:\n  ${answered.map((c) => c.other).join('\n  ')}`,
    );
    expect(answered.length).toBeLessThanOrEqual(0.02 * cases.length);
  });

  it('a number after the words of a name is the name in a place so named, not a house (Military Hospital 103)', () => {
    // The rule: the house number the parser read after a name or category word; one before the words is an address.
    const q = (text: string) => regionQuery(engines.hanoi.places.regions[0]!, text);
    expect(numberAfterName(q('Military Hospital 103'))).toEqual({ number: '103', words: ['military'] });
    expect(numberAfterName(q('Bệnh viện Quân y 103'))).toEqual({ number: '103', words: ['quan', 'y'] });
    expect(numberAfterName(q('103 Quân y'))).toBeNull();
    expect(numberAfterName(q('Quân y'))).toBeNull();
    const truth = named('hanoi', 'Bệnh viện Quân y 103');
    expect(truth.length).toBeGreaterThan(0);
    for (const query of ['Bệnh viện Quân y 103', 'Military Hospital 103']) {
      expect(verdict('hanoi', query, truth), query).toBe('hit');
      expect(topAt('hanoi', query)?.partial, query).toBe(false);
    }
  });

  it('generated: whole-city names ending in a number, asked as written, are answered whole', () => {
    const unit = /(^|\s)(quận|quan|q|phường|phuong|p|huyện|huyen)\.?\s*\d+$/iu;
    const cases = sample('hcmc-city', 400, (n) => /\s\d{1,3}$/.test(n) && !unit.test(n), 7);
    let whole = 0;
    const partial: string[] = [];
    for (const [name, truth] of cases) {
      if (verdict('hcmc-city', name, truth) !== 'hit') continue;
      if (topAt('hcmc-city', name)?.partial === false) whole++;
      else partial.push(name);
    }
    console.log(
      `names ending in a number: ${whole} of ${cases.length} answered whole; found but partial:\n  ${partial.join('\n  ')}`,
    );
    expect(cases.length).toBeGreaterThanOrEqual(30);
    expect(whole / cases.length).toBeGreaterThanOrEqual(0.8);
  });

  it('a ward the places of a centre pack lie in is a unit of it (Bệnh viện Quân y 105 Sơn Tây is in Sơn Tây)', () => {
    // The Hanoi pack keeps the polygons of the centre, and the hospitals of the whole city.
    const truth = named('hanoi', 'Bệnh viện Quân y 105');
    expect(truth.length).toBeGreaterThan(0);
    expect(verdict('hanoi', 'Bệnh viện Quân y 105 Sơn Tây', truth)).toBe('hit');
    // "City" before a unit's name is a word of a name: no element is called Royal City, so no confident answer.
    expect(osmElements('hanoi').some((e) => /royal city/i.test(e.tags.name ?? ''))).toBe(false);
    expect(engines.hanoi.geocode({ address: 'Royal City Nguyễn Trãi' }).status).toBe('NOT_FOUND');
  });

  it('autocomplete reads English names as geocoding does, the last word unfinished (National Burn Hosp)', () => {
    const truth = named('hanoi', 'Bệnh viện Bỏng Quốc gia Lê Hữu Trác');
    expect(truth.length).toBeGreaterThan(0);
    for (const input of ['National Burn Hosp', 'National Burn', 'National Bur']) {
      const found = engines.hanoi.autocomplete({ input, limit: 5 }).predictions.some((p) => {
        const at = engines.hanoi.placeDetail({ place_id: p.place_id }).result.geometry?.location;
        return at !== undefined && truth.some((e) => haversine(at.lat, at.lng, e.lat, e.lon) <= HIT_M);
      });
      expect(found, input).toBe(true);
    }
  });

  it('a landing named in English is its bến ("Nha Rong wharf" is Bến Nhà Rồng, as written in Vietnamese)', () => {
    const want = engines['hcmc-city'].geocode({ address: 'Bến Nhà Rồng' }).results[0];
    expect(want?.formatted_address).toMatch(/Nhà Rồng/);
    expect(engines['hcmc-city'].geocode({ address: 'Nha Rong wharf' }).results[0]?.place_id).toBe(want!.place_id);
  });

  it('a house, a street and its legacy district find the street, not places named like it (25 Cát Linh, Đống Đa)', () => {
    // House 25 is not in the data: the answer is estimated on Phố Cát Linh (partial), not a place called Cát Linh.
    expect(named('hanoi', 'Cát Linh').length).toBeGreaterThan(0);
    for (const query of ['25 Cát Linh, Đống Đa', '25 Cat Linh Dong Da']) {
      const top = engines.hanoi.geocode({ address: query }).results[0];
      expect(top?.formatted_address, query).toMatch(/^25 Phố Cát Linh,/);
    }
  });

  it('an exact name beats longer names holding it (Bảo tàng Hồ Chí Minh, ĐH Sài Gòn)', () => {
    expect(verdict('hcmc-city', 'Bảo tàng Hồ Chí Minh', named('hcmc-city', 'Bảo tàng Hồ Chí Minh'))).toBe('hit');
    expect(verdict('hcmc-city', 'Bảo tàng TPHCM', named('hcmc-city', 'Bảo tàng TPHCM'))).toBe('hit');
    expect(verdict('hcmc-city', 'ĐH Sài Gòn', named('hcmc-city', 'Trường Đại học Sài Gòn'))).toBe('hit');
  });

  it('generated: whole-city names that other names extend find the place of the name itself', () => {
    const places = osmElements('hcmc-city').filter(isPlace);
    const names = new Map<string, OsmElement[]>();
    for (const e of places) {
      const key = fold(e.tags.name!);
      names.set(key, [...(names.get(key) ?? []), e]);
    }
    // Names of one element of the inputs and of no admin unit (a chain, a street, a ward of that name is asked for
    // as much), of two words or more and not only words of a kind of place ("Bãi giữ xe"), that longer names of places
    // extend by a word that is not a kind of place ("Văn Lang" / "Công viên Văn Lang" is no case: the kind is the
    // query's to name).
    const everyName = new Map<string, number>();
    const count = (name: string) => everyName.set(fold(name), (everyName.get(fold(name)) ?? 0) + 1);
    for (const e of osmElements('hcmc-city')) if (e.tags.name) count(e.tags.name);
    for (const u of loadAdminUnits(ADMIN).units) count(u.name);
    const kindOnly = (words: string) => {
      const t = tokens(words);
      return categorySpans(t, false).reduce((n, sp) => n + sp.end - sp.start, 0) === t.length;
    };
    const cases: Array<{ pack: Pack; query: string; truth: OsmElement[] }> = [];
    for (const [key, truth] of names) {
      if (key.split(' ').length < 2 || everyName.get(key) !== 1 || kindOnly(key)) continue;
      const longer = [...names.keys()].some(
        (k) =>
          (k.startsWith(`${key} `) && !kindOnly(k.slice(key.length))) ||
          (k.endsWith(` ${key}`) && !kindOnly(k.slice(0, -key.length))),
      );
      if (longer) cases.push({ pack: 'hcmc-city', query: truth[0]!.tags.name!, truth });
    }
    // What is left are readings of the query side: a category word read in the name ("Đại Việt" as a college), a
    // nickname read as the city ("Saigon Hotel"), words read as an admin unit in another order ("An Bình").
    const r = rates('names that longer names extend (whole city)', cases);
    expect(r.n).toBeGreaterThanOrEqual(30);
    expect(r.hit).toBeGreaterThanOrEqual(0.9);
    expect(r.wrong).toBeLessThanOrEqual(0.06);
  });
});
