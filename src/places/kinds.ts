/** Place kinds stored per place (u8; part of the pack format). */
export const PlaceKind = {
  poi: 1,
  address: 2,
  street: 3,
  ward: 4,
  district: 5,
  province: 6,
} as const;

/** Admin slots per place (PlaceStore.units: pack-local admin unit ids, -1 when unknown). */
export const AdminSlot = { ward: 0, district: 1, province: 2, ward2025: 3, province2025: 4 } as const;
export const ADMIN_SLOTS = 5;

/**
 * OSM element type encoded in the low two bits of `place.osm` (id * 4 + type); admin unit places store
 * -(unit id + 1) instead, unit ids being those of the pack's admin table.
 */
export const OsmType = { node: 0, way: 1, relation: 2, street: 3 } as const;

/** The admin unit an admin unit place stands for, from its `place.osm`; -1 for any other place. */
export const unitOfPlace = (osm: number): number => (osm < 0 ? -osm - 1 : -1);

/** Whether a place's `place.osm` is an OSM way or relation: a place mapped as an area. */
export const isAreaPlace = (osm: number): boolean =>
  osm >= 0 && (osm % 4 === OsmType.way || osm % 4 === OsmType.relation);

/** Kinds of alternative names in `place.alt.kind`: other names of the place, or its brand / operator. */
export const AltKind = { name: 0, brand: 1 } as const;
