/** A Google-style `{ text, value }` pair. */
export interface TextValue {
  text: string;
  value: number;
}

/** Distances from this many metres up are written in whole kilometres. */
const WHOLE_KM_FROM_M = 10_000;

/**
 * Distance as text/value, one rule for every endpoint: value in whole metres; text "529 m" under 1 km, kilometres
 * with up to two decimals under 10 km ("4.18 km", "2.1 km"), whole kilometres from 10 km ("16 km"). It fits both of
 * the published service's examples (Direction "4.18 km", DistanceMatrix "16 km"), and a pair of points gets the same
 * text from Direction, the matrix and the steps.
 */
export function distanceText(metres: number): TextValue {
  const value = Math.round(metres);
  if (value < 1000) return { text: `${value} m`, value };
  const km = value / 1000;
  const text = value < WHOLE_KM_FROM_M ? `${Number(km.toFixed(2))} km` : `${Math.round(km)} km`;
  return { text, value };
}

/** Duration as text/value: value in whole seconds; text "6 giây", "11 phút", "1 giờ 5 phút" (Vietnamese). */
export function durationText(seconds: number): TextValue {
  const value = Math.round(seconds);
  if (value < 60) return { text: `${value} giây`, value };
  const minutes = Math.round(value / 60);
  if (minutes < 60) return { text: `${minutes} phút`, value };
  const h = Math.floor(minutes / 60);
  const m = minutes - h * 60;
  return { text: m > 0 ? `${h} giờ ${m} phút` : `${h} giờ`, value };
}
