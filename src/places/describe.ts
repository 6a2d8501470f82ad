/**
 * How a place is shown: name, address components, formatted address, plus code and compound.
 *
 * Address policy: since 1 July 2025 Vietnamese addresses have two admin levels (ward/commune, province), and
 * that is what results show: `address_components` run house number, street, 2025 ward, 2025 province (most to
 * least specific). When the 2025 ward of a place is unknown, its legacy ward and district stand in. Legacy (pre-2025)
 * ward and district names stay searchable, a legacy unit found by name is shown in its own three-level system,
 * and `compound.district` (autocomplete with more_compound) carries the legacy district, the locality people still
 * use. Names are NFC as in the data; `long_name` has the type word ("Phường Hoàn Kiếm"), `short_name` not.
 */
import { COORD_SCALE } from '../pack/format';
import type { AdminUnit } from '../admin/types';
import { PlaceKind } from './kinds';
import type { PlacesRegion } from './region-places';
import { encodePlusCode } from './text/pluscode';

/** One element of address_components. */
export interface AddressComponent {
  long_name: string;
  short_name: string;
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
  compound: { commune: string; district: string; province: string };
  /** display_type: poi, address, street, ward, district or province. */
  displayType: string;
}

const KIND_NAMES: Record<number, string> = { 1: 'poi', 2: 'address', 3: 'street', 4: 'ward', 5: 'district', 6: 'province' };
/** Leading street type words dropped in a street's short_name. */
const STREET_TYPE = /^(Phố|Đường|Đại lộ|Ngõ|Ngách|Hẻm|Kiệt)\s+(?=\D)/u;
/** Digits of the global code dropped in compound_code (recoverable within about 30 km of the locality). */
const COMPOUND_DROP = 4;

const unitComponent = (u: AdminUnit): AddressComponent => ({ long_name: u.nameWithType, short_name: u.name });

/** The view of place `i` of a region. */
export function describePlace(r: PlacesRegion, i: number): PlaceView {
  const places = r.places;
  const s = (id: number) => r.region.strings.get(id);
  const kind = places.kind[i]!;
  const name = s(places.name[i]!);
  const house = s(places.house[i]!);
  const street = kind === PlaceKind.street ? name : s(places.street[i]!);
  const a = r.admin.of(places, i);
  const legacyUnit = (kind === PlaceKind.ward || kind === PlaceKind.district || kind === PlaceKind.province) && s(places.category[i]!) === 'admin';

  const components: AddressComponent[] = [];
  if (house && kind !== PlaceKind.street) components.push({ long_name: house, short_name: house });
  if (street && kind !== PlaceKind.ward && kind !== PlaceKind.district && kind !== PlaceKind.province) {
    components.push({ long_name: street, short_name: street.replace(STREET_TYPE, '') });
  }
  const units: AdminUnit[] = [];
  if (legacyUnit || !a.ward2025) {
    if (a.ward && (legacyUnit || !a.ward2025)) units.push(a.ward);
    if (a.district) units.push(a.district);
    if (legacyUnit ? a.province : (a.province2025 ?? a.province)) units.push((legacyUnit ? a.province : (a.province2025 ?? a.province))!);
  } else {
    units.push(a.ward2025);
    if (a.province2025 ?? a.province) units.push((a.province2025 ?? a.province)!);
  }
  for (const u of units) components.push(unitComponent(u));

  const houseStreet = [house, street].filter(Boolean).join(' ');
  const unitNames = units.map((u) => u.nameWithType);
  let mainText: string;
  let rest: string[];
  if (kind === PlaceKind.poi) {
    mainText = name || houseStreet;
    rest = name && houseStreet ? [houseStreet, ...unitNames] : unitNames;
  } else if (kind === PlaceKind.address) {
    mainText = houseStreet;
    rest = unitNames;
  } else if (kind === PlaceKind.street) {
    mainText = name;
    rest = unitNames;
  } else {
    mainText = units[0]?.nameWithType ?? name;
    rest = unitNames.slice(1);
  }
  const addressParts = kind === PlaceKind.poi || kind === PlaceKind.address ? [houseStreet, ...unitNames] : [mainText, ...rest];
  const lat = places.lat[i]! / COORD_SCALE;
  const lng = places.lon[i]! / COORD_SCALE;
  const global = encodePlusCode(lat, lng);
  const localityUnit = a.ward2025 ?? a.district ?? a.ward;
  const province = a.province2025 ?? a.province;
  const locality = [localityUnit?.name, province?.name].filter(Boolean).join(', ');
  return {
    name: mainText,
    mainText,
    secondaryText: rest.join(', '),
    formattedAddress: addressParts.filter(Boolean).join(', ') || mainText,
    components,
    location: { lat, lng },
    plusCode: { compound_code: locality ? `${global.slice(COMPOUND_DROP)} ${locality}` : global, global_code: global },
    compound: { commune: (a.ward2025 ?? a.ward)?.name ?? '', district: a.district?.name ?? '', province: province?.name ?? '' },
    displayType: KIND_NAMES[kind] ?? 'poi',
  };
}
