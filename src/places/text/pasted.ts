/**
 * Addresses pasted from a message or an order ("Địa chỉ: 135 Nam Kỳ Khởi Nghĩa, Q1, ĐT: 0909.123.456", "SĐT
 * 0909123456 - 12 Lê Lợi"): the field labels and the phone numbers are no words of the place, and a phone number
 * before the address would be read as its house number. Pure string code.
 */

/** Labels of an address field, written before a colon ("Địa chỉ:", "Đ/c:", "Giao hàng:", "Address:"), at a part's start. */
const ADDRESS_LABEL =
  /^\s*(?:địa chỉ|dia chi|đ\/c|d\/c|đc|address|addr|giao hàng|giao hang|giao đến|giao den|giao tới|giao toi|nơi nhận|noi nhan)\s*[:：]/iu;
/** What separates the parts of a pasted text (kept, each its own piece of the split). */
const PART = /([,;\n(|–-])/u;
/**
 * A Vietnamese phone number with the label before it, if any: 0 or +84 and then 9 or 10 digits (mobiles 10 digits in
 * all, landlines 11), grouped by spaces, dots or dashes ("0909 123 456", "028.3829.1234", "+84 909 123 456"); never
 * digits of a longer number or of a house path ("12/0909…").
 */
const PHONE =
  /(?:(?<!\p{L})(?:sđt|sdt|số đt|so dt|đt|dt|điện thoại|dien thoai|tel|phone|hotline|mobile|di động|di dong|zalo)\s*(?:[:：.]\s*)?)?(?<![\p{N}/])(?:\+\s?84|0)(?:[\s.-]?\d){9,10}(?![\p{N}/])/giu;

/**
 * The text without its address labels and phone numbers (a phone number replaced by a comma, so the parts around it
 * stay apart); the text itself when it has none.
 */
export function withoutContact(text: string): string {
  const nfc = text.normalize('NFC');
  const out = nfc
    .replace(PHONE, ', ')
    .split(PART)
    .map((part) => part.replace(ADDRESS_LABEL, ''))
    .join('');
  return out === nfc ? text : out;
}
