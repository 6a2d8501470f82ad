/**
 * "bệnh viện mắt thành phố", "bưu điện thành phố": "thành phố" written last, with no name after it, is the city the
 * writer is in, which a region's places name in full ("Bệnh viện Mắt TP. Hồ Chí Minh", "Thư viện Tổng hợp TP.HCM").
 */
import type { AdminUnit } from '../admin/types';
import type { PlacesRegion } from './region-places';
import { withoutQuestion } from './text/question';

/** "thành phố" (or "tp") ending the text. */
const CITY_LAST = /(?<![\p{L}\p{N}])(?:thành phố|thanh pho|tp)[\s.]*$/iu;
/** A letter or digit: a word of the text's own. */
const WORD = /[\p{L}\p{N}]/u;

/** Type word of a city, province-level or district-level (AdminUnit.type). */
const CITY_TYPE = 'Thành phố';

const cities = new WeakMap<PlacesRegion, AdminUnit | null>();

/**
 * The city of a region: the province-level city holding more than half of its places (Hà Nội, Hồ Chí Minh), else the
 * district-level one (legacy units) that does (Đà Lạt, in Tỉnh Lâm Đồng); null when none does. (Thành phố Thủ Đức
 * holds half of whole HCMC's places, yet "thành phố" there is Hồ Chí Minh.)
 */
function cityOf(r: PlacesRegion): AdminUnit | null {
  let city = cities.get(r);
  if (city !== undefined) return city;
  const counts = new Map<AdminUnit, number>();
  for (let i = 0; i < r.places.count; i++) {
    const { district, province } = r.admin.of(r.places, i);
    for (const u of [district, province]) if (u?.type === CITY_TYPE) counts.set(u, (counts.get(u) ?? 0) + 1);
  }
  const most = (level: string) => [...counts].find(([u, n]) => u.level === level && n > r.places.count / 2)?.[0];
  city = most('province') ?? most('district') ?? null;
  cities.set(r, city);
  return city;
}

/**
 * The text with its last "thành phố" standing for the region's city by its name ("bưu điện thành phố ở đâu" → "bưu
 * điện Thành phố Hồ Chí Minh"), the question around it left out; null when the text does not end so or the region
 * has no city.
 */
export function withRegionCity(r: PlacesRegion, text: string): string | null {
  const asked = withoutQuestion(text);
  const m = CITY_LAST.exec(asked);
  // After at least one word of its own: "thành phố" alone asks for no place.
  const city = m && WORD.test(asked.slice(0, m.index)) && cityOf(r);
  return m && city ? `${asked.slice(0, m.index)}${city.nameWithType}` : null;
}
