/**
 * Reads the administrative-unit files (build time, Node) into one AdminTable.
 *
 * Inputs under `dir`: vn-legacy/{tinh_tp,quan_huyen,xa_phuong}.json (63/705/10,599 units),
 * vn-2025/{merges,splits}.json (34 provinces, 3,321 wards, with the old → new mapping) and
 * vn-2025-communes/communes-2025.json (the same 34/3,321 under another numbering).
 *
 * Reconciling the two 2025 sources: merges/splits identify a new ward by a 5-digit GSO-style code (usually the
 * code of one of its old wards, "00226") and a new province by the code of one of its old provinces ("79" for
 * Hồ Chí Minh); communes-2025 numbers provinces "01".."34" and wards with 8-digit codes ("10109011"). There is no
 * shared key, so units are matched by name within their province: provinces by name without type word ("Tp Hải
 * Phòng" = "Thành phố Hải Phòng"); wards first by exact name (NFC, lower case), then by folded name without
 * spaces or punctuation ("Al Bá" = "Albá", "M'Drắk" = "M’Drắk"), then also with y read as i ("Sĩ" = "Sỹ").
 * Names that fold alike but differ in accents ("Văn Lang" / "Văn Lăng") are settled by the exact pass first.
 * Every one of the 3,321 wards must match exactly one, or loading fails.
 *
 * Legacy wards with no entry in merges/splits (567: merged between the legacy snapshot and 2025) get a successor
 * only when an old ward of the same district carries their name, alone or as part of a hyphenated merged name
 * ("Thịnh Quang" → Ngã Tư Sở's code named "Phường Thịnh Quang", "Quốc Tử Giám" → "Phường Văn Miếu - Quốc Tử Giám");
 * the rest stay unmapped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fold, normalize } from '../../src/places/text/fold';
import { buildTable } from '../../src/admin/table';
import type { AdminTable, AdminUnit, WardLink } from '../../src/admin/types';

interface LegacyRecord {
  name: string;
  type: string;
  code: string;
  parent_code?: string;
}
interface MergeFile {
  data: Array<{
    level1_id: string;
    name: string;
    merges: Array<{ old_id: string; name: string; type: string }>;
    level2s: Array<{ level2_id: string; name: string; merges: Array<{ old_id: string; name: string; type: string }> }>;
  }>;
}
interface SplitFile {
  data: Array<{ level1_id: string; level3s: Array<{ level3_id: string; splits: Array<{ new_id: string }> }> }>;
}
type CommuneFile = Array<{
  matinhBNV: string;
  tentinhmoi: string;
  phuongxa: Array<{ maphuongxa: number; tenphuongxa: string }>;
}>;

const LEGACY_TYPES: Record<string, string> = {
  'thanh-pho': 'Thành phố',
  tinh: 'Tỉnh',
  quan: 'Quận',
  huyen: 'Huyện',
  'thi-xa': 'Thị xã',
  phuong: 'Phường',
  xa: 'Xã',
  'thi-tran': 'Thị trấn',
};
/** Type words that lead 2025 names, and the short form "Tp" used by communes-2025. */
const TYPE_PREFIXES: Array<[RegExp, string]> = [
  [/^(thành phố|tp\.?)\s+/i, 'Thành phố'],
  [/^tỉnh\s+/i, 'Tỉnh'],
  [/^phường\s+/i, 'Phường'],
  [/^xã\s+/i, 'Xã'],
  [/^thị trấn\s+/i, 'Thị trấn'],
  [/^đặc khu\s+/i, 'Đặc khu'],
];

const readJson = <T>(dir: string, ...path: string[]): T => JSON.parse(readFileSync(join(dir, ...path), 'utf8')) as T;
const clean = (s: string): string => s.normalize('NFC').replace(/\s+/g, ' ').trim();

/** Splits "Phường Ba Đình" into its type word and name; throws on an unknown type (bad input file). */
function splitType(nameWithType: string): { type: string; name: string } {
  const s = clean(nameWithType);
  for (const [re, type] of TYPE_PREFIXES) if (re.test(s)) return { type, name: s.replace(re, '') };
  throw new Error(`admin: no type word in "${nameWithType}"`);
}

/**
 * Loads every unit of both systems and the legacy ↔ 2025 links from `dir` (the `admin` data folder).
 * Build-time only; throws when the files are missing or inconsistent.
 */
