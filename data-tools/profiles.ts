import type { Tags } from './osm/types.js';
import { ROAD_CLASSES, VEHICLES, type Vehicle } from '../src/route/profiles.js';

/**
 * The vehicle profile table: which OSM ways each vehicle may use, in which direction, and how fast.
 *
 * - `car`: a private car. Road classes, speeds and access rules follow OSRM's car profile (car.lua), so answers
 *   can be compared with OSRM on the same data: maxspeed × 0.8 when tagged, otherwise the class speed; `service`
 *   alleys, parking aisles and driveways are allowed but cost double in the routing weight.
 * - `bike`: a motorbike (xe máy). May use alleys (ngõ/hẻm/kiệt), service roads and living streets at low speed, and
 *   footways/paths/pedestrian streets only where `motorcycle`/`moped` explicitly allow it; honours
 *   `oneway:motorcycle` and `motorcycle=*`; never motorways.
 * - `taxi`: a car that may also use ways open to taxis (`taxi=*`, `psv=*`), e.g. bus-and-taxi lanes.
 * - `truck`: a heavy goods vehicle (10 t, 3.4 m high, 10 m long, 2.5 m wide): `hgv=*` access, refuses ways whose
 *   maxweight/maxheight/maxlength/maxwidth are below those figures and alleys; prefers trunk roads and motorways
 *   (other classes weigh more in the routing weight).
 * - `hd`: ride-hailing (xe công nghệ). Behaves as `car`: ride-hailing cars in Vietnam are contract vehicles, not
 *   taxis, so they get no taxi/psv privileges; ride-hailing motorbikes are served by `bike`.
 */
export interface ProfileRules {
  vehicle: Vehicle;
  /** Access keys, most specific first; the first one present decides. */
  accessKeys: string[];
  /** Oneway keys, most specific first. */
  onewayKeys: string[];
  /** Default speed per highway class in km/h; a class not listed is not routable for the vehicle. */
  speeds: Partial<Record<string, number>>;
  /** Classes usable only when an access key explicitly allows the vehicle (e.g. footways for motorbikes). */
  explicitOnly: Partial<Record<string, number>>;
  /** Factor applied to a tagged maxspeed. */
  maxspeedFactor: number;
  /** Highest speed the vehicle drives, km/h. */
  maxSpeed: number;
  /** Routing preference (0..1] per class; weight = duration / preference. Missing = 1. */
  preference: Partial<Record<string, number>>;
  /** `service=*` values refused; `service=*` values with their preference. */
  serviceRefused: string[];
  servicePreference: Partial<Record<string, number>>;
  /** Vehicle dimensions checked against maxweight (t), maxheight (m), maxlength (m), maxwidth (m). */
  dimensions?: { weight: number; height: number; length: number; width: number };
}

const CAR_SPEEDS = {
  motorway: 90,
  motorway_link: 45,
  trunk: 85,
  trunk_link: 40,
  primary: 65,
  primary_link: 30,
  secondary: 55,
  secondary_link: 25,
  tertiary: 40,
  tertiary_link: 20,
  unclassified: 25,
  residential: 25,
  living_street: 10,
  service: 15,
};
const CAR_SERVICE = {
  alley: 0.5,
  parking: 0.5,
  parking_aisle: 0.5,
  driveway: 0.5,
  'drive-through': 0.5,
  'drive-thru': 0.5,
};
const CAR_ACCESS = ['motorcar', 'motor_vehicle', 'vehicle', 'access'];

