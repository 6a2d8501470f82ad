/** Keys under which an administrative name written by people (OSM addr:* tags, typed queries) is looked up. */
import { expandAbbreviations } from './abbreviations';
import { nameKey } from './fold';

/** Folded admin type words that may lead a name ("Quận Đống Đa"), longest first. */
const LEADING_TYPES = ['thanh pho', 'tp', 'thi tran', 'thi xa', 'dac khu', 'tinh', 'quan', 'huyen', 'phuong', 'xa'];
/** English type words that follow a name ("Ho Chi Minh City", "Hoan Kiem District"). */
const TRAILING_TYPES = / (city|province|district|ward|commune|town)$/;

function strip(key: string): string {
  const lead = LEADING_TYPES.find((t) => key.startsWith(t + ' '));
  return lead ? key.slice(lead.length + 1) : key;
}

/**
 * Keys to try for an administrative name as people write it, best first, in `nameKey` form:
 * 1. the name as written, one leading type word removed ("Phường Sài Gòn" → "sai gon": a real 2025 ward);
 * 2. the same after expanding abbreviations and nicknames ("TP.HCM", "Sài Gòn" → "ho chi minh"; "Q.1" → "1";
 *    "Phuong 08" → "8"; "Ho Chi Minh City" → "ho chi minh");
 * 3. the whole name (some names start with a type word: Huế's "Phường Phường Đúc").
 * Non-string input gives [].
 */
export function adminNameKeys(s: string): string[] {
  if (typeof s !== 'string') return [];
  const raw = nameKey(s).replace(TRAILING_TYPES, '');
  const expanded = nameKey(expandAbbreviations(s)).replace(TRAILING_TYPES, '');
  const keys = [strip(raw), strip(expanded), raw].filter((k) => k !== '');
  return [...new Set(keys)];
}
