/**
 * Resolving administrative names as found in OSM addr:* tags or typed addresses to unit ids, always scoped by
 * parent (ward names repeat across the country). No Node imports: usable on the engine side.
 */
import { adminNameKeys } from '../places/text/admin-names';
import type { Gazetteer } from '../places/text/address';
import { FORMER_NAME_LONGEST, formerDistrict } from './former-districts';
import { indexKey, provinceOf } from './table';
import type { AdminLevel, AdminSystem, AdminTable } from './types';

/** Names as written: addr:city / addr:province, addr:district, addr:subdistrict / addr:ward. */
export interface AdminQuery {
  province?: string;
  district?: string;
  ward?: string;
  /** The type word written before the district ("Quận", "Thành phố"), when one was. */
  districtType?: string;
  /** The type word written before the ward ("Phường", "Xã"), when one was. */
  wardType?: string;
}

export interface AdminResolution {
  /** Legacy ids; a consistent chain (ward's parent is the district, whose parent is the province). */
  legacy: { province?: number; district?: number; ward?: number };
  /** 2025 ids; `wards` lists every 2025 ward the legacy ward went into, best first. */
  v2025: { province?: number; ward?: number; wards: number[] };
  /** Levels whose name matched several units that the other parts could not tell apart. */
  ambiguous: AdminLevel[];
  /** Written levels that contradict the resolved chain (a ward unique in its province under another district). */
  mismatched: AdminLevel[];
  /**
   * The legacy wards of a district dissolved before 2025 that the query named ("Quận 2"; "Thủ Đức" but for "Thành
   * phố Thủ Đức"), whose successor is `legacy.district`; absent otherwise (see former-districts.ts).
   */
  former?: number[];
  /** Set with `former` when that district bore the name of the one it went into: the name also reads as the whole. */
  formerNamesInto?: true;
}

/**
 * Ids of units of one system and level whose name matches `name`, keeping only those `keep` accepts. The
 * name's keys are tried best first (see adminNameKeys); the first key with an accepted unit wins.
 */
function findUnits(
  table: AdminTable,
  system: AdminSystem,
  level: AdminLevel,
  name: string | undefined,
  keep: (id: number) => boolean,
): number[] {
  if (typeof name !== 'string') return [];
  for (const k of adminNameKeys(name)) {
    const hits = (table.index.get(indexKey(system, level, k)) ?? []).filter(keep);
    if (hits.length > 0) return hits;
  }
  return [];
}

const parentOf = (table: AdminTable, id: number): number => table.byId.get(id)?.parent ?? -1;

/**
 * Resolves written province/district/ward names to legacy ids (a consistent parent chain) and 2025 ids.
 * Accepts the forms found in OSM ("Thành phố Hà Nội" / "Hà Nội" / "Ho Chi Minh City", "Quận Đống Đa" /
 * "Đống Đa" / "Quận 3" / "3", "Phường Văn Miếu" / "Văn Miếu" / "Phường 06" / "Ward 6"). Parts that do not
 * match are left out; a name that matches several units in scope is reported in `ambiguous`; a province that
 * is given but matches no province resolves nothing. Never throws.
 */
