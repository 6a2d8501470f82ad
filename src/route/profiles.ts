/**
 * The five vehicle profiles of a pack, in pack order. The order is part of the pack format: per-edge speeds are
 * stored as `speed[edge * PROFILE_COUNT * 2 + profile * 2 + direction]`.
 */
export const VEHICLES = ['car', 'bike', 'taxi', 'truck', 'hd'] as const;
export type Vehicle = (typeof VEHICLES)[number];
export const PROFILE_COUNT = VEHICLES.length;

/** Index of a vehicle name in pack order, or -1 when unknown. */
export function vehicleIndex(name: string): number {
  return (VEHICLES as readonly string[]).indexOf(name);
}

/**
 * Road classes stored per edge (u8). The numbering is part of the pack format; `ROAD_CLASSES[i]` is the OSM
 * `highway` value of class i.
 */
export const ROAD_CLASSES = [
  'other',
  'motorway',
  'motorway_link',
  'trunk',
  'trunk_link',
  'primary',
  'primary_link',
  'secondary',
  'secondary_link',
  'tertiary',
  'tertiary_link',
  'unclassified',
  'residential',
  'living_street',
  'service',
  'road',
  'track',
  'pedestrian',
  'footway',
  'path',
  'cycleway',
  'steps',
  'bridleway',
  'busway',
] as const;

/** Per-edge flag bits (u8). */
export const EdgeFlag = {
  roundabout: 1,
  bridge: 2,
  tunnel: 4,
  toll: 8,
  link: 16,
  ferry: 32,
} as const;
