import { BASEMAP_KINDS } from '../kinds.js';

/**
 * Lowest zoom at which each basemap kind ("layer/class") enters the tiles: major roads and water early, minor
 * detail late, so low-zoom tiles stay small however large a pack's area is. The default style's layer minzooms
 * are at or above these.
 */
const MIN_ZOOM_BY_KIND: Record<string, number> = {
  'water/water': 0,
  'waterway/river': 8,
  'waterway/canal': 10,
  'waterway/stream': 12,
  'park/park': 8,
  'park/wood': 8,
  'park/grass': 11,
  'park/pitch': 12,
  'park/cemetery': 12,
  'landuse/residential': 10,
  'landuse/commercial': 10,
  'landuse/industrial': 10,
  'landuse/institutional': 10,
  'landuse/military': 10,
  'building/building': 13,
  'road/motorway': 5,
  'road/trunk': 5,
  'road/primary': 8,
  'road/secondary': 9,
  'road/tertiary': 10,
  'road/minor': 12,
  'road/service': 13,
  'road/path': 13,
  'railway/rail': 9,
  'place/suburb': 10,
  'place/quarter': 11,
  'place/neighbourhood': 13,
  'place/ward': 11,
  'place/province': 6,
  'poi/poi': 14,
};

/** Minimum zoom per basemap kind index (BASEMAP_KINDS order); 255 for kinds never tiled ("other"). */
export const KIND_MIN_ZOOM: Uint8Array = Uint8Array.from(
  BASEMAP_KINDS,
  (k) => MIN_ZOOM_BY_KIND[`${k.layer}/${k.class}`] ?? 255,
);

/** Minimum zoom of POIs taken from the places store (layer `poi`). */
export const POI_MIN_ZOOM = MIN_ZOOM_BY_KIND['poi/poi']!;
