/** Builds the derived maps of an AdminTable from its units and links. No Node imports. */
import { nameKey } from '../places/text/fold';
import type { AdminTable, AdminUnit, WardLink } from './types';

/** The lookup key of a unit name in `AdminTable.index`. */
export function indexKey(system: string, level: string, key: string): string {
  return `${system}|${level}|${key}`;
}

/** Assembles a table; `units` must be sorted by id. Link order is kept (best successor first). */
export function buildTable(
  units: AdminUnit[],
  wardLinks: WardLink[],
  provinceLinks: Array<{ legacy: number; v2025: number }>,
): AdminTable {
  const byId = new Map<number, AdminUnit>();
  const index = new Map<string, number[]>();
  const put = (k: string, id: number): void => {
    const list = index.get(k);
    if (!list) index.set(k, [id]);
    else if (!list.includes(id)) list.push(id);
  };
  for (const u of units) {
    byId.set(u.id, u);
    const k = nameKey(u.name);
    put(indexKey(u.system, u.level, k), u.id);
    // Written as one word in English text ("Dalat", "Nhatrang", "Hoankiem").
    if (k.includes(' ') && !/\d/.test(k)) put(indexKey(u.system, u.level, k.replace(/ /g, '')), u.id);
    // 2025 wards named after their old town ("Lâm Viên - Đà Lạt") are also called by the first part alone.
    const dash = u.name.indexOf(' - ');
    if (u.system === '2025' && u.level === 'ward' && dash > 0)
      put(indexKey(u.system, u.level, nameKey(u.name.slice(0, dash))), u.id);
  }
  const legacyTo2025 = new Map<number, number[]>();
  const toLegacy = new Map<number, number[]>();
  const add = (m: Map<number, number[]>, a: number, b: number): void => {
    const list = m.get(a);
    if (!list) m.set(a, [b]);
    else if (!list.includes(b)) list.push(b);
  };
  for (const l of [...wardLinks, ...provinceLinks]) {
    add(legacyTo2025, l.legacy, l.v2025);
    add(toLegacy, l.v2025, l.legacy);
  }
  return { units, byId, wardLinks, provinceLinks, legacyTo2025, toLegacy, index };
}

/** The province a unit belongs to (itself for a province), or undefined for an unknown id. */
export function provinceOf(table: AdminTable, id: number): number | undefined {
  let u = table.byId.get(id);
  while (u && u.parent >= 0) u = table.byId.get(u.parent);
  return u?.id;
}