export const PROFILE_RULES: Record<Vehicle, ProfileRules> = {
  car: {
    vehicle: 'car',
    accessKeys: CAR_ACCESS,
    onewayKeys: ['oneway'],
    speeds: CAR_SPEEDS,
    explicitOnly: {},
    maxspeedFactor: 0.8,
    maxSpeed: 130,
    preference: {},
    serviceRefused: ['emergency_access'],
    servicePreference: CAR_SERVICE,
  },
  bike: {
    vehicle: 'bike',
    accessKeys: ['motorcycle', 'moped', 'motor_vehicle', 'vehicle', 'access'],
    onewayKeys: ['oneway:motorcycle', 'oneway:moped', 'oneway'],
    speeds: {
      trunk: 50,
      trunk_link: 35,
      primary: 40,
      primary_link: 30,
      secondary: 35,
      secondary_link: 25,
      tertiary: 30,
      tertiary_link: 25,
      unclassified: 25,
      residential: 25,
      living_street: 15,
      service: 15,
      road: 20,
      track: 12,
    },
    explicitOnly: { footway: 10, path: 10, pedestrian: 10, cycleway: 15, bridleway: 10 },
    maxspeedFactor: 0.8,
    maxSpeed: 60,
    preference: {},
    serviceRefused: ['emergency_access'],
    servicePreference: {},
  },
  taxi: {
    vehicle: 'taxi',
    accessKeys: ['taxi', 'psv', ...CAR_ACCESS],
    onewayKeys: ['oneway:taxi', 'oneway:psv', 'oneway'],
    speeds: CAR_SPEEDS,
    explicitOnly: { busway: 30 },
    maxspeedFactor: 0.8,
    maxSpeed: 130,
    preference: {},
    serviceRefused: ['emergency_access'],
    servicePreference: CAR_SERVICE,
  },
  truck: {
    vehicle: 'truck',
    accessKeys: ['hgv', 'goods', 'motor_vehicle', 'vehicle', 'access'],
    onewayKeys: ['oneway'],
    speeds: {
      motorway: 80,
      motorway_link: 40,
      trunk: 70,
      trunk_link: 35,
      primary: 50,
      primary_link: 25,
      secondary: 45,
      secondary_link: 20,
      tertiary: 35,
      tertiary_link: 20,
      unclassified: 20,
      residential: 20,
      living_street: 8,
      service: 10,
    },
    explicitOnly: {},
    maxspeedFactor: 0.8,
    maxSpeed: 80,
    preference: {
      motorway: 1,
      motorway_link: 1,
      trunk: 1,
      trunk_link: 1,
      primary: 0.9,
      primary_link: 0.9,
      secondary: 0.8,
      secondary_link: 0.8,
      tertiary: 0.7,
      tertiary_link: 0.7,
      unclassified: 0.6,
      residential: 0.5,
      living_street: 0.3,
      service: 0.4,
    },
    serviceRefused: ['emergency_access', 'alley', 'parking_aisle', 'drive-through', 'drive-thru'],
    servicePreference: {},
    dimensions: { weight: 10, height: 3.4, length: 10, width: 2.5 },
  },
  hd: {
    vehicle: 'hd',
    accessKeys: CAR_ACCESS,
    onewayKeys: ['oneway'],
    speeds: CAR_SPEEDS,
    explicitOnly: {},
    maxspeedFactor: 0.8,
    maxSpeed: 130,
    preference: {},
    serviceRefused: ['emergency_access'],
    servicePreference: CAR_SERVICE,
  },
};

const ALLOWED = new Set(['yes', 'designated', 'permissive', 'destination', 'official', 'permit']);
const REFUSED = new Set([
  'no',
  'private',
  'agricultural',
  'forestry',
  'emergency',
  'psv',
  'customers',
  'delivery',
  'use_sidepath',
  'discouraged',
]);
/**
 * Access values of roads meant for local access only (OSRM car.lua `restricted_access_tag_list`); of these, the
 * profiles let vehicles drive `destination` roads, which searches penalise on entry (see ArcCosts.turnWeight).
 */
const RESTRICTED = new Set(['private', 'delivery', 'destination', 'customers']);

/**
 * What one way allows one vehicle: speeds per direction (km/h, 0 = not allowed), routing preference, and whether
 * the access value that decides for the vehicle restricts it to local access (RESTRICTED).
 */
export interface WayUse {
  forward: number;
  backward: number;
  preference: number;
  restricted: boolean;
}

const NONE: WayUse = { forward: 0, backward: 0, preference: 1, restricted: false };

