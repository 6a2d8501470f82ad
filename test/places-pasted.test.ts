/**
 * Addresses pasted from messages and orders: field labels, phone numbers and the marks of old unit names ("Q.7 (cũ)")
 * taken out before the address is read (src/places/text/pasted.ts); text without them is left as written.
 */
import { describe, expect, it } from 'vitest';
import { withoutContact } from '../src/places/text/pasted';

/** The words left, separators dropped: what the address reader sees of the text. */
const words = (s: string) =>
  s
    .split(/[^\p{L}\p{M}\p{N}/]+/u)
    .filter(Boolean)
    .join(' ');

describe('withoutContact', () => {
  it('takes out address labels, phone numbers and old-name marks in the forms people write them', () => {
    for (const [text, left] of [
      ['Địa chỉ: 135 Nam Kỳ Khởi Nghĩa, Q1', '135 Nam Kỳ Khởi Nghĩa Q1'],
      ['Đ/c: 12 Lê Lợi', '12 Lê Lợi'],
      ['dia chi: 12 le loi', '12 le loi'],
      ['Giao hàng: 243 Hai Bà Trưng, Quận 3, ĐT: 0909.123.456', '243 Hai Bà Trưng Quận 3'],
      ['SĐT 0912345678 - 130 Cách Mạng Tháng Tám Q3', '130 Cách Mạng Tháng Tám Q3'],
      ['0987 654 321, 237 Lý Tự Trọng', '237 Lý Tự Trọng'],
      ['+84 909 123 456, 12 Lê Lợi', '12 Lê Lợi'],
      ['Hotline: 028 3829 1234 - Đ/c: 144 Pasteur, Q.1', '144 Pasteur Q 1'],
      ['12 Lê Lợi (zalo 0909-123-456)', '12 Lê Lợi'],
      ['phường Tân Phong, Q.7 (cũ)', 'phường Tân Phong Q 7'],
      // An old name in brackets with its mark: the name stays, as the unit it was.
      ['P. Tăng Nhơn Phú (Q9 cũ)', 'P Tăng Nhơn Phú Q9'],
      ['phường Tân Sơn Nhất (Tân Bình cũ)', 'phường Tân Sơn Nhất Tân Bình'],
      // An old ward's name says no more than the ward written beside it.
      ['32 Trần Quốc Thảo, phường Xuân Hòa (phường Võ Thị Sáu cũ)', '32 Trần Quốc Thảo phường Xuân Hòa'],
      ['P. Xuân Hòa (P.7 cũ), Q3', 'P Xuân Hòa Q3'],
      // The quarters and groups inside a ward, which no map holds.
      ['đường số 5 khu phố 3 Linh Xuân', 'đường số 5 Linh Xuân'],
      ['Tổ 7, KP.2, phường Tân Hưng', 'phường Tân Hưng'],
      ['P.Thảo Điền Q2 cũ', 'P Thảo Điền Q2'],
      ['phường Nguyễn Du, Q. Hai Bà Trưng cũ', 'phường Nguyễn Du Q Hai Bà Trưng'],
      ['P.Đa Kao (nay là phường Tân Định), Q.1', 'P Đa Kao phường Tân Định Q 1'],
    ])
      expect(words(withoutContact(text)), text).toBe(left);
  });

  it('leaves house numbers, alleys, dates, postal codes and numbers of other lengths as written', () => {
    for (const text of [
      '135 Nam Kỳ Khởi Nghĩa, Q1',
      '12/0909 Lê Lợi',
      'Quận 10 123456789',
      '0123 Lê Lợi',
      'đường 3/2 Quận 10',
      '12 Hàng Bạc, Hoàn Kiếm, Hà Nội 100000',
      'ngõ 0 Phố Huế 09091234567890',
      'Dt 741',
      'Chợ Cũ, Quận 1',
      'Quốc lộ 13 cũ',
      'Hẻm Cũ 12',
    ])
      expect(withoutContact(text)).toBe(text);
  });
});
