/** A Google-style `{ text, value }` pair. */
export interface TextValue {
  text: string;
  value: number;
}

/**
 * Distance as text/value: value in whole metres; text "529 m" under 1 km, else kilometres with up to two decimals
 * ("4.18 km", Direction style) or whole kilometres ("16 km", DistanceMatrix style).
 */
export function distanceText(metres: number, style: 'direction' | 'matrix' = 'direction'): TextValue {
  const value = Math.round(metres);
  if (value < 1000) return { text: `${value} m`, value };
  const km = value / 1000;
  const text = style === 'matrix' ? `${Math.round(km)} km` : `${Number(km.toFixed(2))} km`;
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