export function resolveAdmin(table: AdminTable, query: AdminQuery, area?: ReadonlySet<number>): AdminResolution {
  const q = query ?? {};
  const out: AdminResolution = { legacy: {}, v2025: { wards: [] }, ambiguous: [], mismatched: [] };
  // Written without a province, a name is a unit of the area (a pack's own "Bình Tân", not Vĩnh Long's; its 2025
  // "Phường Hai Bà Trưng", not a legacy ward of that name in Vĩnh Phúc), as the gazetteer reads it; with one, the
  // units of the area come first.
  const find = (system: AdminSystem, level: AdminLevel, name: string | undefined, keep: (id: number) => boolean) => {
    const ids = findUnits(table, system, level, name, keep);
    if (!area || level === 'province') return ids;
    const inArea = ids.filter((id) => area.has(id));
    return inArea.length > 0 || !q.province ? inArea : ids;
  };

  // Legacy: narrow top-down by the parents found, then bottom-up by the children found.
  let provinces = find('legacy', 'province', q.province, () => true);
  // A province that is written but unknown (misspelt, or not in this pack) must not let a same-named ward or
  // district elsewhere in the country match.
  if (q.province && provinces.length === 0 && find('2025', 'province', q.province, () => true).length === 0) return out;
  let districts = find(
    'legacy',
    'district',
    q.district,
    (d) => provinces.length === 0 || provinces.includes(parentOf(table, d)),
  );
  // A district dissolved before 2025 is its wards within the district it went into; a name both carry is the older,
  // smaller district unless written as the city ("Thủ Đức" is old Quận Thủ Đức, "TP Thủ Đức" the whole).
  let former = typeof q.district === 'string' ? formerDistrict(table, q.district, provinces) : null;
  if (former && districts.length > 0 && (!districts.includes(former.district) || q.districtType === 'Thành phố'))
    former = null;
  if (former) districts = [former.district];
  const inProvinces = (w: number): boolean =>
    provinces.length === 0 || provinces.includes(parentOf(table, parentOf(table, w)));
  let wards = find('legacy', 'ward', q.ward, (w) =>
    districts.length > 0 ? districts.includes(parentOf(table, w)) : inProvinces(w),
  );
  // A ward of the written district that the official merges send to no 2025 ward (Phường 13 of Quận 3, Phường 5 of
  // Quận 10: missing from merges.json) is outside every area made of 2025 wards, yet there.
  if (wards.length === 0 && districts.length > 0)
    wards = findUnits(
      table,
      'legacy',
      'ward',
      q.ward,
      (w) => districts.includes(parentOf(table, w)) && !table.legacyTo2025.has(w),
    );
  // Several of the name, some of the type written: those ("phường Phú Hữu" of Quận 9, not Xã Phú Hữu of Nhơn Trạch),
  // unless a 2025 ward of the name may be meant (Phường Tân Hòa of Hồ Chí Minh, not the legacy one of Biên Hòa).
  if (wards.length > 1) {
    const ofType = wards.filter((w) => table.byId.get(w)?.type === q.wardType);
    if (ofType.length > 0 && find('2025', 'ward', q.ward, () => true).length === 0) wards = ofType;
  }
  // A 2025 ward of the name made of the written district's wards ("phường Phú Thọ Q11", "phường Bình Đông Q8": the
  // 2025 wards of Quận 11 and Quận 8) is that ward, not a legacy ward of the name elsewhere (Phú Thọ of Thủ Dầu Một).
  const fromDistricts = (w: number): boolean =>
    (table.toLegacy.get(w) ?? []).some((l) => districts.includes(parentOf(table, l)));
  if (wards.length === 0 && districts.length > 0 && find('2025', 'ward', q.ward, fromDistricts).length === 0) {
    // Mapped data near district borders often names the neighbouring district: trust a ward name that is unique
    // in the province over the district, and report the disagreement.
    const anywhere = find('legacy', 'ward', q.ward, inProvinces);
    if (anywhere.length === 1) {
      wards = anywhere;
      districts = [parentOf(table, anywhere[0]!)];
      out.mismatched.push('district');
    }
  }
  if (wards.length > 0 && districts.length > 1)
    districts = districts.filter((d) => wards.some((w) => parentOf(table, w) === d));
  if (districts.length > 0 && provinces.length > 1)
    provinces = provinces.filter((p) => districts.some((d) => parentOf(table, d) === p));

  if (former && wards.length === 0) {
    out.former = former.wards;
    if (former.namesInto) out.formerNamesInto = true;
  }
  if (wards.length === 1) {
    out.legacy.ward = wards[0]!;
    out.legacy.district = parentOf(table, wards[0]!);
    out.legacy.province = parentOf(table, out.legacy.district);
  } else {
    if (wards.length > 1) out.ambiguous.push('ward');
    if (districts.length === 1) {
      out.legacy.district = districts[0]!;
      out.legacy.province = parentOf(table, districts[0]!);
    } else {
      if (districts.length > 1) out.ambiguous.push('district');
      if (provinces.length === 1) out.legacy.province = provinces[0]!;
      else if (provinces.length > 1) out.ambiguous.push('province');
    }
  }

  // 2025: follow the legacy links, else match the 2025 names directly.
  if (out.legacy.province !== undefined) out.v2025.province = table.legacyTo2025.get(out.legacy.province)?.[0];
  if (out.v2025.province === undefined) {
    const p = find('2025', 'province', q.province, () => true);
    if (p.length === 1) out.v2025.province = p[0]!;
  }
  const inProvince = (w: number): boolean =>
    out.v2025.province === undefined || parentOf(table, w) === out.v2025.province;
  // A 2025 ward of the name written, of the type written ("Phường Hồng Hà"), is that ward and not a legacy one of the
  // same name and another type that went elsewhere (Xã Hồng Hà of Đan Phượng): in 2026 people write the new wards.
  const typedAs = q.wardType;
  if (out.legacy.ward !== undefined && typedAs !== undefined && table.byId.get(out.legacy.ward)?.type !== typedAs) {
    const direct = find('2025', 'ward', q.ward, inProvince).filter((w) => table.byId.get(w)?.type === typedAs);
    const mapped = table.legacyTo2025.get(out.legacy.ward) ?? [];
    if (direct.length === 1 && !mapped.includes(direct[0]!)) {
      out.legacy.ward = undefined;
      out.legacy.district = undefined;
    }
  }
  if (out.legacy.ward !== undefined) {
    const mapped = table.legacyTo2025.get(out.legacy.ward) ?? [];
    out.v2025.wards = mapped;
    // A 2025 ward written by its own name wins among the successors; else the first (the one that kept most).
    const named = find('2025', 'ward', q.ward, (w) => mapped.includes(w));
    out.v2025.ward = named[0] ?? mapped[0];
  }
  if (out.v2025.ward === undefined) {
    // A 2025-style address, or OSM data that put the new ward in addr:district ("Xuân Hòa" in Hồ Chí Minh).
    let direct = find('2025', 'ward', q.ward, inProvince);
    if (direct.length === 0 && out.legacy.district === undefined) direct = find('2025', 'ward', q.district, inProvince);
    if (direct.length === 1) {
      out.v2025.ward = direct[0]!;
      out.v2025.wards = [direct[0]!];
      out.v2025.province ??= parentOf(table, direct[0]!);
      // A 2025 ward written with a legacy district it took nothing from ("Gò Vấp, Quận 12"; "Thủ Đức, Quận 9", a
      // district dissolved before: its wards): the two disagree.
      const from = table.toLegacy.get(direct[0]!) ?? [];
      const district = out.legacy.district;
      const inDistrict = (w: number): boolean =>
        out.former ? out.former.includes(w) : parentOf(table, w) === district;
      if (district !== undefined && from.length > 0 && !from.some(inDistrict)) out.mismatched.push('district');
    }
  }
  return out;
}

