/**
 * The engine's view of a pack's admin units (the serialized table of data-tools/admin, rebuilt once per region):
 * names of a place's units, and the address parts a result shows.
 */
import { fromSerialized, type SerializedAdmin } from '../admin/serialize';
import type { AdminTable, AdminUnit } from '../admin/types';
import { ADMIN_SLOTS, AdminSlot } from './kinds';
import type { PlaceStore } from './store';

/** The admin units of one place, each undefined when unknown. */
export interface PlaceAdmin {
  ward?: AdminUnit;
  district?: AdminUnit;
  province?: AdminUnit;
  ward2025?: AdminUnit;
  province2025?: AdminUnit;
}

/** Admin units of a region, looked up by the pack-local ids of the places' units (PlaceStore.units). */
export class AdminNames {
  /** The rebuilt table, or null when the pack carries no admin units. */
  readonly table: AdminTable | null;

  constructor(serialized: unknown) {
    const t = serialized ? fromSerialized(serialized as SerializedAdmin) : null;
    this.table = t && !('error' in t) ? t : null;
  }

  /** A unit by id; undefined for -1 or an id the table does not hold. */
  unit(id: number): AdminUnit | undefined {
    return id >= 0 ? this.table?.byId.get(id) : undefined;
  }

  /** The five admin units of place `i` (legacy ward, district, province; 2025 ward, province). */
  of(places: PlaceStore, i: number): PlaceAdmin {
    const a = places.units;
    const o = places.unitsAt(i);
    return {
      ward: this.unit(a[o + AdminSlot.ward]!),
      district: this.unit(a[o + AdminSlot.district]!),
      province: this.unit(a[o + AdminSlot.province]!),
      ward2025: this.unit(a[o + AdminSlot.ward2025]!),
      province2025: this.unit(a[o + AdminSlot.province2025]!),
    };
  }

  /** Legacy wards a 2025 ward was made from (from the mapping; empty when unknown). */
  legacyWardsOf(ward2025: number): readonly number[] {
    let list = this.sources.get(ward2025);
    if (!list)
      this.sources.set(
        ward2025,
        (list = (this.table?.toLegacy.get(ward2025) ?? []).filter((id) => this.unit(id)?.level === 'ward')),
      );
    return list;
  }

  /** Legacy districts of the legacy wards a 2025 ward was made from. */
  legacyDistrictsOf(ward2025: number): readonly number[] {
    let list = this.districts.get(ward2025);
    if (!list)
      this.districts.set(
        ward2025,
        (list = [...new Set(this.legacyWardsOf(ward2025).map((w) => this.unit(w)!.parent))]),
      );
    return list;
  }

  /**
   * The 2025 wards that took most of a legacy district's wards (each legacy ward's first successor: the one that kept
   * most of it), empty when unknown. A 2025 ward that took only a sliver of the district is not its area: Phường Ba
   * Đình holds a corner of old Phường Cửa Nam, not of Quận Hoàn Kiếm.
   */
  wards2025OfDistrict(district: number): readonly number[] {
    if (!this.children) {
      this.children = new Map();
      for (const u of this.table?.units ?? []) {
        if (u.system !== 'legacy' || u.level !== 'ward') continue;
        const most = this.table!.legacyTo2025.get(u.id)?.[0];
        if (most === undefined) continue;
        const list = this.children.get(u.parent);
        if (!list) this.children.set(u.parent, [most]);
        else if (!list.includes(most)) list.push(most);
      }
    }
    return this.children.get(district) ?? [];
  }

  private readonly sources = new Map<number, number[]>();
  private readonly districts = new Map<number, number[]>();
  private children: Map<number, number[]> | null = null;

  /** Distinct names with type ("Phường Văn Miếu", "Quận Đống Đa") of place `i`'s units, both systems. */
  namesOf(places: PlaceStore, i: number): string[] {
    const out: string[] = [];
    for (let s = 0; s < ADMIN_SLOTS; s++) {
      const u = this.unit(places.unit(i, s));
      if (u && !out.includes(u.nameWithType)) out.push(u.nameWithType);
    }
    return out;
  }
}
