import type { Tags } from './osm/types.js';
import { leadingInteger, parseDuration, parseKilograms, parseMaxspeed, parseMetres } from './tag-values.js';
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
  /**
   * Follows OSRM's car.lua beyond the tables below: `private`, `delivery` and `customers` roads open for local
   * access on RESTRICTED_CLASSES (a private service road is no start point: WayUse.start), other classes
   * at `otherClasses` where access tags open them, surface speeds, the 'routability' penalties (carPenalty),
   * alternating one-ways, `area=yes` closed, and the car's barriers (nodeClosed).
   */
  car: boolean;
  /** Access keys, most specific first; the first one present decides (`key:forward`/`:backward` first in that direction). */
  accessKeys: string[];
  /** Access values that close a way. */
  refused: ReadonlySet<string>;
  /** Access values that leave a way open for local access only (searches penalise entering it). */
  restricted: ReadonlySet<string>;
  /** Oneway keys, most specific first. */
  onewayKeys: string[];
  /** Default speed per highway class in km/h; a class not listed is not routable for the vehicle. */
  speeds: Partial<Record<string, number>>;
  /** Classes usable only when an access key explicitly allows the vehicle (e.g. footways for motorbikes). */
  explicitOnly: Partial<Record<string, number>>;
  /** Speed (km/h) on any other class whose access tags name a value not refused (OSRM car.lua `default_speed`). */
  otherClasses?: number;
  /** Factor applied to a tagged maxspeed. */
  maxspeedFactor: number;
  /** Highest speed the vehicle drives, km/h. */
  maxSpeed: number;
  /** Routing preference (0..1] per class; weight = duration / preference. Missing = 1. */
  preference: Partial<Record<string, number>>;
  /** `service=*` values refused; `service=*` values with their preference. */
  serviceRefused: string[];
  servicePreference: Partial<Record<string, number>>;
  /** Limits on a way (height, width, length, weight) that close it to the vehicle (limitsOf). */
  limits?: Limit[];
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

/**
 * OSRM car.lua `access_tag_blacklist`: access values that close a way to a car, except the RESTRICTED ones on
 * RESTRICTED_CLASSES, which it may drive for local access only.
 */
const CAR_REFUSED = new Set([
  'no',
  'agricultural',
  'forestry',
  'emergency',
  'psv',
  'customers',
  'private',
  'delivery',
  'destination',
]);
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
 * Access values of roads meant for local access only (OSRM car.lua `restricted_access_tag_list`): a car may drive
 * them (searches penalise entering them, see ArcCosts.turnWeight) on RESTRICTED_CLASSES; the other profiles only
 * `destination` roads.
 */
const RESTRICTED = new Set(['private', 'delivery', 'destination', 'customers']);
/**
 * Classes on which OSRM's car drives RESTRICTED roads (car.lua `restricted_highway_whitelist`): motorway to service
 * in the pack's class order; elsewhere they are closed.
 */
const RESTRICTED_CLASSES = new Set<string>(
  ROAD_CLASSES.slice(ROAD_CLASSES.indexOf('motorway'), ROAD_CLASSES.indexOf('service') + 1),
);
/** `construction=*` values of a road that is open (car.lua `construction_whitelist`). */
const OPEN_CONSTRUCTION = new Set(['no', 'widening', 'minor']);
/** Speed of a ferry without a `duration`, km/h (car.lua `route_speeds`). */
const FERRY_KMH = 5;

/** What OSRM's car profile drives (car.lua): its access rules, classes, speeds and size (2 m high, 1.9 m wide, 4.8 m long, 2 t). */
const CAR: Omit<ProfileRules, 'vehicle'> = {
  car: true,
  accessKeys: CAR_ACCESS,
  refused: CAR_REFUSED,
  restricted: RESTRICTED,
  onewayKeys: ['oneway:motorcar', 'oneway:motor_vehicle', 'oneway:vehicle', 'oneway'],
  speeds: CAR_SPEEDS,
  explicitOnly: {},
  otherClasses: 10,
  maxspeedFactor: 0.8,
  maxSpeed: 130,
  preference: {},
  serviceRefused: ['emergency_access'],
  servicePreference: CAR_SERVICE,
  limits: limitsOf({ weight: 2, height: 2, length: 4.8, width: 1.9 }, true),
};
/** The other profiles' access rules: `destination` roads open for local access only. */
const PLAIN_ACCESS = { car: false, refused: REFUSED, restricted: new Set(['destination']) };

