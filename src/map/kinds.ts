/**
 * Basemap feature kinds stored per feature (u8; the numbering is part of the pack format). Each kind names the
 * vector-tile layer it belongs to and its `class` property, which styles filter on.
 */
export const BASEMAP_KINDS = [
  { layer: 'other', class: 'other' },
  { layer: 'water', class: 'water' },
  { layer: 'waterway', class: 'river' },
  { layer: 'waterway', class: 'stream' },
  { layer: 'waterway', class: 'canal' },
  { layer: 'park', class: 'park' },
  { layer: 'park', class: 'wood' },
  { layer: 'park', class: 'grass' },
  { layer: 'park', class: 'pitch' },
  { layer: 'park', class: 'cemetery' },
  { layer: 'landuse', class: 'residential' },
  { layer: 'landuse', class: 'commercial' },
  { layer: 'landuse', class: 'industrial' },
  { layer: 'landuse', class: 'institutional' },
  { layer: 'landuse', class: 'military' },
  { layer: 'building', class: 'building' },
  { layer: 'road', class: 'motorway' },
  { layer: 'road', class: 'trunk' },
  { layer: 'road', class: 'primary' },
  { layer: 'road', class: 'secondary' },
  { layer: 'road', class: 'tertiary' },
  { layer: 'road', class: 'minor' },
  { layer: 'road', class: 'service' },
  { layer: 'road', class: 'path' },
  { layer: 'railway', class: 'rail' },
  { layer: 'place', class: 'suburb' },
  { layer: 'place', class: 'quarter' },
  { layer: 'place', class: 'neighbourhood' },
  { layer: 'poi', class: 'poi' },
  /** A 2025 ward or commune: its official name at a point inside its official polygon. */
  { layer: 'place', class: 'ward' },
  /** A 2025 province: its official name at a point inside it (the label point of its most central ward in the pack). */
  { layer: 'place', class: 'province' },
] as const;

/** Kind index by "layer/class". */
export const KIND_INDEX: Record<string, number> = Object.fromEntries(
  BASEMAP_KINDS.map((k, i) => [`${k.layer}/${k.class}`, i]),
);

/** Geometry type of a basemap feature (u8): 1 point, 2 line, 3 polygon (rings: outer then its holes). */
export const GeomType = { point: 1, line: 2, polygon: 3 } as const;
