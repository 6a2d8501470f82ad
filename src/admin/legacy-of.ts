/**
 * The legacy (pre-2025) units a 2025 ward implies on its own, from the legacy ↔ 2025 mapping: its legacy ward when
 * it was made from a single legacy ward (whole or in part), its district or province when all the legacy wards it
 * was made from share one. A level with a choice stays -1: a legacy unit is never guessed.
 */
import type { AdminTable } from './types';

/** [legacy ward, district, province] ids implied by 2025 ward `ward2025`, each -1 where the mapping leaves a choice. */
export function legacyOf(table: AdminTable, ward2025: number): [ward: number, district: number, province: number] {
  const parent = (id: number): number => table.byId.get(id)?.parent ?? -1;
  const sources = (table.toLegacy.get(ward2025) ?? []).filter((id) => table.byId.get(id)?.level === 'ward');
  const one = (ids: number[]): number =>
    ids.length > 0 && ids.every((id) => id === ids[0]) && ids[0]! >= 0 ? ids[0]! : -1;
  return [
    sources.length === 1 ? sources[0]! : -1,
    one(sources.map(parent)),
    one(sources.map((w) => parent(parent(w)))),
  ];
}
