import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadAdminUnits } from '../data-tools/admin';
import { areaUnits } from '../src/admin/resolve';
import { fromSerialized, resolveAdmin, subsetFor, type AdminTable, type AdminUnit } from '../src/admin';

const ADMIN_DIR = fileURLToPath(new URL('../../shared/data/admin', import.meta.url));
const OSM_DIR = fileURLToPath(new URL('../../shared/data/osm', import.meta.url));
const raw = <T>(path: string): T => JSON.parse(readFileSync(`${ADMIN_DIR}/${path}`, 'utf8')) as T;

const table = loadAdminUnits(ADMIN_DIR);
const unit = (id: number | undefined): AdminUnit => table.byId.get(id!)!;
const find = (system: string, code: string): AdminUnit =>
  table.units.find(
    (u) => u.system === system && u.code === code && (system === '2025' || code.length !== 2 || u.level === 'province'),
  )!;
const count = (t: AdminTable, system: string, level: string) =>
  t.units.filter((u) => u.system === system && u.level === level).length;

describe('loadAdminUnits', () => {
  it('has every unit of both systems', () => {
    expect(count(table, 'legacy', 'province')).toBe(63);
    expect(count(table, 'legacy', 'district')).toBe(705);
    expect(count(table, 'legacy', 'ward')).toBe(10_599);
    expect(count(table, '2025', 'province')).toBe(34);
    expect(count(table, '2025', 'ward')).toBe(3_321);
    // Same numbers by a plain count of the raw files.
    expect(Object.keys(raw('vn-legacy/xa_phuong.json')).length).toBe(10_599);
    const communes = raw<Array<{ phuongxa: unknown[] }>>('vn-2025-communes/communes-2025.json');
    expect(communes.reduce((n, p) => n + p.phuongxa.length, 0)).toBe(3_321);
  });

  it('ids are dense, parents are one level up in the same system', () => {
    table.units.forEach((u, i) => expect(u.id).toBe(i));
    for (const u of table.units) {
      if (u.level === 'province') {
        expect(u.parent).toBe(-1);
        continue;
      }
      const p = unit(u.parent);
      expect(p.system).toBe(u.system);
      expect(p.level).toBe(u.system === 'legacy' && u.level === 'ward' ? 'district' : 'province');
    }
  });

  it('reconciles every 2025 ward with exactly one communes-2025 code', () => {
    const communes = raw<Array<{ phuongxa: Array<{ maphuongxa: number }> }>>('vn-2025-communes/communes-2025.json');
    const all = new Set(communes.flatMap((p) => p.phuongxa.map((w) => String(w.maphuongxa))));
    const used = table.units.filter((u) => u.system === '2025' && u.level === 'ward').map((u) => u.altCode);
    expect(new Set(used).size).toBe(3_321);
    expect(used.every((c) => all.has(c))).toBe(true);
  });

  it('Phường Văn Miếu (Đống Đa, Hà Nội) maps to Phường Văn Miếu - Quốc Tử Giám, and partly to Ô Chợ Dừa', () => {
    // Checked by hand in the data: xa_phuong 00181 "Văn Miếu", parent 006 (Đống Đa); splits.json 00181 → 00226
    // "Phường Văn Miếu - Quốc Tử Giám" then 00190 "Phường Ô Chợ Dừa"; communes-2025 lists the first as 10109011.
    const vm = find('legacy', '00181');
    expect(vm.nameWithType).toBe('Phường Văn Miếu');
    expect(unit(vm.parent).nameWithType).toBe('Quận Đống Đa');
    const next = table.legacyTo2025.get(vm.id)!.map(unit);
    expect(next.map((u) => u.code)).toEqual(['00226', '00190']);
    expect(next[0]!.nameWithType).toBe('Phường Văn Miếu - Quốc Tử Giám');
    expect(next[0]!.altCode).toBe('10109011');
    expect(table.toLegacy.get(next[0]!.id)).toContain(vm.id);
    expect(table.wardLinks.find((l) => l.legacy === vm.id && l.v2025 === next[0]!.id)!.full).toBe(false);
  });

  it('a ward merged before 2025 into one of its district that took its name goes where that ward went (Thịnh Quang)', () => {
    // Found by a plain scan of the raw files: xa_phuong has "Thịnh Quang" (Đống Đa) with no entry in splits.json;
    // merges.json names Ngã Tư Sở's code, of the same district, "Phường Thịnh Quang", wholly in Phường Đống Đa.
    type Merge = { level2s: Array<{ name: string; merges: Array<{ old_id: string; name: string; type: string }> }> };
    const legacy = raw<Record<string, { name: string; code: string; parent_code: string }>>('vn-legacy/xa_phuong.json');
    const tq = Object.values(legacy).find((w) => w.name === 'Thịnh Quang' && w.parent_code === '006')!;
    const merged = raw<{ data: Merge[] }>('vn-2025/merges.json')
      .data.flatMap((p) => p.level2s.flatMap((w) => w.merges.map((m) => ({ ...m, into: w.name }))))
      .filter((m) => m.name === 'Phường Thịnh Quang' && legacy[m.old_id]?.parent_code === '006');
    expect(merged.map((m) => [legacy[m.old_id]!.name, m.into, m.type])).toEqual([
      ['Ngã Tư Sở', 'Phường Đống Đa', 'full'],
    ]);
    const ward = find('legacy', tq.code);
    const next = table.legacyTo2025.get(ward.id)!.map(unit);
    expect(next.map((u) => u.nameWithType)).toEqual(['Phường Đống Đa']);
    expect(table.wardLinks.find((l) => l.legacy === ward.id)!.full).toBe(true);
    // Without such a ward (Trung Phụng: no old ward of Đống Đa was named so), none.
    const tp = Object.values(legacy).find((w) => w.name === 'Trung Phụng' && w.parent_code === '006')!;
    expect(table.legacyTo2025.get(find('legacy', tp.code).id) ?? []).toEqual([]);
  });

  it('maps legacy provinces to their 2025 province', () => {
    const haGiang = find('legacy', '02');
    expect(haGiang.name).toBe('Hà Giang');
    expect(unit(table.legacyTo2025.get(haGiang.id)![0]).nameWithType).toBe('Tỉnh Tuyên Quang');
    const hn = find('legacy', '01');
    expect(unit(table.legacyTo2025.get(hn.id)![0]).nameWithType).toBe('Thành phố Hà Nội');
    expect(table.provinceLinks.length).toBe(63);
  });

  it('ward links agree with a plain scan of splits.json', () => {
    const splits = raw<{ data: Array<{ level3s: Array<{ level3_id: string; splits: Array<{ new_id: string }> }> }> }>(
      'vn-2025/splits.json',
    );
    let checked = 0;
    for (const p of splits.data) {
      for (const w of p.level3s) {
        const legacy = table.units.find((u) => u.system === 'legacy' && u.level === 'ward' && u.code === w.level3_id);
        if (!legacy || checked > 300) continue;
        const mapped = (table.legacyTo2025.get(legacy.id) ?? []).map((id) => unit(id).code);
        expect(mapped.slice(0, w.splits.length)).toEqual(w.splits.map((s) => s.new_id));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
  });
});

describe('resolveAdmin', () => {
  const vm = find('legacy', '00181');
  it.each([
    [{ province: 'Hà Nội', district: 'Đống Đa', ward: 'Văn Miếu' }],
    [{ province: 'Thành phố Hà Nội', district: 'Quận Đống Đa', ward: 'Phường Văn Miếu' }],
    [{ province: 'Ha Noi', district: 'Quan Dong Da', ward: 'phuong van mieu' }],
    [{ province: 'HN', ward: 'Văn Miếu' }],
    [{ district: 'Đống Đa', ward: 'Văn Miếu' }],
  ])('%j → Phường Văn Miếu, Đống Đa', (q) => {
    const r = resolveAdmin(table, q);
    expect(r.legacy.ward).toBe(vm.id);
    expect(r.legacy.district).toBe(vm.parent);
    expect(r.legacy.province).toBe(unit(vm.parent).parent);
    expect(unit(r.v2025.ward).code).toBe('00226');
    expect(unit(r.v2025.province).nameWithType).toBe('Thành phố Hà Nội');
    expect(r.ambiguous).toEqual([]);
    expect(r.mismatched).toEqual([]);
  });

  it('the same ward name in two districts resolves by parent', () => {
    // Hà Nội has Phường Quang Trung in Đống Đa (00214), Hà Đông (09550) and Sơn Tây (09583).
    const a = resolveAdmin(table, { province: 'Hà Nội', district: 'Đống Đa', ward: 'Quang Trung' });
    const b = resolveAdmin(table, { province: 'Hà Nội', district: 'Quận Hà Đông', ward: 'Phường Quang Trung' });
    expect(unit(a.legacy.ward).code).toBe('00214');
    expect(unit(b.legacy.ward).code).toBe('09550');
    expect(unit(a.legacy.district).name).toBe('Đống Đa');
    expect(unit(b.legacy.district).name).toBe('Hà Đông');
    const c = resolveAdmin(table, { province: 'Hà Nội', ward: 'Quang Trung' });
    expect(c.legacy.ward).toBeUndefined();
    expect(c.ambiguous).toContain('ward');
    expect(unit(c.legacy.province).name).toBe('Hà Nội');
    // Văn Miếu also exists in Nam Định (13675): the province decides.
    expect(unit(resolveAdmin(table, { province: 'Nam Định', ward: 'Văn Miếu' }).legacy.ward).code).toBe('13675');
  });

  it('reads Hồ Chí Minh City forms: numbered districts and wards, English, abbreviations', () => {
    // xa_phuong 27142 "Phường 09", Quận 3 (770); splits.json: 27142 → 27142 "Phường Nhiêu Lộc".
    for (const q of [
      { province: 'Ho Chi Minh City', district: 'Quận 3', ward: 'Phường 9' },
      { province: 'Thành Phố Hồ Chí Minh', district: '3', ward: 'Phường 09' },
      { province: 'Hồ Chí Minh', district: 'Quan 3', ward: 'Ward 9' },
      { province: 'TP.HCM', district: 'Q.3', ward: 'P.9' },
    ]) {
      const r = resolveAdmin(table, q);
      expect(unit(r.legacy.ward).code).toBe('27142');
      expect(unit(r.legacy.district).nameWithType).toBe('Quận 3');
      expect(unit(r.v2025.ward).nameWithType).toBe('Phường Nhiêu Lộc');
    }
    // 26740 "Phường Bến Nghé", Quận 1 → 26740 "Phường Sài Gòn" (splits.json).
    const bn = resolveAdmin(table, { province: 'TP.HCM', district: 'Q.1', ward: 'P. Bến Nghé' });
    expect(unit(bn.legacy.ward).code).toBe('26740');
    expect(unit(bn.v2025.ward).nameWithType).toBe('Phường Sài Gòn');
  });

  it('finds 2025 wards written directly, even in addr:district', () => {
    const r = resolveAdmin(table, { province: 'Thành phố Hồ Chí Minh', district: 'Xuân Hòa' });
    expect(unit(r.v2025.ward).nameWithType).toBe('Phường Xuân Hòa');
    expect(unit(r.v2025.province).nameWithType).toBe('Thành phố Hồ Chí Minh');
    const s = resolveAdmin(table, { province: 'Hồ Chí Minh', ward: 'Phường Sài Gòn' });
    expect(unit(s.v2025.ward).nameWithType).toBe('Phường Sài Gòn');
  });

  it('unknown or bad input resolves to nothing without throwing', () => {
    expect(resolveAdmin(table, { province: 'Atlantis' })).toEqual({
      legacy: {},
      v2025: { wards: [] },
      ambiguous: [],
      mismatched: [],
    });
    expect(resolveAdmin(table, {})).toEqual({ legacy: {}, v2025: { wards: [] }, ambiguous: [], mismatched: [] });
    expect(resolveAdmin(table, { ward: 42 as unknown as string }).legacy).toEqual({});
  });

  it('resolves the addr:* tags of a real OSM extract (Quốc Tử Giám area)', () => {
    const xml = readFileSync(`${OSM_DIR}/hanoi-quoctugiam.osm`, 'utf8');
    // Independent plain folding (not the module under test): strip marks, đ → d, letters and digits only.
    const plain = (s: string) =>
      s
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .replace(/đ/gi, 'd')
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '');
    let withWard = 0;
    let resolved = 0;
    let mismatched = 0;
    for (const el of xml.split(/<(?:node|way|relation) /).slice(1)) {
      const tag = (k: string) => el.match(new RegExp(`k="addr:${k}" v="([^"]*)"`))?.[1];
      const ward = tag('subdistrict') ?? tag('ward');
      if (!ward || !tag('district')) continue;
      withWard++;
      const r = resolveAdmin(table, { province: tag('city') ?? tag('province'), district: tag('district'), ward });
      if (r.legacy.ward === undefined) continue;
      resolved++;
      expect(plain(unit(r.legacy.ward).name)).toBe(plain(ward));
      if (r.mismatched.length > 0) mismatched++;
      else expect(plain(unit(r.legacy.district).name)).toBe(plain(tag('district')!));
    }
    expect(withWard).toBeGreaterThan(100);
    // Checked by hand: one element has addr:district "Hà Nội" and addr:subdistrict "Đống Đa" (a district), and
    // nine name Kim Mã / Điện Biên (wards of Ba Đình) under district Đống Đa.
    expect(resolved).toBe(withWard - 1);
    expect(mismatched).toBe(9);
  });

  it('a 2025 ward written with a legacy district it took no ward from is a mismatch', () => {
    // Phường Gò Vấp (2025) was made of wards of Quận Gò Vấp, Phường Sài Gòn of wards of Quận 1 (the 2025 merges).
    const hcm = 'Hồ Chí Minh';
    expect(resolveAdmin(table, { province: hcm, district: 'Quận 12', ward: 'Gò Vấp' }).mismatched).toEqual([
      'district',
    ]);
    expect(resolveAdmin(table, { province: hcm, district: 'Gò Vấp', ward: 'Gò Vấp' }).mismatched).toEqual([]);
    const saiGon = resolveAdmin(table, { province: hcm, district: 'Quận 1', ward: 'Phường Sài Gòn' });
    expect(unit(saiGon.v2025.ward).name).toBe('Sài Gòn');
    expect(saiGon.mismatched).toEqual([]);
  });

  it('a ward unique in its province wins over a wrong district, and says so', () => {
    const r = resolveAdmin(table, { province: 'Hà Nội', district: 'Đống Đa', ward: 'Điện Biên' });
    expect(unit(r.legacy.district).nameWithType).toBe('Quận Ba Đình');
    expect(unit(r.legacy.ward).nameWithType).toBe('Phường Điện Biên');
    expect(r.mismatched).toEqual(['district']);
  });

  it('a legacy ward the merges send nowhere is found in its written district (Phường 13, Quận 3)', () => {
    // merges.json and splits.json have no entry for code 27136 (a plain scan below), so no 2025 ward links to it.
    const listed = (file: string) => readFileSync(`${ADMIN_DIR}/vn-2025/${file}`, 'utf8').includes('"27136"');
    expect(listed('merges.json') || listed('splits.json')).toBe(false);
    const hcm = table.units.find((u) => u.system === '2025' && u.level === 'province' && u.name === 'Hồ Chí Minh')!;
    const wards = table.units.filter((u) => u.system === '2025' && u.parent === hcm.id).map((u) => u.id);
    const area = areaUnits(table, wards);
    const r = resolveAdmin(table, { district: 'Quận 3', ward: '13' }, area);
    expect(unit(r.legacy.ward).code).toBe('27136');
    expect(unit(r.legacy.district).nameWithType).toBe('Quận 3');
    expect(area.has(r.legacy.ward!)).toBe(false);
    // Its district must be written: alone, the name is no ward of the area.
    expect(resolveAdmin(table, { ward: '13' }, area).legacy.ward).not.toBe(r.legacy.ward);
  });
});

describe('subsetFor / fromSerialized', () => {
  const hn = find('legacy', '01');
  const ser = subsetFor(table, [hn.id]);

  it('carries only Hà Nội units of both systems, as plain arrays', () => {
    // Plain scan: legacy Hà Nội has 30 districts and 579 wards; communes-2025 lists 126 wards for Hà Nội.
    const levels = (sys: number, lvl: number) =>
      ser.id.filter((_, i) => ser.system[i] === sys && ser.level[i] === lvl).length;
    expect([levels(0, 0), levels(0, 1), levels(0, 2)]).toEqual([1, 30, 579]);
    expect([levels(1, 0), levels(1, 2)]).toEqual([1, 126]);
    const json = JSON.stringify(ser);
    expect(JSON.parse(json)).toEqual(ser);
    expect(json.length).toBeLessThan(60_000);
  });

  it('round-trips to a table that resolves to the same ids as the full table', () => {
    const sub = fromSerialized(JSON.parse(JSON.stringify(ser)));
    if ('error' in sub) throw new Error(sub.error);
    for (const q of [
      { province: 'Hà Nội', district: 'Đống Đa', ward: 'Văn Miếu' },
      { province: 'Hà Nội', district: 'Hà Đông', ward: 'Quang Trung' },
      { province: 'Hà Nội', district: 'Ba Đình', ward: 'Điện Biên' },
      { province: 'Hà Nội', ward: 'Cửa Nam' },
    ]) {
      expect(resolveAdmin(sub, q)).toEqual(resolveAdmin(table, q));
    }
    for (const id of ser.id) expect(sub.byId.get(id)).toEqual(table.byId.get(id));
    // Nothing outside Hà Nội is in the pack, and a province the pack does not know does not fall back elsewhere.
    expect(resolveAdmin(sub, { province: 'Nam Định', ward: 'Văn Miếu' })).toEqual({
      legacy: {},
      v2025: { wards: [] },
      ambiguous: [],
      mismatched: [],
    });
  });

  it('a merged 2025 province brings all its legacy provinces', () => {
    const hcm2025 = table.units.find((u) => u.system === '2025' && u.level === 'province' && u.name === 'Hồ Chí Minh')!;
    const s = subsetFor(table, [hcm2025.id]);
    const legacyProvinces = s.id
      .filter((_, i) => s.system[i] === 0 && s.level[i] === 0)
      .map((id) => unit(id).name)
      .sort();
    expect(legacyProvinces).toEqual(['Bà Rịa - Vũng Tàu', 'Bình Dương', 'Hồ Chí Minh']);
  });

  it('reports malformed data by field', () => {
    expect(fromSerialized({ ...ser, format: 'x' as 'bando-admin-1' })).toEqual({
      error: 'admin data: format must be "bando-admin-1"',
    });
    expect(fromSerialized({ ...ser, name: ser.name.slice(1) })).toMatchObject({
      error: expect.stringContaining('name'),
    });
    expect(fromSerialized({ ...ser, wardLinks: [1, 2] })).toMatchObject({
      error: expect.stringContaining('wardLinks'),
    });
  });
});
