/**
 * Districts written by their initials, as people in a city write the ones they live in: "60 Phan Xích Long PN" is in
 * Quận Phú Nhuận, "12/78 Phan Huy Ích Q.GV" in Quận Gò Vấp, "Chợ Thủ Đức TĐ" in Thủ Đức. Initials are read only
 * - in capitals, as typed (a lower-case "pn" or "gv" may be anything),
 * - where a district stands: after a district type word ("Q.PN", "quận PN"), or as the last word of its part of the
 *   text after some word ("CC Sư Vạn Hạnh" is a chung cư, not Củ Chi; "12 HBT" the street Hai Bà Trưng),
 * - when one district of the region's area alone has them ("BT" is both Bình Thạnh and Bình Tân: not read),
 * - when they have no other meaning: "TP" is thành phố, "HN" Hà Nội, "KP" khu phố, "TH" tiểu học.
 */
import type { AdminTable } from '../../admin/types';
import { addressTokens } from './abbreviations';
import { CATEGORIES } from './categories';
import { fold } from './fold';

/**
 * Initials → the district's name with its type word, for the legacy districts of `area` (all districts without one):
 * the first letters of its words in capitals ("PN" → "Quận Phú Nhuận", "TĐ"), and the last word written whole, as
 * people tell apart two districts of the same initials ("BTân", "BThạnh"); Đ also as D, the whole word also without
 * marks ("BTan").
 * @param table the region's admin table
 * @param area the units of the region's area (see areaUnits)
 */
export function districtInitials(table: AdminTable, area?: ReadonlySet<number>): ReadonlyMap<string, string> {
  const seen = new Map<string, string | null>();
  for (const u of table.units) {
    if (u.system !== 'legacy' || u.level !== 'district' || (area && !area.has(u.id))) continue;
    const words = u.name.split(' ');
    // A numbered district ("Quận 10") is written by its number; one-word names have no initials to speak of.
    if (words.length < 2 || words.some((w) => !/^\p{L}/u.test(w))) continue;
    const initials = words.map((w) => w[0]!.toUpperCase()).join('');
    const head = initials.slice(0, -1);
    const last = words[words.length - 1]!;
    const forms = [initials, head + capitalised(last), head + capitalised(fold(last))];
    for (const form of new Set(forms.flatMap((f) => [f, f.replace(/Đ/g, 'D')]))) {
      const other = seen.get(form);
      seen.set(form, other === undefined || other === u.nameWithType ? u.nameWithType : null);
    }
  }
  const out = new Map<string, string>();
  for (const [form, name] of seen) if (name !== null && !hasOtherReading(form)) out.set(form, name);
  return out;
}

/** The word with its first letter in capitals, the rest in lower case ("tân" → "Tân"). */
function capitalised(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1).toLowerCase();
}

/** Abbreviations of kinds of places ("BT" bảo tàng, "TH" tiểu học, "NH" ngân hàng), lower case. */
const CATEGORY_ABBREVIATIONS = new Set(CATEGORIES.flatMap((row) => row.abbr ?? []));

/**
 * Whether the letters read otherwise: as a type word before a name ("TP", "TX", "TT", "KP"), a place ("HN", "SG") or a
 * kind of place.
 */
function hasOtherReading(form: string): boolean {
  const [first] = addressTokens(`${form} X`);
  return first!.kind === 'type' || first!.kind === 'place' || CATEGORY_ABBREVIATIONS.has(form.toLowerCase());
}

/**
 * A district type word (written out, or as "Q." / "H."), then initials standing alone (two or three capitals, the
 * last maybe with the rest of its word: "BTân"); or such initials alone. Groups: 1 the type word, 2 the initials.
 */
const INITIALS =
  /(?<![\p{L}\p{M}\d])((?:[Qq]uận|[Hh]uyện|[Qq]uan|[Hh]uyen)\s+|[QqHh](?:\.\s*|\s+))?(\p{Lu}{1,2}\p{Lu}[\p{Ll}\p{M}]*)(?![\p{L}\p{M}\d])/gu;

/**
 * The text with district initials written as the district ("60 Phan Xích Long PN" → "60 Phan Xích Long, Quận Phú
 * Nhuận"); text without any is returned as is.
 * @param initials the region's readable initials (districtInitials)
 */
export function readDistrictInitials(text: string, initials: ReadonlyMap<string, string>): string {
  if (initials.size === 0) return text;
  return text.replace(INITIALS, (whole, type: string | undefined, caps: string, at: number) => {
    const name = initials.get(caps.normalize('NFC'));
    if (name === undefined) return whole;
    if (type === undefined) {
      const rest = text.slice(at + whole.length);
      const lastOfPart = /^\s*(?:[,;\n|]|$)/u.test(rest);
      // With no word before, the capitals are what is asked ("CC Sư Vạn Hạnh") or a street after its house number
      // ("12 HBT" is Hai Bà Trưng street).
      if (!lastOfPart || !/\p{L}/u.test(text.slice(0, at))) return whole;
    }
    return `, ${name}`;
  });
}