export function loadAdminUnits(dir: string): AdminTable {
  const provinces = readJson<Record<string, LegacyRecord>>(dir, 'vn-legacy', 'tinh_tp.json');
  const districts = readJson<Record<string, LegacyRecord>>(dir, 'vn-legacy', 'quan_huyen.json');
  const wards = readJson<Record<string, LegacyRecord>>(dir, 'vn-legacy', 'xa_phuong.json');
  const merges = readJson<MergeFile>(dir, 'vn-2025', 'merges.json');
  const splits = readJson<SplitFile>(dir, 'vn-2025', 'splits.json');
  const communes = readJson<CommuneFile>(dir, 'vn-2025-communes', 'communes-2025.json');

  const units: AdminUnit[] = [];
  const legacyByCode = {
    province: new Map<string, number>(),
    district: new Map<string, number>(),
    ward: new Map<string, number>(),
  };
  const addLegacy = (
    records: Record<string, LegacyRecord>,
    level: 'province' | 'district' | 'ward',
    parentLevel?: 'province' | 'district',
  ): void => {
    for (const r of Object.values(records).sort((a, b) => a.code.localeCompare(b.code))) {
      const type = LEGACY_TYPES[r.type];
      if (!type) throw new Error(`admin: unknown legacy type "${r.type}" for ${r.code}`);
      const name = clean(r.name);
      const parent = parentLevel ? legacyByCode[parentLevel].get(r.parent_code ?? '') : -1;
      if (parent === undefined) throw new Error(`admin: ${level} ${r.code} has unknown parent ${r.parent_code}`);
      const id = units.length;
      units.push({
        id,
        system: 'legacy',
        level,
        code: r.code,
        altCode: '',
        name,
        type,
        nameWithType: `${type} ${name}`,
        parent,
        foldedName: fold(name),
      });
      legacyByCode[level].set(r.code, id);
    }
  };
  addLegacy(provinces, 'province');
  addLegacy(districts, 'district', 'province');
  addLegacy(wards, 'ward', 'district');

  // 2025 provinces and wards, in code order, each matched to its communes-2025 entry.
  const communeProvinces = new Map(communes.map((p) => [fold(splitType(p.tentinhmoi).name), p]));
  const newWardByCode = new Map<string, number>();
  const provinceLinks: Array<{ legacy: number; v2025: number }> = [];
  const provinces2025 = [...merges.data].sort((a, b) => a.level1_id.localeCompare(b.level1_id));
  const provinceIds: number[] = [];
  for (const p of provinces2025) {
    const { type, name } = splitType(p.name);
    const cp = communeProvinces.get(fold(name));
    if (!cp) throw new Error(`admin: 2025 province "${p.name}" not in communes-2025`);
    const id = units.length;
    provinceIds.push(id);
    units.push({
      id,
      system: '2025',
      level: 'province',
      code: p.level1_id,
      altCode: cp.matinhBNV,
      name,
      type,
      nameWithType: `${type} ${name}`,
      parent: -1,
      foldedName: fold(name),
    });
    for (const m of p.merges) {
      const legacy = legacyByCode.province.get(m.old_id);
      if (legacy === undefined) throw new Error(`admin: unknown legacy province ${m.old_id}`);
      provinceLinks.push({ legacy, v2025: id });
    }
  }
  provinces2025.forEach((p, i) => {
    const altCodes = matchCommunes(
      p.level2s.map((w) => w.name),
      communeProvinces.get(fold(splitType(p.name).name))!.phuongxa,
    );
    const order = p.level2s
      .map((w, k) => ({ w, alt: altCodes[k]! }))
      .sort((a, b) => a.w.level2_id.localeCompare(b.w.level2_id));
    for (const { w, alt } of order) {
      const { type, name } = splitType(w.name);
      const id = units.length;
      units.push({
        id,
        system: '2025',
        level: 'ward',
        code: w.level2_id,
        altCode: alt,
        name,
        type,
        nameWithType: `${type} ${name}`,
        parent: provinceIds[i]!,
        foldedName: fold(name),
      });
      newWardByCode.set(w.level2_id, id);
    }
  });

  const wardLinks = linkWards(merges, splits, units, legacyByCode.ward, newWardByCode);
  return buildTable(units, wardLinks, provinceLinks);
}

/**
 * For each 2025 ward name (merges.json order), the communes-2025 code of the same ward in the same province.
 * Passes of looser keys only consider names not matched by a stricter pass; a key that is not unique on both
 * sides in a pass is left for the next pass.
 */
