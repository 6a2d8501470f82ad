/**
 * How a place is shown: name, address components, formatted address, plus code and compound.
 *
 * Address policy: since 1 July 2025 Vietnamese addresses have two admin levels (ward/commune, province), and
 * that is what results show by default: `address_components` run house number, street, 2025 ward, 2025 province
 * (most to least specific). One address never mixes the systems:
 * - `system: 'legacy'` shows the pre-2025 three levels instead (ward, district, province), whole, when the place's
 *   legacy ward or district is known; otherwise the 2025 form;
 * - a legacy admin unit found by name is shown in its own system, a 2025 unit in its;
 * - `legacy` carries the pre-2025 form separately (Goong's `deprecated_description` / `deprecated_compound`).
 * Names are NFC as in the data; `long_name` has the type word ("Phường Hoàn Kiếm"), `short_name` not.
 */
import { legacyOf } from '../admin/legacy-of';
import type { AdminUnit } from '../admin/types';
import { COORD_SCALE } from '../pack/format';
import { PlaceKind } from './kinds';
import { streetPointPosition, type StreetPoint } from './place-id';
import type { PlacesRegion } from './region-places';
import { encodePlusCode } from './text/pluscode';

/** One element of address_components. */
export interface AddressComponent {
  long_name: string;
  short_name: string;
}

/** Which admin system an address is written in. */
export type AddressSystem = '2025' | 'legacy';

/** Admin names of a compound (names without their type word; empty when unknown). */
export interface Compound {
  commune: string;
  province: string;
}

/** The pre-2025 form of an address. */
interface LegacyForm {
  description: string;
  compound: Compound & { district: string };
}

/** Everything an endpoint shows of one place. */
export interface PlaceView {
  /** Place detail `name`: the POI's, street's or unit's name, or house number and street for an address. */
  name: string;
  /** structured_formatting.main_text (same as name). */
  mainText: string;
  /** structured_formatting.secondary_text: the rest of the address. */
  secondaryText: string;
  formattedAddress: string;
  components: AddressComponent[];
  location: { lat: number; lng: number };
  plusCode: { compound_code: string; global_code: string };
  /** The 2025 ward and province. */
  compound: Compound;
  /** The pre-2025 form, or null when neither the legacy ward nor the district of the place is known. */
  legacy: LegacyForm | null;
  /** display_type: poi, address, street, ward, district or province. */
  displayType: string;
}

/** How to describe a place. */
export interface DescribeOptions {
  /** The system of formatted_address and address_components (default 2025). */
  system?: AddressSystem;
  /**
   * Show the place at this point instead of its own, with the 2025 ward whose polygon holds it (reverse on a street;
   * ward -1: the place's own units).
   */
  at?: { lat: number; lng: number; ward2025: number };
  /** Show a street at `at` as this house on it (a house number the data lacks, estimated from its neighbours). */
  house?: string;
  /**
   * Show a street at `at` as where the street of this name (a string id) meets it ("Lê Văn Sỹ & Huỳnh Văn Bánh").
   */
  crossing?: number;
}

/**
 * The street point a street shown so stands for (a house at `at`, or where another street meets it), for its
 * place_id to keep; undefined for any other way of showing a place.
 */
export function shownPoint(opts: DescribeOptions): StreetPoint | undefined {
  const { at, house, crossing } = opts;
  if (!at) return undefined;
  if (house) return { lat: at.lat, lng: at.lng, house: house.toLowerCase() };
  return crossing !== undefined ? { lat: at.lat, lng: at.lng, crossing } : undefined;
}

/**
 * How to show the street piece a street point lies on: as the house or crossing it stands for, at the point as its
 * place_id keeps it (rounded: every answer of that id shows the same point and ward).
 */
export function pointOptions(r: PlacesRegion, p: StreetPoint): DescribeOptions {
  const [lat, lng] = [streetPointPosition(p.lat), streetPointPosition(p.lng)];
  const at = { lat, lng, ward2025: r.wardAt(lat, lng) };
  return p.house !== undefined ? { at, house: p.house.toUpperCase() } : { at, crossing: p.crossing };
}

const KIND_NAMES: Record<number, string> = {
  1: 'poi',
  2: 'address',
  3: 'street',
  4: 'ward',
  5: 'district',
  6: 'province',
};
/** Leading street type words dropped in a street's short_name. */
const STREET_TYPE = /^(Phố|Đường|Đại lộ|Ngõ|Ngách|Hẻm|Kiệt)\s+(?=\D)/u;
/** Digits of the global code dropped in compound_code (recoverable within about 30 km of the locality). */
const COMPOUND_DROP = 4;

const unitComponent = (u: AdminUnit): AddressComponent => ({ long_name: u.nameWithType, short_name: u.name });
const present = <T>(xs: (T | undefined)[]): T[] => xs.filter((x): x is T => x !== undefined);

