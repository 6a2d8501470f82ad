/** Vietnamese administrative units of both systems, as one normalised table. No Node imports. */

/** 'legacy': the three levels before 1 July 2025 (63/705/10,599); '2025': the two levels since (34/3,321). */
export type AdminSystem = 'legacy' | '2025';
export type AdminLevel = 'province' | 'district' | 'ward';

export interface AdminUnit {
  /** Small integer, stable for the same input files: position in the full table (legacy by code, then 2025). */
  id: number;
  system: AdminSystem;
  level: AdminLevel;
  /** Official code: legacy GSO codes ("01", "006", "00181"); 2025 units keep the GSO-style code of merges.json. */
  code: string;
  /** 2025 units only: the code of communes-2025.json (provinces "01".."34", wards 8 digits), else "". */
  altCode: string;
  /** Name without type word, NFC, whitespace collapsed ("Đống Đa", "1"). */
  name: string;
  /** Canonical type word: Thành phố, Tỉnh, Quận, Huyện, Thị xã, Phường, Xã, Thị trấn, Đặc khu. */
  type: string;
  /** `${type} ${name}` ("Quận Đống Đa"). */
  nameWithType: string;
  /** Id of the parent unit (district for legacy wards, province otherwise), -1 for provinces. */
  parent: number;
  /** fold(name). */
  foldedName: string;
}

/** A legacy ward that became (all or part of) a 2025 ward. */
export interface WardLink {
  legacy: number;
  v2025: number;
  /** True when the whole legacy ward went into this 2025 ward. */
  full: boolean;
}

export interface AdminTable {
  /** Units in id order (ids need not be dense in a subset). */
  units: AdminUnit[];
  byId: Map<number, AdminUnit>;
  wardLinks: WardLink[];
  /** Legacy province → the 2025 province it became part of. */
  provinceLinks: Array<{ legacy: number; v2025: number }>;
  /** Legacy ward or province id → 2025 ids, best first (the 2025 unit that kept most of it first). */
  legacyTo2025: Map<number, number[]>;
  /** 2025 ward or province id → legacy ids it was formed from. */
  toLegacy: Map<number, number[]>;
  /** `${system}|${level}|${nameKey(name)}` → unit ids. */
  index: Map<string, number[]>;
}
