/**
 * Great-circle helpers. Distances use OSRM's earth radius so route lengths agree with OSRM on the same data.
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
