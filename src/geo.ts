/**
 * Distances on the earth: great-circle (haversine, on a sphere of OSRM's earth radius) for how far places and points
 * are, and OSRM's own measure of a road's segments (roadMetres) for route lengths, so they agree with OSRM's.
 */
/** A point in degrees (the REST API's `lat,lng` order). */
export interface LatLng {
  lat: number;
  lng: number;
}

export const EARTH_RADIUS_M = 6372797.560856;
const RAD = Math.PI / 180;

/** Haversine distance in metres between two points given in degrees. */
export function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** OSRM's fixed-point coordinates: degrees × 1e6 as integers (util/coordinate.hpp COORDINATE_PRECISION). */
const OSRM_PRECISION = 1e6;
/** OSRM's cheap rulers: one per 0.05° of latitude (coordinate_calculation.cpp: 1,800 over 0–90°), fixed units. */
const RULER_STEP = (90 * OSRM_PRECISION) / 1800;
/** WGS84: equatorial radius, metres, and the square of the eccentricity. */
const WGS84_A = 6378137;
const WGS84_E2 = (1 / 298.257223563) * (2 - 1 / 298.257223563);
/** Per ruler bin: metres per degree of longitude (kx) at 2·bin, of latitude (ky) at 2·bin + 1; 0 until first used. */
const rulers = new Float64Array(2 * 1800);

/** A degree value in OSRM's fixed point (rounded half away from zero, as std::round). */
function fixed(deg: number): number {
  const v = deg * OSRM_PRECISION;
  return v < 0 ? -Math.round(-v) : Math.round(v);
}

/**
 * Metres of the road segment between two points given in degrees, as OSRM v6 measures each segment of a way (its
 * `greatCircleDistance`): Mapbox's cheap ruler on the WGS84 ellipsoid (metres per degree from the normal and
 * meridional radii of curvature) at the centre of the 0.05° latitude bin of the pair's middle, over the coordinates
 * in OSRM's fixed point (0.11 m at most off per coordinate). The ruler is within 0.02 % of the geodesic at a
 * segment's length, where the sphere of `haversine` makes north–south lengths 0.5 % long and east–west ones 0.1 %
 * short at Vietnam's latitudes (route distances then differed from OSRM's by 30 m at the median on whole HCMC).
 */
export function roadMetres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const y1 = fixed(lat1),
    y2 = fixed(lat2);
  // C++ integer division truncates: the middle, then its bin (|lat| − 1 keeps a bin's upper edge in it).
  const bin = Math.trunc((Math.abs(Math.trunc((y1 + y2) / 2)) - 1) / RULER_STEP);
  if (rulers[2 * bin] === 0) {
    const c = Math.cos((((bin + 0.5) * RULER_STEP) / OSRM_PRECISION) * RAD);
    const w2 = 1 / (1 - WGS84_E2 * (1 - c * c));
    const mul = RAD * WGS84_A;
    rulers[2 * bin] = mul * Math.sqrt(w2) * c;
    rulers[2 * bin + 1] = mul * Math.sqrt(w2) * w2 * (1 - WGS84_E2);
  }
  let dLon = fixed(lon1) / OSRM_PRECISION - fixed(lon2) / OSRM_PRECISION;
  dLon -= 360 * Math.round(dLon / 360);
  const dx = dLon * rulers[2 * bin]!,
    dy = (y1 / OSRM_PRECISION - y2 / OSRM_PRECISION) * rulers[2 * bin + 1]!;
  return Math.sqrt(dx * dx + dy * dy);
}