/** Applies a profile to a way's tags. */
export function wayUse(rules: ProfileRules, tags: Tags): WayUse {
  const hw = tags.highway;
  const isFerry = tags.route === 'ferry';
  if (!hw && !isFerry) return NONE;
  if (tags.area === 'yes' && hw !== 'pedestrian') return NONE;
  const access = accessValue(rules, tags);
  let speed = isFerry ? 10 : rules.speeds[hw!];
  if (speed === undefined) {
    const explicit = rules.explicitOnly[hw!];
    if (explicit === undefined || access === undefined || !ALLOWED.has(access)) return NONE;
    speed = explicit;
  }
  if (access !== undefined && REFUSED.has(access)) return NONE;
  if (tags.service && rules.serviceRefused.includes(tags.service)) return NONE;
  if (tags.impassable === 'yes' || tags.construction || hw === 'construction' || hw === 'proposed') return NONE;
  if (rules.dimensions && exceedsLimits(rules.dimensions, tags)) return NONE;

  const max = parseMaxspeed(tags.maxspeed);
  let fwdSpeed = speed;
  let bwdSpeed = speed;
  const fwdMax = parseMaxspeed(tags['maxspeed:forward']) ?? max;
  const bwdMax = parseMaxspeed(tags['maxspeed:backward']) ?? max;
  if (fwdMax) fwdSpeed = Math.min(rules.maxSpeed, fwdMax * rules.maxspeedFactor);
  if (bwdMax) bwdSpeed = Math.min(rules.maxSpeed, bwdMax * rules.maxspeedFactor);
  fwdSpeed = Math.max(1, Math.min(255, Math.round(fwdSpeed)));
  bwdSpeed = Math.max(1, Math.min(255, Math.round(bwdSpeed)));

  const dir = onewayDirection(rules, tags);
  if (dir === 'none') return NONE;
  const preference = (rules.preference[hw!] ?? 1) * ((tags.service && rules.servicePreference[tags.service]) || 1);
  const restricted = access !== undefined && RESTRICTED.has(access);
  return {
    forward: dir === 'backward' ? 0 : fwdSpeed,
    backward: dir === 'forward' ? 0 : bwdSpeed,
    preference,
    restricted,
  };
}

/** The access value that decides for this vehicle: the most specific access key present. */
function accessValue(rules: ProfileRules, tags: Tags): string | undefined {
  for (const k of rules.accessKeys) {
    const v = tags[k];
    if (v !== undefined) return v.split(';')[0]!.trim();
  }
  return undefined;
}

/** 'both' | 'forward' | 'backward' | 'none' (reversible or alternating ways are not routable). */
function onewayDirection(rules: ProfileRules, tags: Tags): 'both' | 'forward' | 'backward' | 'none' {
  for (const k of rules.onewayKeys) {
    const v = tags[k];
    if (v === undefined) continue;
    if (v === 'yes' || v === '1' || v === 'true') return 'forward';
    if (v === '-1' || v === 'reverse') return 'backward';
    if (v === 'reversible' || v === 'alternating') return 'none';
    if (v === 'no' || v === '0' || v === 'false') return 'both';
  }
  const j = tags.junction;
  if (j === 'roundabout' || j === 'circular') return 'forward';
  if (tags.highway === 'motorway') return 'forward';
  return 'both';
}

/** Parses an OSM maxspeed value into km/h ("50", "30 mph", "VN:urban"); undefined when unknown. */
export function parseMaxspeed(v: string | undefined): number | undefined {
  if (!v) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:(mph|km\/h|kmh|kph)\s*)?$/.exec(v);
  if (m) {
    const n = Number(m[1]);
    return n > 0 ? (m[2] === 'mph' ? n * 1.609344 : n) : undefined;
  }
  const zone: Record<string, number> = {
    'VN:urban': 50,
    'VN:rural': 80,
    'VN:motorway': 120,
    'FR:urban': 50,
    'FR:rural': 80,
    'AD:urban': 50,
    'MC:urban': 50,
    'US:urban': 40,
    walk: 5,
    living_street: 10,
  };
  return zone[v.trim()];
}

function exceedsLimits(d: NonNullable<ProfileRules['dimensions']>, tags: Tags): boolean {
  const below = (key: string, value: number) => {
    const lim = parseFloat(tags[key] ?? '');
    return Number.isFinite(lim) && lim > 0 && lim < value;
  };
  return (
    below('maxweight', d.weight) ||
    below('maxheight', d.height) ||
    below('maxlength', d.length) ||
    below('maxwidth', d.width)
  );
}

/** Road class index of a way (0 = other). */
export function roadClassOf(tags: Tags): number {
  const i = (ROAD_CLASSES as readonly string[]).indexOf(tags.highway ?? '');
  return i < 0 ? 0 : i;
}

export const PROFILES = VEHICLES.map((v) => PROFILE_RULES[v]);
