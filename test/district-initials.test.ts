import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAdminUnits } from '../data-tools/admin';
import { districtInitials, readDistrictInitials } from '../src/places/text/district-initials';

const table = loadAdminUnits(fileURLToPath(new URL('../../shared/data/admin', import.meta.url)));
const provinceNamed = (name: string) =>
  table.units.find((u) => u.system === 'legacy' && u.level === 'province' && u.name === name)!.id;
const districtsOf = (province: number) =>
  new Set(table.units.filter((u) => u.level === 'district' && u.parent === province).map((u) => u.id));
const hcmc = districtsOf(provinceNamed('Hồ Chí Minh'));
const hanoi = districtsOf(provinceNamed('Hà Nội'));
const initials = districtInitials(table, hcmc);

describe('districtInitials', () => {
  it('reads the initials one district of the area alone has, Đ also as D', () => {
    expect(initials.get('PN')).toBe('Quận Phú Nhuận');
    expect(initials.get('GV')).toBe('Quận Gò Vấp');
    expect(initials.get('TĐ')).toMatch(/ Thủ Đức$/);
    expect(initials.get('TD')).toBe(initials.get('TĐ'));
    // Bình Thạnh and Bình Tân share BT; TP (Tân Phú) is thành phố.
    expect(initials.has('BT')).toBe(false);
    expect(initials.get('BTân')).toBe('Quận Bình Tân');
    expect(initials.get('BThạnh')).toBe('Quận Bình Thạnh');
    expect(initials.get('BThanh')).toBe('Quận Bình Thạnh');
    expect(initials.has('TP')).toBe(false);
    // Districts of another province are not the area's ("HK", Hoàn Kiếm, is Hà Nội's).
    expect(initials.has('HK')).toBe(false);
    const inHanoi = districtInitials(table, hanoi);
    expect(inHanoi.get('HK')).toBe('Quận Hoàn Kiếm');
    expect(inHanoi.get('HBT')).toBe('Quận Hai Bà Trưng');
    // Thanh Xuân and Thanh Trì are thị xã and thị trấn; Tây Hồ is tiểu học.
    for (const form of ['TX', 'TT', 'TH']) expect(inHanoi.has(form)).toBe(false);
  });

  it("agrees with a straight scan of the area's districts", () => {
    const letters = (name: string) =>
      name
        .split(' ')
        .map((w) => w[0]!.toUpperCase())
        .join('');
    for (const [form, name] of initials) {
      if (/\p{Ll}/u.test(form)) continue; // the forms with a whole word
      const matching = table.units.filter(
        (u) => hcmc.has(u.id) && (letters(u.name) === form || letters(u.name).replace(/Đ/g, 'D') === form),
      );
      expect(matching.map((u) => u.nameWithType)).toEqual([name]);
    }
    // Every numbered district ("Quận 10") is left to its number.
    expect([...initials.values()].every((n) => !/\d/.test(n))).toBe(true);
  });
});

describe('readDistrictInitials', () => {
  it('reads capitals where a district stands', () => {
    expect(readDistrictInitials('60 Phan Xích Long PN', initials)).toBe('60 Phan Xích Long , Quận Phú Nhuận');
    expect(readDistrictInitials('12/78 Phan Huy Ích Q.GV, TP.HCM', initials)).toBe(
      '12/78 Phan Huy Ích , Quận Gò Vấp, TP.HCM',
    );
    expect(readDistrictInitials('Lê Văn Sỹ quận PN', initials)).toBe('Lê Văn Sỹ , Quận Phú Nhuận');
    expect(readDistrictInitials('Chợ Bình Trị Đông Q.BTân', initials)).toBe('Chợ Bình Trị Đông , Quận Bình Tân');
  });

  it('leaves capitals that may mean something else', () => {
    for (const text of [
      '60 Phan Xích Long pn', // not typed in capitals
      'PN Phan Xích Long', // nothing before: what is asked
      '12 PN', // a street after its house number
      'Phan Xích Long PN 2', // not where a district stands
      'Nguyễn Văn Trỗi BT', // two districts
      'Chợ HCM', // no district's
    ])
      expect(readDistrictInitials(text, initials)).toBe(text);
  });
});
