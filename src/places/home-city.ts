/**
 * "bệnh viện mắt thành phố", "bưu điện thành phố": "thành phố" written last, with no name after it, is the city the
 * writer is in, which a region's places name in full ("Bệnh viện Mắt TP. Hồ Chí Minh", "Thư viện Tổng hợp TP.HCM").
 */
import type { AdminUnit } from '../admin/types';
import { homeUnit } from './home';
import { AdminSlot } from './kinds';
import type { PlacesRegion } from './region-places';
import { withoutQuestion } from './text/question';

/** "thành phố" (or "tp") ending the text. */
const CITY_LAST = /(?<![\p{L}\p{N}])(?:thành phố|thanh pho|tp)[\s.]*$/iu;
/** A letter or digit: a word of the text's own. */
const WORD = /[\p{L}\p{N}]/u;

/** Type word of a city, province-level or district-level (AdminUnit.type). */
const CITY_TYPE = 'Thành phố';

/**
 * The city of a region: the province most of its places lie in when it is a city (Hà Nội, Hồ Chí Minh), else the
 * district most of them lie in when it is one (Đà Lạt, in Tỉnh Lâm Đồng); null when neither is.
 */
function cityOf(r: PlacesRegion): AdminUnit | null {
  for (const slot of [AdminSlot.province, AdminSlot.district] as const) {
    const unit = r.admin.unit(homeUnit(r, slot));
    if (unit?.type === CITY_TYPE) return unit;
  }
  return null;
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
