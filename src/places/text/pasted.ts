/**
 * Addresses pasted from a message or an order ("Địa chỉ: 135 Nam Kỳ Khởi Nghĩa, Q1, ĐT: 0909.123.456", "SĐT
 * 0909123456 - 12 Lê Lợi"): the field labels and the phone numbers are no words of the place, and a phone number
 * before the address would be read as its house number; nor are the marks of old unit names ("Q.7 (cũ)"). Pure string
 * code.
 */

/** Labels of an address field, written before a colon ("Địa chỉ:", "Đ/c:", "Giao hàng:", "Address:"), at a part's start. */
const ADDRESS_LABEL =
  /^\s*(?:địa chỉ|dia chi|đ\/c|d\/c|đc|address|addr|giao hàng|giao hang|giao đến|giao den|giao tới|giao toi|nơi nhận|noi nhan)\s*[:：]/iu;
/** What separates the parts of a pasted text: , ; newline ( | – - */
const SEPARATORS = ',;\n(|–-';
/**
 * A Vietnamese phone number with the label before it, if any: 0 or +84 and then 9 or 10 digits (mobiles 10 digits in
 * all, landlines 11), grouped by spaces, dots or dashes ("0909 123 456", "028.3829.1234", "+84 909 123 456"); never
 * digits of a longer number or of a house path ("12/0909…").
 */
const PHONE =
  /(?:(?<!\p{L})(?:sđt|sdt|số đt|so dt|đt|dt|điện thoại|dien thoai|tel|phone|hotline|mobile|di động|di dong|zalo)\s*(?:[:：.]\s*)?)?(?<![\p{N}/])(?:\+\s?84|0)(?:[\s.-]?\d){9,10}(?![\p{N}/])/giu;

/**
 * Words marking a unit's name as the old or the new one since the 2025 reform ("Q.7 (cũ)", "P.Thảo Điền Q2 cũ", "P.Đa
 * Kao (nay là phường Tân Định)"): the names are what place it, the marks are no words of a place.
 */
const FORMER_MARK = /\(\s*cũ\s*\)|(?<!\p{L})nay (?:là|thuộc)(?!\p{L})/giu;
/**
 * The numbered quarters and groups inside a ward ("khu phố 3", "KP3", "tổ 5", "tổ dân phố 12"): the units below a ward
 * that addresses carry and maps do not; no words of a place.
 */
const SUBWARD =
  /(?<![\p{L}\p{N}])(?:khu phố|khu pho|kp|tổ dân phố|to dan pho|tổ)\.?\s*\d{1,3}[a-z]?(?![\p{L}\p{N}])/giu;
/**
 * An old name in brackets with its mark ("(Q9 cũ)", "(Tân Bình cũ)"): the name says where, as the unit it was; an old
 * ward's ("(phường Võ Thị Sáu cũ)", "(P.7 cũ)") says no more than the ward written beside it, and its words would be
 * read as a second street: left out.
 */
const FORMER_IN_BRACKETS = /\(([^()]{1,40}?)\s+cũ\s*\)/giu;
/** An old name in brackets that is a ward's, by its type word. */
const FORMER_WARD = /^\s*(?:phường|xã|thị trấn|p\.|p(?=\d))/iu;
/** A part that starts with an admin unit's type word ("Quận", "Q.", "P2", "TP "): a trailing "cũ" is its mark. */
const UNIT_PART = /^\s*(?:(?:quận|huyện|phường|xã|thị xã|thành phố)(?!\p{L})|(?:tp|q|p|h)(?=[.\d\s]))/iu;

/**
 * The text without its address labels, phone numbers (a phone number replaced by a comma, so the parts around it stay
 * apart), marks of old or new unit names and the quarters inside a ward; the text itself when it has none.
 */
export function withoutContact(text: string): string {
  const nfc = text.normalize('NFC');
  const cleaned = nfc
    .replace(PHONE, ', ')
    .replace(FORMER_IN_BRACKETS, (_, name: string) => (FORMER_WARD.test(name) ? ' ' : ` ${name} `))
    .replace(FORMER_MARK, ' ')
    .replace(SUBWARD, ' ');
  const out = mapParts(cleaned, (part) => {
    const unlabelled = part.replace(ADDRESS_LABEL, '');
    return UNIT_PART.test(unlabelled) ? withoutTrailingOld(unlabelled) : unlabelled;
  });
  return out === nfc ? text : out;
}

/**
 * `text` with each part between separators (SEPARATORS) replaced by `fn(part)`, the separators kept. A scan, not a
 * replace with a function nor a split: V8 takes time superlinear in the count of pieces for those (8 KB of ", " or
 * of "(((" took about 30 times 1 KB's).
 */
function mapParts(text: string, fn: (part: string) => string): string {
  const out: string[] = [];
  const isSeparator = (k: number): boolean => SEPARATORS.includes(text[k]!);
  for (let i = 0; i < text.length;) {
    let j = i;
    while (j < text.length && !isSeparator(j)) j++;
    if (j > i) out.push(fn(text.slice(i, j)));
    let k = j;
    while (k < text.length && isSeparator(k)) k++;
    if (k > j) out.push(text.slice(j, k));
    i = k;
  }
  return out.join('');
}

/** A part without the word "cũ" (old) ending it ("Q2 cũ" → "Q2"). */
function withoutTrailingOld(part: string): string {
  const t = part.trimEnd();
  const cut = t.length - 'cũ'.length;
  return cut > 0 && t.slice(cut).toLowerCase() === 'cũ' && /\s/u.test(t[cut - 1]!) ? t.slice(0, cut) : part;
}