/**
 * A gazetteer for parseAddress backed by the table: is there a unit of this kind with this name (legacy or
 * 2025 for provinces and wards, legacy for districts), inside the province/district already recognised?
 * Scope keys that match nothing are ignored rather than rejecting everything.
 * @param area the units of the region's area (see areaUnits): the scope of a ward or district name written without
 *   a province or district around it
 */
export function gazetteerFor(table: AdminTable, area?: ReadonlySet<number>): Gazetteer {
  const ids = (system: AdminSystem, level: AdminLevel, key: string): number[] =>
    table.index.get(indexKey(system, level, key)) ?? [];
  // No name key is longer than this (characters; an index key holds its name key): a longer key names nothing, known
  // by its length alone (the parser asks about every span of a long run, see suffixKeys in places/text/address.ts).
  let longest = FORMER_NAME_LONGEST;
  for (const k of table.index.keys()) longest = Math.max(longest, k.length);
  return (kind, foldedName, within) => {
    if (foldedName.length > longest) return false;
    const scopeDistricts = within?.district ? ids('legacy', 'district', within.district) : [];
    // Without a province, the districts' provinces scope too (2025 wards have no district).
    const scopeProvinces = within?.province
      ? [...ids('legacy', 'province', within.province), ...ids('2025', 'province', within.province)]
      : scopeDistricts.map((d) => parentOf(table, d));
    // Nothing around the name: it names a unit of the region's own area, or none ("Thăng Long" in a Hà Nội pack is
    // no commune of that name in another province).
    const bare = !within?.province && !within?.district;
    const candidates = [
      ...ids('legacy', kind, foldedName),
      ...(kind === 'district' ? (formerDistrict(table, foldedName, [])?.wards ?? []) : ids('2025', kind, foldedName)),
    ];
    return candidates.some((id) => {
      if (bare && area && kind !== 'province' && !area.has(id)) return false;
      if (kind === 'ward' && scopeDistricts.length > 0 && table.byId.get(id)!.system === 'legacy') {
        if (!scopeDistricts.includes(parentOf(table, id))) return false;
      }
      if (kind !== 'province' && scopeProvinces.length > 0) {
        const p = provinceOf(table, id)!;
        const related = [p, ...(table.legacyTo2025.get(p) ?? []), ...(table.toLegacy.get(p) ?? [])];
        if (!scopeProvinces.some((s) => related.includes(s))) return false;
      }
      return true;
    });
  };
}

/**
 * The units of an area given by its 2025 wards: those wards and their provinces, the legacy wards they were formed
 * from, and those wards' districts and provinces.
 */
export function areaUnits(table: AdminTable, wards2025: Iterable<number>): Set<number> {
  const out = new Set<number>();
  for (const w of wards2025) {
    // A unit the table does not know (a corrupt pack read without checksums) names nothing.
    if (!table.byId.has(w)) continue;
    out.add(w).add(parentOf(table, w));
    for (const legacy of table.toLegacy.get(w) ?? []) {
      const district = parentOf(table, legacy);
      out.add(legacy).add(district).add(parentOf(table, district));
    }
  }
  out.delete(-1);
  return out;
}
