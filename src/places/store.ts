import { readValues, type ValueColumn } from '../pack/value-column.js';
import type { Pack } from '../pack/reader.js';
import { hasOffsets, Offsets, readOffsets } from '../pack/offsets.js';
import { PackError } from '../pack/reader.js';
import { ADMIN_SLOTS } from './kinds.js';
import { fitsRows, type RowIds } from '../pack/distinct-rows.js';
import type { OsmIds } from '../pack/id-column.js';
import { OSM_IDS, readOsmIds } from '../pack/osm-ids.js';

/**
 * The places of a pack as zero-copy views: per place its coordinates (1e-7 degree), kind, name, house number,
 * street, category, locality (string ids), admin units, OSM origin and alternative names.
 */
export class PlaceStore {
  readonly lat: Int32Array;
  readonly lon: Int32Array;
  readonly kind: Uint8Array;
  readonly name: Uint32Array;
  readonly house: Uint32Array;
  readonly street: ValueColumn;
  readonly category: ValueColumn;
  readonly locality: ValueColumn;
  /**
   * Admin units, ADMIN_SLOTS ids per distinct combination (AdminSlot order, -1 when unknown): place i's are
   * units[unitsAt(i) ..]. Places share combinations (whole HCMC: 43,024 places, 725 combinations), so the pack
   * stores each once (`place.admSets`) and per place its number (`place.admSet`; distinct-rows.ts); a pack from
   * before them stores every place's (`place.adm`), read as a combination per place.
   */
  readonly units: Int32Array;
  private readonly unitSet: RowIds;
  /**
   * Per place its OSM element's id × 4 + type, or -(unit id + 1) for an admin unit's place (kinds.ts): read and checked
   * whole when the store is made.
   */
  readonly osm: OsmIds;
  readonly importance: Uint8Array;
  /** Alternative names of place i: alt[altFirst[i] .. altFirst[i + 1]) (string ids), their kinds in altKind (AltKind). */
  readonly altFirst: Offsets;
  readonly alt: Uint32Array;
  readonly altKind: Uint8Array;
  readonly count: number;

  constructor(pack: Pack) {
    this.lat = pack.array('place.lat');
    this.lon = pack.array('place.lon');
    this.kind = pack.array('place.kind');
    this.name = pack.array('place.name');
    this.house = pack.array('place.house');
    const stored = pack.has('place.admSet');
    this.units = pack.array(stored ? 'place.admSets' : 'place.adm');
    this.osm = readOsmIds(pack, OSM_IDS.place, this.lat.length);
    this.importance = pack.array('place.importance');
    this.count = this.lat.length;
    const n = this.count;
    this.street = readValues(pack, 'place.street', n);
    this.category = readValues(pack, 'place.category', n);
    this.locality = readValues(pack, 'place.locality', n);
    // Packs from before alternative names have none.
    const hasAlt = hasOffsets(pack, 'place.alt.first');
    this.alt = hasAlt ? pack.array('place.alt') : new Uint32Array(0);
    this.altKind = hasAlt ? pack.array('place.alt.kind') : new Uint8Array(0);
    this.altFirst = hasAlt
      ? readOffsets(pack, 'place.alt.first', { rows: n, end: this.alt.length })
      : Offsets.whole(new Uint32Array(n + 1));
    if (this.altKind.length !== this.alt.length) {
      throw new PackError(pack.source, 'corrupt places: alternative names disagree in length');
    }
    for (const a of [this.lon, this.kind, this.name, this.house, this.osm, this.importance]) {
      if (a.length !== n) throw new PackError(pack.source, 'corrupt places: arrays differ in length');
    }
    this.unitSet = stored ? pack.array('place.admSet') : Uint32Array.from({ length: n }, (_, i) => i);
    if (!(this.units instanceof Int32Array) || !fitsRows(this.unitSet, n, this.units.length / ADMIN_SLOTS))
      throw new PackError(pack.source, 'corrupt places: admin references do not fit');
  }

  /** Where place i's admin units start in `units` (then ADMIN_SLOTS of them, AdminSlot order). */
  unitsAt(i: number): number {
    return this.unitSet[i]! * ADMIN_SLOTS;
  }

  /** Place i's admin unit id in slot `slot` (AdminSlot), or -1 when unknown. */
  unit(i: number, slot: number): number {
    return this.units[this.unitSet[i]! * ADMIN_SLOTS + slot]!;
  }
}
