/**
 * Readers of OSM tag values as OSRM's profiles read them (profiles/lib/way_handlers.lua parse_maxspeed,
 * lib/measure.lua, the extractor's parseDuration), so that speeds, limits and ferry durations agree with OSRM on the
 * same data. Each returns undefined where OSRM would ignore the value.
 */

/** Implicit limits (km/h) of maxspeed zone values that differ from ZONE_DEFAULTS, lowercased; 0: no limit implied. */
const ZONES: Record<string, number> = {
  'at:rural': 100,
  'at:trunk': 100,
  'be:motorway': 120,
  'be-bru:rural': 70,
  'be-bru:urban': 30,
  'be-vlg:rural': 70,
  'bg:motorway': 140,
  'by:urban': 60,
  'by:motorway': 110,
  'ca-on:rural': 80,
  'ch:rural': 80,
  'ch:trunk': 100,
  'ch:motorway': 120,
  'cz:trunk': 0,
  'cz:motorway': 0,
  'de:living_street': 7,
  'de:rural': 100,
  'de:motorway': 0,
  'dk:rural': 80,
  'es:trunk': 90,
  'fr:rural': 80,
  'gb:nsl_single': 96.54,
  'gb:nsl_dual': 112.63,
  'gb:motorway': 112.63,
  'nl:rural': 80,
  'nl:trunk': 100,
  'no:rural': 80,
  'no:motorway': 110,
  'ph:urban': 40,
  'ph:rural': 80,
  'ph:motorway': 100,
  'pl:rural': 100,
  'pl:expressway': 120,
  'pl:motorway': 140,
  'ro:trunk': 100,
  'ru:living_street': 20,
  'ru:urban': 60,
  'ru:motorway': 110,
  'uk:nsl_single': 96.54,
  'uk:nsl_dual': 112.63,
  'uk:motorway': 112.63,
  'za:urban': 60,
  'za:rural': 100,
  none: 140,
};
/** Implicit limits (km/h) of a zone value `XX:kind` by its kind, for every country not in ZONES ('VN:urban' 50). */
const ZONE_DEFAULTS: Record<string, number> = { urban: 50, rural: 90, trunk: 110, motorway: 130 };
/** Kilometres per mile as OSRM converts them (lib/measure.lua). */
const KM_PER_MILE = 1.609;

/**
 * A maxspeed value in km/h as OSRM reads it: digits at its very start ("50", "50 km/h", "30 mph" in miles, "50;60"
 * is 50), else a zone ('VN:urban' 50, 'VN:rural' 90, 'none' 140); undefined for anything else ('walk', 'signals',
 * ' 50' with a leading space) and for 0, which OSRM ignores.
 */
export function parseMaxspeed(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const digits = /^\d+/.exec(v);
  let n: number | undefined;
  if (digits) n = Number(digits[0]) * (v.includes('mph') || v.includes('mp/h') ? KM_PER_MILE : 1);
  else {
    const lower = v.toLowerCase();
    n = ZONES[lower] ?? zoneKind(lower);
  }
  return n && n > 0 ? n : undefined;
}

/** ZONE_DEFAULTS of the first "two letters, colon, letters" in a zone value ('ca-on:rural' → rural). */
function zoneKind(v: string): number | undefined {
  const m = /[a-z]{2}:([a-z]+)/.exec(v);
  return m ? ZONE_DEFAULTS[m[1]!] : undefined;
}

/**
 * The digits at the start of a value as a number ("3.5" → 3, "2 m" → 2), as OSRM reads `width` and `lanes` for its
 * penalties; undefined when it does not start with a digit.
 */
export function leadingInteger(v: string | undefined): number | undefined {
  const m = v === undefined ? null : /^\d+/.exec(v);
  return m ? Number(m[0]) : undefined;
}

/**
 * A length in metres (maxheight, maxwidth, width, maxlength) as OSRM reads it: the first number in the value (a
 * decimal comma allowed), in feet and inches when an apostrophe follows ("12'6\""); undefined without a number.
 * `none`, `default`, `no-sign` and `unsigned` (no posted limit) read as 4.5 m when `unposted` is true (heights).
 */
export function parseMetres(v: string | undefined, unposted = false): number | undefined {
  if (v === undefined) return undefined;
  if (unposted && (v === 'default' || v === 'none' || v === 'no-sign' || v === 'unsigned')) return 4.5;
  const t = v.replace(/,/g, '.');
  const m = /\d+\.?\d*/.exec(t);
  if (!m) return undefined;
  let n = Number(m[0]);
  const quote = t.indexOf("'");
  if (quote >= 0) {
    const inches = /\d+/.exec(t.slice(quote));
    n = (n * 12 + (inches ? Number(inches[0]) : 0)) * 0.0254;
  }
  return n;
}

/** A weight in kilograms (maxweight) as OSRM reads it: the first number, in pounds after "lbs", kilograms after "kg", else tonnes. */
export function parseKilograms(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const m = /\d+\.?\d*/.exec(v.replace(/,/g, '.'));
  if (!m) return undefined;
  const n = Number(m[0]);
  return v.includes('lbs') ? n * 0.45359237 : v.includes('kg') ? n : n * 1000;
}

/**
 * An OSM `duration` (ferries) in seconds as OSRM's extractor reads it: "MM", "HH:MM", "HH:MM:SS" (one or two digits
 * each) or ISO 8601 ("PT1H30M", "P1D", "P2W", "PT013000", "PT01:30:00"); undefined when it is none of those.
 */
export function parseDuration(v: string | undefined): number | undefined {
  if (!v) return undefined;
  const clock = /^(\d{1,2})(?::(\d{1,2}))?(?::(\d{1,2}))?$/.exec(v);
  if (clock) {
    const [a, b, c] = [clock[1], clock[2], clock[3]].map((x) => (x === undefined ? undefined : Number(x)));
    if (b === undefined) return a! * 60;
    return a! * 3600 + b * 60 + (c ?? 0);
  }
  const week = /^P(\d+)[Ww]$/.exec(v);
  if (week) return Number(week[1]) * 604800;
  const compact = /^PT(\d{2}):?(\d{2}):?(\d{2})$/.exec(v);
  if (compact) {
    const [h, m, s] = [compact[1], compact[2], compact[3]].map(Number) as [number, number, number];
    return h < 24 && m < 60 && s < 60 ? h * 3600 + m * 60 + s : undefined;
  }
  const iso = /^P(?:(\d+)[Dd])?(?:T(?:(\d+)[Hh])?(?:(\d+)[Mm])?(?:(\d+)[Ss])?)?$/.exec(v);
  if (!iso) return undefined;
  const [d, h, m, s] = [iso[1], iso[2], iso[3], iso[4]].map((x) => Number(x ?? 0)) as [number, number, number, number];
  return d * 86400 + h * 3600 + m * 60 + s;
}