export const PROFILE_RULES: Record<Vehicle, ProfileRules> = {
  car: { vehicle: 'car', ...CAR },
  bike: {
    vehicle: 'bike',
    ...PLAIN_ACCESS,
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
    ...CAR,
    accessKeys: ['taxi', 'psv', ...CAR_ACCESS],
    onewayKeys: ['oneway:taxi', 'oneway:psv', ...CAR.onewayKeys],
    explicitOnly: { busway: 30 },
  },
  truck: {
    vehicle: 'truck',
    ...PLAIN_ACCESS,
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
    limits: limitsOf({ weight: 10, height: 3.4, length: 10, width: 2.5 }, false),
  },
  hd: { vehicle: 'hd', ...CAR },
};

/**
 * What one way allows one vehicle: speeds per direction (km/h, 0 = not allowed), routing preference, whether
 * the access value that decides for the vehicle restricts it to local access (RESTRICTED), whether a route may start
 * or end on it, and for a ferry with a `duration` its seconds (the builder turns them into each edge's speed).
 */
export interface WayUse {
  forward: number;
  backward: number;
  preference: number;
  restricted: boolean;
  /**
   * False where OSRM's `is_startpoint` is (way_handlers.lua startpoint): a ferry, and for a car a service road whose
   * forward access is `private`; a point is then snapped to another road, though routes may pass here.
   */
  start: boolean;
  duration?: number;
}

const NONE: WayUse = { forward: 0, backward: 0, preference: 1, restricted: false, start: true };

/** Applies a profile to a way's tags. */
export function wayUse(rules: ProfileRules, tags: Tags): WayUse {
  const hw = tags.highway;
  const isFerry = tags.route === 'ferry';
  if (!hw && !isFerry) return NONE;
  if (tags.area === 'yes' && (rules.car || hw !== 'pedestrian')) return NONE;
  if (closedWay(tags)) return NONE;
  if (tags.service && rules.serviceRefused.includes(tags.service)) return NONE;
  const fwd = directionUse(rules, tags, 'forward');
  const bwd = directionUse(rules, tags, 'backward');
  if (!fwd.speed && !bwd.speed) return NONE;

  const dir = onewayDirection(rules, tags);
  if (dir === 'none') return NONE;
  const forward = dir === 'backward' ? 0 : fwd.speed;
  const backward = dir === 'forward' ? 0 : bwd.speed;
  if (!forward && !backward) return NONE;
  const service = (tags.service && rules.servicePreference[tags.service]) || 1;
  const preference =
    (rules.preference[hw!] ?? 1) * (rules.car ? carPenalty(tags, service, forward > 0 && backward > 0) : service);
  const duration = isFerry ? parseDuration(tags.duration) : undefined;
  return {
    forward,
    backward,
    preference,
    restricted: (forward > 0 && fwd.restricted) || (backward > 0 && bwd.restricted),
    start: !isFerry && !(rules.car && hw === 'service' && accessValue(rules, tags, 'forward') === 'private'),
    ...(duration === undefined ? {} : { duration: Math.max(1, duration) }),
  };
}

/**
 * Tags that close a way to every vehicle (OSRM way_handlers.lua `blocked_ways` and the `avoid` classes): works
 * (`highway=construction`, `railway=construction`, `construction=*` but no/widening/minor), a proposed road, an
 * impassable road, steps.
 */
function closedWay(tags: Tags): boolean {
  const hw = tags.highway;
  return (
    hw === 'construction' ||
    hw === 'proposed' ||
    hw === 'steps' ||
    tags.railway === 'construction' ||
    (tags.construction !== undefined && !OPEN_CONSTRUCTION.has(tags.construction)) ||
    tags.impassable === 'yes' ||
    tags.status === 'impassable'
  );
}

/**
 * Speed (km/h, 0 = closed) of one direction of a way and whether it is open for local access only: the class speed
 * (a ferry's FERRY_KMH; for a car, OSRM's default speed on other classes its access tags open), the tagged maxspeed
 * × maxspeedFactor instead when there is one, for cars at most what the surface allows, within the vehicle's
 * dimensions.
 */
function directionUse(
  rules: ProfileRules,
  tags: Tags,
  dir: 'forward' | 'backward',
): { speed: number; restricted: boolean } {
  const closed = { speed: 0, restricted: false };
  const hw = tags.highway;
  const access = accessValue(rules, tags, dir);
  let restricted = false;
  if (access !== undefined && rules.restricted.has(access)) {
    const onClass = !rules.car || (hw !== undefined && RESTRICTED_CLASSES.has(hw));
    if (!onClass) return closed;
    restricted = true;
  } else if (access !== undefined && rules.refused.has(access)) return closed;
  let speed = tags.route === 'ferry' ? FERRY_KMH : rules.speeds[hw!];
  if (speed === undefined) {
    const explicit = rules.explicitOnly[hw!];
    // Refused values closed the way above: for OSRM's car any other value opens other classes.
    if (explicit !== undefined && access !== undefined && ALLOWED.has(access)) speed = explicit;
    else if (rules.otherClasses !== undefined && access !== undefined) speed = rules.otherClasses;
    else return closed;
  }
  if (rules.limits && exceedsLimits(rules.limits, tags, dir)) return closed;
  const max = maxspeedOf(tags, dir);
  if (max) speed = Math.min(rules.maxSpeed, max * rules.maxspeedFactor);
  if (rules.car) speed = Math.min(speed, surfaceSpeed(tags));
  if (!(speed > 0)) return closed;
  return { speed: Math.max(1, Math.min(255, Math.round(speed))), restricted };
}