/** The view of place `i` of a region. */
export function describePlace(r: PlacesRegion, i: number, opts: DescribeOptions = {}): PlaceView {
  const places = r.places;
  const s = (id: number) => r.region.strings.get(id);
  const kind = places.kind[i]!;
  const isUnit = kind === PlaceKind.ward || kind === PlaceKind.district || kind === PlaceKind.province;
  const name = s(places.name[i]!);
  const house = kind === PlaceKind.street ? (opts.house ?? '') : s(places.house[i]!);
  const street = kind === PlaceKind.street ? name : s(places.street.at(i));
  const a = r.admin.of(places, i);
  let ward2025 = a.ward2025;
  let province2025 = a.province2025;
  let legacyUnits = present([a.ward, a.district, a.province]);
  if (opts.at && opts.at.ward2025 >= 0) {
    ward2025 = r.admin.unit(opts.at.ward2025);
    province2025 = ward2025 ? r.admin.unit(ward2025.parent) : undefined;
    const table = r.admin.table;
    legacyUnits = table && ward2025 ? present(legacyOf(table, ward2025.id).map((id) => r.admin.unit(id))) : [];
  }
  const modernUnits = present([ward2025, province2025]);
  // Outside the Vietnamese units (another country's pack), the place's own locality (addr:city) closes the address.
  const locality = modernUnits.length === 0 && legacyUnits.length === 0 ? s(places.locality.at(i)) : '';
  // A unit is shown in its own system; other places in the asked one when they have units of it.
  // The legacy form needs the place's legacy ward or district: a province alone would hide where it is.
  const legacyKnown = legacyUnits.some((u) => u.level !== 'province');
  const system: AddressSystem = isUnit
    ? modernUnits.length > 0
      ? '2025'
      : 'legacy'
    : opts.system === 'legacy' && legacyKnown
      ? 'legacy'
      : '2025';
  const units = system === '2025' ? modernUnits : legacyUnits;

  const components: AddressComponent[] = [];
  if (house) components.push({ long_name: house, short_name: house });
  if (street && !isUnit) components.push({ long_name: street, short_name: street.replace(STREET_TYPE, '') });
  for (const u of units) components.push(unitComponent(u));
  if (locality) components.push({ long_name: locality, short_name: locality });

  const houseStreet =
    kind === PlaceKind.street && opts.crossing !== undefined
      ? `${street} & ${s(opts.crossing)}`
      : [house, street].filter(Boolean).join(' ');
  const unitNames = [...units.map((u) => u.nameWithType), ...(locality ? [locality] : [])];
  let mainText: string;
  let rest: string[];
  if (kind === PlaceKind.poi) {
    mainText = name || houseStreet;
    rest = name && houseStreet ? [houseStreet, ...unitNames] : unitNames;
  } else if (kind === PlaceKind.address || kind === PlaceKind.street) {
    mainText = houseStreet; // a street's own name, or an estimated house on it
    rest = unitNames;
  } else {
    mainText = units[0]?.nameWithType ?? name;
    rest = unitNames.slice(1);
  }
  // A POI is shown by its address when it has a house number; else by its name and street (its street alone would
  // read as the street itself, a bare unit list as the unit).
  const formatted = (names: string[]): string => {
    const lead =
      kind === PlaceKind.address
        ? houseStreet
        : kind === PlaceKind.poi
          ? house
            ? houseStreet
            : [name, street].filter(Boolean).join(', ') || houseStreet
          : isUnit
            ? ''
            : mainText;
    return [lead, ...names].filter(Boolean).join(', ') || mainText;
  };
  const lat = opts.at?.lat ?? places.lat[i]! / COORD_SCALE;
  const lng = opts.at?.lng ?? places.lon[i]! / COORD_SCALE;
  const global = encodePlusCode(lat, lng);
  const localityUnit =
    system === '2025' ? ward2025 : (legacyUnits.find((u) => u.level === 'district') ?? legacyUnits[0]);
  const provinceUnit = system === '2025' ? province2025 : legacyUnits.find((u) => u.level === 'province');
  const compoundLocality = [localityUnit?.name, provinceUnit?.name].filter(Boolean).join(', ') || locality;
  const legacyProvince = legacyUnits.find((u) => u.level === 'province');
  return {
    name: mainText,
    mainText,
    secondaryText: rest.join(', '),
    formattedAddress: formatted(unitNames),
    components,
    location: { lat, lng },
    plusCode: {
      compound_code: compoundLocality ? `${global.slice(COMPOUND_DROP)} ${compoundLocality}` : global,
      global_code: global,
    },
    compound: { commune: ward2025?.name ?? '', province: province2025?.name ?? '' },
    legacy:
      !legacyKnown || isUnit
        ? null
        : {
            description: formatted(legacyUnits.map((u) => u.nameWithType)),
            compound: {
              commune: legacyUnits.find((u) => u.level === 'ward')?.name ?? '',
              district: legacyUnits.find((u) => u.level === 'district')?.name ?? '',
              province: legacyProvince?.name ?? '',
            },
          },
    // A street shown as a house on it is that address.
    displayType: KIND_NAMES[house && kind === PlaceKind.street ? PlaceKind.address : kind] ?? 'poi',
  };
}
