/**
 * A compact, serialisable subset of the admin table for packs (plain arrays of numbers and strings), and the
 * reader the engine uses. No Node imports. Ids are kept as in the full table, so ids resolved at build time
 * with the full table mean the same units after `fromSerialized`.
 */
import { fold } from '../places/text/fold';
import { buildTable, provinceOf } from './table';
import type { AdminLevel, AdminSystem, AdminTable, AdminUnit } from './types';

/** Parallel arrays, one entry per unit, in id order. */
export interface SerializedAdmin {
  format: 'bando-admin-1';
  id: number[];
  /** 0 legacy, 1 2025. */
  system: number[];
  /** 0 province, 1 district, 2 ward. */
  level: number[];
  /** Parent id, -1 for provinces. */
  parent: number[];
  code: string[];
  altCode: string[];
  name: string[];
  /** Index into `types`. */
  type: number[];
  types: string[];
  /** Triples: legacy ward id, 2025 ward id, 1 when the whole legacy ward went in (else 0). Best successor first. */
  wardLinks: number[];
  /** Pairs: legacy province id, 2025 province id. */
  provinceLinks: number[];
}

const SYSTEMS: AdminSystem[] = ['legacy', '2025'];
const LEVELS: AdminLevel[] = ['province', 'district', 'ward'];

/**
 * The units of the given provinces (ids of either system) with their districts and wards, plus the provinces of
 * the other system they are linked to (Hà Nội legacy brings Hà Nội 2025 and back; a merged 2025 province brings
 * all its legacy provinces), and the links among them. Unknown ids are ignored.
 */
export function subsetFor(table: AdminTable, provinceIds: number[]): SerializedAdmin {
  const keep = new Set<number>();
  for (const id of provinceIds) {
    const u = table.byId.get(id);
    if (!u || u.level !== 'province') continue;
    keep.add(id);
    for (const other of [...(table.legacyTo2025.get(id) ?? []), ...(table.toLegacy.get(id) ?? [])]) keep.add(other);
  }
  const units = table.units.filter((u) => keep.has(provinceOf(table, u.id)!));
  const inSubset = new Set(units.map((u) => u.id));
  const types = [...new Set(units.map((u) => u.type))];
  const out: SerializedAdmin = {
    format: 'bando-admin-1',
    id: [],
    system: [],
    level: [],
    parent: [],
    code: [],
    altCode: [],
    name: [],
    type: [],
    types,
    wardLinks: [],
    provinceLinks: [],
  };
  for (const u of units) {
    out.id.push(u.id);
    out.system.push(SYSTEMS.indexOf(u.system));
    out.level.push(LEVELS.indexOf(u.level));
    out.parent.push(u.parent);
    out.code.push(u.code);
    out.altCode.push(u.altCode);
    out.name.push(u.name);
    out.type.push(types.indexOf(u.type));
  }
  for (const l of table.wardLinks) {
    if (inSubset.has(l.legacy) && inSubset.has(l.v2025)) out.wardLinks.push(l.legacy, l.v2025, l.full ? 1 : 0);
  }
  for (const l of table.provinceLinks) {
    if (inSubset.has(l.legacy) && inSubset.has(l.v2025)) out.provinceLinks.push(l.legacy, l.v2025);
  }
  return out;
}

/**
 * Rebuilds a table from `subsetFor` output. Returns an error naming the field when the data is malformed
 * (wrong format tag, arrays of different lengths, unknown system/level/type index).
 */
export function fromSerialized(data: SerializedAdmin): AdminTable | { error: string } {
  if (!data || data.format !== 'bando-admin-1') return { error: 'admin data: format must be "bando-admin-1"' };
  const n = data.id?.length ?? 0;
  for (const f of ['system', 'level', 'parent', 'code', 'altCode', 'name', 'type'] as const) {
    if (!Array.isArray(data[f]) || data[f].length !== n) return { error: `admin data: ${f} must have ${n} entries` };
  }
  if (data.wardLinks.length % 3 !== 0) return { error: 'admin data: wardLinks must hold triples' };
  if (data.provinceLinks.length % 2 !== 0) return { error: 'admin data: provinceLinks must hold pairs' };
  const units: AdminUnit[] = [];
  for (let i = 0; i < n; i++) {
    const system = SYSTEMS[data.system[i]!];
    const level = LEVELS[data.level[i]!];
    const type = data.types[data.type[i]!];
    if (!system) return { error: `admin data: system[${i}] is not 0 or 1` };
    if (!level) return { error: `admin data: level[${i}] is not 0, 1 or 2` };
    if (type === undefined) return { error: `admin data: type[${i}] is not an index into types` };
    const name = data.name[i]!;
    units.push({
      id: data.id[i]!,
      system,
      level,
      code: data.code[i]!,
      altCode: data.altCode[i]!,
      name,
      type,
      nameWithType: `${type} ${name}`,
      parent: data.parent[i]!,
      foldedName: fold(name),
    });
  }
  const wardLinks = [];
  for (let i = 0; i < data.wardLinks.length; i += 3) {
    wardLinks.push({ legacy: data.wardLinks[i]!, v2025: data.wardLinks[i + 1]!, full: data.wardLinks[i + 2] === 1 });
  }
  const provinceLinks = [];
  for (let i = 0; i < data.provinceLinks.length; i += 2) {
    provinceLinks.push({ legacy: data.provinceLinks[i]!, v2025: data.provinceLinks[i + 1]! });
  }
  return buildTable(units, wardLinks, provinceLinks);
}