/**
 * The value of `key:forward` (or `:backward`), else of `key`, for the first of `keys` that has either in that
 * direction (OSRM lib/tags.lua get_forward_backward_by_set).
 */
function directional(tags: Tags, keys: readonly string[], dir: 'forward' | 'backward'): string | undefined {
  for (const k of keys) {
    const v = tags[`${k}:${dir}`] ?? tags[k];
    if (v !== undefined) return v;
  }
  return undefined;
}

/** The access value that decides for this vehicle in one direction: the most specific access key present. */
function accessValue(rules: ProfileRules, tags: Tags, dir: 'forward' | 'backward'): string | undefined {
  return directional(tags, rules.accessKeys, dir)?.split(';')[0]!.trim();
}

/** The keys a speed limit is read from, in OSRM's order (way_handlers.lua `maxspeed`). */
const MAXSPEED_KEYS = ['maxspeed:advisory', 'maxspeed', 'source:maxspeed', 'maxspeed:type'];

/** The speed limit of one direction in km/h (the first of MAXSPEED_KEYS present decides), undefined when none. */
function maxspeedOf(tags: Tags, dir: 'forward' | 'backward'): number | undefined {
  return parseMaxspeed(directional(tags, MAXSPEED_KEYS, dir));
}

/** Highest speed (km/h) a car drives on a way's surface, tracktype and smoothness (car.lua); Infinity when unlimited. */
function surfaceSpeed(tags: Tags): number {
  return Math.min(
    SURFACE_KMH[tags.surface ?? ''] ?? Infinity,
    TRACKTYPE_KMH[tags.tracktype ?? ''] ?? Infinity,
    SMOOTHNESS_KMH[tags.smoothness ?? ''] ?? Infinity,
  );
}

const SURFACE_KMH: Record<string, number> = {
  cement: 80,
  compacted: 80,
  fine_gravel: 80,
  paving_stones: 60,
  metal: 60,
  bricks: 60,
  grass: 40,
  wood: 40,
  sett: 40,
  grass_paver: 40,
  gravel: 40,
  unpaved: 40,
  ground: 40,
  dirt: 40,
  pebblestone: 40,
  tartan: 40,
  cobblestone: 30,
  clay: 30,
  earth: 20,
  stone: 20,
  rocky: 20,
  sand: 20,
  mud: 10,
};
const TRACKTYPE_KMH: Record<string, number> = { grade1: 60, grade2: 40, grade3: 30, grade4: 25, grade5: 20 };
const SMOOTHNESS_KMH: Record<string, number> = {
  intermediate: 80,
  bad: 40,
  very_bad: 20,
  horrible: 10,
  very_horrible: 5,
  impassable: 0,
};

/**
 * A car's routing preference on a way (OSRM way_handlers.lua `penalties`, the 'routability' weight): the lowest of
 * the service road's preference, 0.5 on a way 3 m wide or less (the width's leading digits) or on a two-way road of
 * one lane or none, 0.4 on an alternating one-way, 0.8 on a side road.
 */
function carPenalty(tags: Tags, service: number, twoWay: boolean): number {
  const width = leadingInteger(tags.width);
  const lanes = leadingInteger(tags.lanes);
  const narrow = (width !== undefined && width <= 3) || (lanes !== undefined && lanes <= 1 && twoWay);
  const side = tags.side_road === 'yes' || tags.side_road === 'rotary';
  return Math.min(service, narrow ? 0.5 : 1, tags.oneway === 'alternating' ? 0.4 : 1, side ? 0.8 : 1);
}

/**
 * 'both' | 'forward' | 'backward' | 'none': the first of the profile's oneway keys with a known value decides
 * (reversible ways are not routable; alternating ones are two-way for a car, as OSRM drives them, and closed to the
 * others), else roundabouts and motorways are one-way.
 */