function matchCommunes(names: string[], communes: Array<{ maphuongxa: number; tenphuongxa: string }>): string[] {
  const keys: Array<(s: string) => string> = [
    (s) => normalize(s),
    (s) => fold(s).replace(/ /g, ''),
    (s) => fold(s).replace(/ /g, '').replace(/y/g, 'i'),
  ];
  const result: Array<string | undefined> = names.map(() => undefined);
  const taken = new Set<number>();
  for (const key of keys) {
    const left = new Map<string, number[]>();
    names.forEach((n, i) => {
      if (result[i] === undefined) left.set(key(n), [...(left.get(key(n)) ?? []), i]);
    });
    const right = new Map<string, number[]>();
    communes.forEach((c, j) => {
      if (!taken.has(j)) right.set(key(c.tenphuongxa), [...(right.get(key(c.tenphuongxa)) ?? []), j]);
    });
    for (const [k, is] of left) {
      const js = right.get(k);
      if (is.length !== 1 || !js || js.length !== 1) continue;
      result[is[0]!] = String(communes[js[0]!]!.maphuongxa);
      taken.add(js[0]!);
    }
  }
  const missing = names.filter((_, i) => result[i] === undefined);
  if (missing.length > 0) throw new Error(`admin: 2025 wards not found in communes-2025: ${missing.join(', ')}`);
  return result as string[];
}

/**
 * Legacy ward → 2025 ward links. splits.json gives each old ward's successors in order (kept: the first is the
 * one named after it); merges.json says whether the old ward went in whole ("full") or in part.
 */
function linkWards(
  merges: MergeFile,
  splits: SplitFile,
  units: AdminUnit[],
  legacyWard: Map<string, number>,
  newWard: Map<string, number>,
): WardLink[] {
  const fullness = new Map<string, boolean>(); // `${old}|${new}` → full
  const oldNames: Array<{ oldCode: string; name: string; news: string[] }> = [];
  for (const p of merges.data) {
    const byOld = new Map<string, { oldCode: string; name: string; news: string[] }>();
    for (const w of p.level2s) {
      for (const o of w.merges) {
        fullness.set(`${o.old_id}|${w.level2_id}`, o.type === 'full');
        const e = byOld.get(o.old_id) ?? { oldCode: o.old_id, name: o.name, news: [] };
        e.news.push(w.level2_id);
        byOld.set(o.old_id, e);
      }
    }
    oldNames.push(...byOld.values());
  }
  const links: WardLink[] = [];
  const seen = new Set<string>();
  const push = (oldCode: string, newCode: string, fallbackFull: boolean): void => {
    const legacy = legacyWard.get(oldCode);
    const v2025 = newWard.get(newCode);
    const k = `${oldCode}|${newCode}`;
    if (legacy === undefined || v2025 === undefined || seen.has(k)) return;
    seen.add(k);
    links.push({ legacy, v2025, full: fullness.get(k) ?? fallbackFull });
  };
  for (const p of splits.data)
    for (const w of p.level3s) for (const s of w.splits) push(w.level3_id, s.new_id, w.splits.length === 1);
  for (const o of oldNames) for (const n of o.news) push(o.oldCode, n, o.news.length === 1);

  // Fallback for legacy wards merged before 2025 into another ward of their district that took their name, alone or
  // in a hyphenated one (merges.json names an old ward as it was called just before 2025: Ngã Tư Sở's code as
  // "Phường Thịnh Quang", Văn Miếu's as "Phường Văn Miếu - Quốc Tử Giám"). Numbers compare without leading zeros.
  const linked = new Set(links.map((l) => l.legacy));
  const key = (folded: string): string => folded.replace(/^0+(?=\d)/, '');
  for (const [, id] of legacyWard) {
    if (linked.has(id)) continue;
    const u = units[id]!;
    const hits = oldNames.filter((o) => {
      const parts = TYPE_PREFIXES.reduce((n, [re]) => n.replace(re, ''), clean(o.name))
        .split(' - ')
        .map((n) => key(fold(n)));
      const oldId = legacyWard.get(o.oldCode);
      return (
        parts.includes(key(u.foldedName)) && oldId !== id && (oldId === undefined || units[oldId]!.parent === u.parent)
      );
    });
    if (hits.length !== 1) continue;
    // The successor that carries the legacy name goes first ("Văn Miếu - Quốc Tử Giám" before "Ô Chợ Dừa"). The ward
    // lies wholly in a ward of 2025 only when the ward it went into did (Thịnh Quang in Phường Đống Đa).
    const into = hits[0]!;
    const successors = into.news.map((n) => newWard.get(n)).filter((v): v is number => v !== undefined);
    const full = into.news.length === 1 && fullness.get(`${into.oldCode}|${into.news[0]}`) === true;
    const named = (v: number): number => (units[v]!.foldedName.includes(u.foldedName) ? 0 : 1);
    for (const v2025 of successors.sort((a, b) => named(a) - named(b))) links.push({ legacy: id, v2025, full });
  }
  return links;
}
