/**
 * Districts dissolved before the 2025 reform that people still write (a table, one row per district): their wards
 * live on, under the district they went into. Thành phố Thủ Đức was made in 2021 of Quận 2, Quận 9 and Quận Thủ Đức;
 * in 2026 "Thảo Điền, Quận 2" is still how the ward is written. No Node imports.
 */
import { nameKey } from '../places/text/fold';
import { indexKey, provinceOf } from './table';
import type { AdminTable } from './types';

interface FormerDistrict {
  /** The province, by name key. */
  province: string;
  /** The district's name without its type word, as written ("2", "Thủ Đức"). */
  name: string;
  /** The legacy district it went into, by name. */
  into: string;
  /** Its wards, by name, as the legacy table lists them under `into`. */
  wards: string[];
}

const FORMER_DISTRICTS: readonly FormerDistrict[] = [
  {
    province: 'ho chi minh',
    name: '2',
    into: 'Thủ Đức',
    wards: [
      'An Khánh',
      'An Lợi Đông',
      'An Phú',
      'Bình Trưng Đông',
      'Bình Trưng Tây',
      'Cát Lái',
      'Thạnh Mỹ Lợi',
      'Thảo Điền',
      'Thủ Thiêm',
    ],
  },
  {
    province: 'ho chi minh',
    name: '9',
    into: 'Thủ Đức',
    wards: [
      'Hiệp Phú',
      'Long Bình',
      'Long Phước',
      'Long Thạnh Mỹ',
      'Long Trường',
      'Phú Hữu',
      'Phước Bình',
      'Phước Long A',
      'Phước Long B',
      'Tân Phú',
      'Tăng Nhơn Phú A',
      'Tăng Nhơn Phú B',
      'Trường Thạnh',
    ],
  },
  {
    province: 'ho chi minh',
    name: 'Thủ Đức',
    into: 'Thủ Đức',
    wards: [
      'Bình Chiểu',
      'Bình Thọ',
      'Hiệp Bình Chánh',
      'Hiệp Bình Phước',
      'Linh Chiểu',
      'Linh Đông',
      'Linh Tây',
      'Linh Trung',
      'Linh Xuân',
      'Tam Bình',
      'Tam Phú',
      'Trường Thọ',
    ],
  },
];

/** A former district found: the legacy district it went into, and its own legacy wards. */
export interface Former {
  district: number;
  wards: number[];
  /** The former district bore the name of the one it went into ("Thủ Đức"): the name alone reads as either. */
  namesInto: boolean;
}

/** The longest name key of a former district, characters: formerDistrict finds nothing for a longer key. */
export const FORMER_NAME_LONGEST = Math.max(...FORMER_DISTRICTS.map((f) => nameKey(f.name).length));

/**
 * The former district named `name` (without type word; "Quận 2" is "2") within the provinces given (any when none),
 * or null. Its wards are looked up in `table` under the district it went into.
 */
export function formerDistrict(table: AdminTable, name: string, provinces: readonly number[]): Former | null {
  const key = nameKey(name);
  let out: Former | null = null;
  for (const f of FORMER_DISTRICTS) {
    if (nameKey(f.name) !== key) continue;
    for (const d of table.index.get(indexKey('legacy', 'district', nameKey(f.into))) ?? []) {
      const province = provinceOf(table, d);
      if (province === undefined || nameKey(table.byId.get(province)?.name ?? '') !== f.province) continue;
      if (provinces.length > 0 && !provinces.includes(province)) continue;
      const wards = f.wards.flatMap((w) =>
        (table.index.get(indexKey('legacy', 'ward', nameKey(w))) ?? []).filter(
          (id) => table.byId.get(id)?.parent === d,
        ),
      );
      if (wards.length === 0) continue;
      if (!out) out = { district: d, wards: [], namesInto: nameKey(f.into) === key };
      if (out.district === d) out.wards.push(...wards);
    }
  }
  return out;
}