function onewayDirection(rules: ProfileRules, tags: Tags): 'both' | 'forward' | 'backward' | 'none' {
  for (const k of rules.onewayKeys) {
    const v = tags[k];
    if (v === undefined) continue;
    if (v === 'yes' || v === '1' || v === 'true') return 'forward';
    if (v === '-1' || v === 'reverse') return 'backward';
    if (v === 'reversible' || (v === 'alternating' && !rules.car)) return 'none';
    if (v === 'no' || v === '0' || v === 'false' || v === 'alternating') return 'both';
  }
  const j = tags.junction;
  if (j === 'roundabout' || j === 'circular') return 'forward';
  if (tags.highway === 'motorway') return 'forward';
  return 'both';
}

/** One limit on a way: the keys read in order, the vehicle's size, and whether a limit equal to it closes the way. */
interface Limit {
  keys: readonly string[];
  size: number;
  parse: (v: string) => number | undefined;
  closesAtEqual: boolean;
}

/**
 * The limits a vehicle's dimensions are checked against (OSRM way_handlers.lua handle_height, handle_width,
 * handle_length, handle_weight for the car; the truck reads the plain limit keys).
 */
function limitsOf(d: { weight: number; height: number; length: number; width: number }, car: boolean): Limit[] {
  const height = (v: string) => parseMetres(v, true);
  return [
    {
      keys: car ? ['maxheight:physical', 'maxheight'] : ['maxheight'],
      size: d.height,
      parse: height,
      closesAtEqual: false,
    },
    {
      keys: car ? ['maxwidth:physical', 'maxwidth', 'width', 'est_width'] : ['maxwidth'],
      size: d.width,
      parse: (v) => parseMetres(v),
      closesAtEqual: car,
    },
    { keys: ['maxlength'], size: d.length, parse: (v) => parseMetres(v), closesAtEqual: false },
    { keys: ['maxweight'], size: d.weight * 1000, parse: parseKilograms, closesAtEqual: false },
  ];
}

/** True when one of `limits` closes the way in that direction. */
function exceedsLimits(limits: Limit[], tags: Tags, dir: 'forward' | 'backward'): boolean {
  return limits.some((l) => {
    const v = directional(tags, l.keys, dir);
    const lim = v === undefined ? undefined : l.parse(v);
    return lim !== undefined && lim > 0 && (lim < l.size || (l.closesAtEqual && lim === l.size));
  });
}

/** Barriers a car passes (car.lua `barrier_whitelist`). */
const BARRIER_CAR_PASSABLE = new Set([
  'cattle_grid',
  'border_control',
  'toll_booth',
  'sally_port',
  'gate',
  'lift_gate',
  'no',
  'entrance',
  'height_restrictor',
  'arch',
]);
/** Barriers the other profiles pass: the car's and checkpoints. */
const BARRIER_PASSABLE = new Set([...BARRIER_CAR_PASSABLE, 'checkpoint']);
/** Barriers a motorbike passes besides BARRIER_PASSABLE. */
const BARRIER_BIKE_PASSABLE = new Set(['bollard', 'cycle_barrier', 'motorcycle_barrier', 'swing_gate', 'kerb']);

/**
 * True when the vehicle may not pass a node with these tags. A car as OSRM's car.lua `process_node`: a node with an
 * access value for it (even without a barrier) is closed when the value is refused and not one of local access;
 * without one, a barrier is closed unless passable (BARRIER_CAR_PASSABLE, a rising bollard, a lowered or flush kerb,
 * a kerb tagged as a crossing), and a height restrictor lower than 2 m is closed. The other profiles: a barrier not
 * passable for them is closed unless their access value is yes, permissive, designated or destination.
 */
export function nodeClosed(rules: ProfileRules, tags: Tags): boolean {
  const barrier = tags.barrier;
  const access = rules.accessKeys.map((k) => tags[k]).find((v) => v !== undefined);
  if (rules.car) {
    if (access !== undefined) return rules.refused.has(access) && !rules.restricted.has(access);
    if (barrier === undefined) return false;
    const low = barrier === 'height_restrictor' && (parseMetres(tags.maxheight, true) ?? Infinity) < 2;
    const passable =
      BARRIER_CAR_PASSABLE.has(barrier) ||
      tags.bollard === 'rising' ||
      tags.kerb === 'lowered' ||
      tags.kerb === 'flush' ||
      (barrier === 'kerb' && tags.highway === 'crossing');
    return low || !passable;
  }
  if (barrier === undefined || BARRIER_PASSABLE.has(barrier)) return false;
  if (rules.vehicle === 'bike' && BARRIER_BIKE_PASSABLE.has(barrier)) return false;
  return !(access === 'yes' || access === 'permissive' || access === 'designated' || access === 'destination');
}

/** Road class index of a way (0 = other). */
export function roadClassOf(tags: Tags): number {
  const i = (ROAD_CLASSES as readonly string[]).indexOf(tags.highway ?? '');
  return i < 0 ? 0 : i;
}

export const PROFILES = VEHICLES.map((v) => PROFILE_RULES[v]);
