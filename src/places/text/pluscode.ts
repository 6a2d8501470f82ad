/**
 * Open Location Code ("plus code") encoding, decoding and shortening, written from the public specification.
 * Integer arithmetic is used for the digits so that codes do not depend on floating-point rounding.
 * No Node imports.
 */

const ALPHABET = '23456789CFGHJMPQRVWX';
const SEPARATOR_POSITION = 8;
const PAIR_CODE_LENGTH = 10;
const MAX_DIGITS = 15;
const GRID_ROWS = 5;
const GRID_COLS = 4;
const GRID_DIGITS = MAX_DIGITS - PAIR_CODE_LENGTH;
/** Integer steps per degree at full (15-digit) precision: 8000 × 5^5 and 8000 × 4^5. */
const LAT_STEPS = 8000 * GRID_ROWS ** GRID_DIGITS;
const LNG_STEPS = 8000 * GRID_COLS ** GRID_DIGITS;
/** Cell height/width in degrees of the pair digits, most significant first. */
const PAIR_RESOLUTIONS = [20, 1, 0.05, 0.0025, 0.000125];

/**
 * Encodes a point as a global plus code, e.g. (21.0285, 105.8542) → "7PH7Q3Q2+QX" for the default length 10.
 * Latitude is clipped to [-90, 90] and longitude wrapped into [-180, 180). `length` (digits, not counting "+")
 * is brought to a valid value: at least 2, even below 10, at most 15. Non-finite coordinates give "".
 */
export function encodePlusCode(lat: number, lng: number, length = 10): string {
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) return '';
  let len = Number.isFinite(length) ? Math.round(length) : PAIR_CODE_LENGTH;
  len = Math.min(MAX_DIGITS, Math.max(2, len));
  if (len < PAIR_CODE_LENGTH && len % 2 === 1) len++;

  let latVal = Math.floor(lat * LAT_STEPS) + 90 * LAT_STEPS;
  latVal = Math.min(Math.max(latVal, 0), 180 * LAT_STEPS - 1); // latitude 90 falls in the top cell
  const lngSpan = 360 * LNG_STEPS;
  let lngVal = (Math.floor(lng * LNG_STEPS) + 180 * LNG_STEPS) % lngSpan;
  if (lngVal < 0) lngVal += lngSpan;

  let code = '';
  if (len > PAIR_CODE_LENGTH) {
    for (let i = 0; i < GRID_DIGITS; i++) {
      code = ALPHABET[(latVal % GRID_ROWS) * GRID_COLS + (lngVal % GRID_COLS)]! + code;
      latVal = Math.floor(latVal / GRID_ROWS);
      lngVal = Math.floor(lngVal / GRID_COLS);
    }
  } else {
    latVal = Math.floor(latVal / GRID_ROWS ** GRID_DIGITS);
    lngVal = Math.floor(lngVal / GRID_COLS ** GRID_DIGITS);
  }
  for (let i = 0; i < PAIR_CODE_LENGTH / 2; i++) {
    code = ALPHABET[latVal % 20]! + ALPHABET[lngVal % 20]! + code;
    latVal = Math.floor(latVal / 20);
    lngVal = Math.floor(lngVal / 20);
  }
  const full = code.slice(0, SEPARATOR_POSITION) + '+' + code.slice(SEPARATOR_POSITION);
  if (len >= SEPARATOR_POSITION) return full.slice(0, len + 1);
  return full.slice(0, len) + '0'.repeat(SEPARATOR_POSITION - len) + '+';
}

/** The cell a code names, in degrees; `codeLength` counts digits (padding and "+" excluded). */
export interface PlusCodeArea {
  latLo: number;
  lngLo: number;
  latHi: number;
  lngHi: number;
  latCenter: number;
  lngCenter: number;
  codeLength: number;
}

const D = '[23456789CFGHJMPQRVWX]';
/** Full codes: 8 digits, "+", then none or 2..7 digits; or 2/4/6 digits padded with "0" up to the "+". */
const FULL_CODE = new RegExp(`^(?:${D}{8}\\+(?:${D}{2,7})?|(?:${D}{2}|${D}{4}|${D}{6})0+\\+)$`, 'i');

/**
 * Decodes a full (global) plus code into its cell, or null when the code is not a valid full code.
 * Padded codes ("7PH70000+") are accepted.
 */
export function decodePlusCode(code: string): PlusCodeArea | null {
  if (typeof code !== 'string') return null;
  const c = code.toUpperCase();
  if (!FULL_CODE.test(c) || c.indexOf('+') !== SEPARATOR_POSITION) return null;
  // Valid codes hold "0" only as the padding that runs up to the "+" (the alphabet has no 0).
  const pad = c.indexOf('0');
  const digits = pad < 0 ? c.replace('+', '') : c.slice(0, pad);
  // The first pair must stay on the globe: latitude digit < 9 (180°), longitude digit < 18 (360°).
  if (ALPHABET.indexOf(digits[0]!) >= 9 || ALPHABET.indexOf(digits[1]!) >= 18) return null;
  // Integer steps from the south-west corner at full precision; `latPlace`/`lngPlace` is the current digit's size.
  let latSteps = 0;
  let lngSteps = 0;
  let latPlace = 400 * LAT_STEPS; // the first digit is 20°: one division below
  let lngPlace = 400 * LNG_STEPS;
  const pairs = Math.min(digits.length, PAIR_CODE_LENGTH);
  for (let i = 0; i < pairs; i += 2) {
    latPlace /= 20;
    lngPlace /= 20;
    latSteps += ALPHABET.indexOf(digits[i]!) * latPlace;
    lngSteps += ALPHABET.indexOf(digits[i + 1]!) * lngPlace;
  }
  for (let i = PAIR_CODE_LENGTH; i < digits.length; i++) {
    latPlace /= GRID_ROWS;
    lngPlace /= GRID_COLS;
    const d = ALPHABET.indexOf(digits[i]!);
    latSteps += Math.floor(d / GRID_COLS) * latPlace;
    lngSteps += (d % GRID_COLS) * lngPlace;
  }
  // Subtract the origin in integer steps before dividing, so whole-degree edges stay exact.
  const latLo = (latSteps - 90 * LAT_STEPS) / LAT_STEPS;
  const lngLo = (lngSteps - 180 * LNG_STEPS) / LNG_STEPS;
  const latHi = (latSteps + latPlace - 90 * LAT_STEPS) / LAT_STEPS;
  const lngHi = (lngSteps + lngPlace - 180 * LNG_STEPS) / LNG_STEPS;
  return {
    latLo,
    lngLo,
    latHi,
    lngHi,
    latCenter: Math.min((latLo + latHi) / 2, 90),
    lngCenter: Math.min((lngLo + lngHi) / 2, 180),
    codeLength: digits.length,
  };
}

/**
 * Shortens a full plus code relative to a reference point by dropping 4, 6 or 8 leading digits when the
 * reference is close enough to recover them ("7PH7Q3Q2+QX" near Hoàn Kiếm → "Q3Q2+QX"). The caller builds
 * compound_code by appending a locality ("Q3Q2+QX Hoàn Kiếm, Hà Nội"). A padded, invalid or too-far code is
 * returned unchanged.
 */
export function shortenPlusCode(code: string, refLat: number, refLng: number): string {
  const area = decodePlusCode(code);
  if (!area || area.codeLength < SEPARATOR_POSITION || !Number.isFinite(refLat) || !Number.isFinite(refLng)) {
    return typeof code === 'string' ? code : '';
  }
  const c = code.toUpperCase();
  const lat = Math.min(Math.max(refLat, -90), 90);
  let dLng = Math.abs(area.lngCenter - ((((refLng + 180) % 360) + 360) % 360) + 180);
  if (dLng > 180) dLng = 360 - dLng;
  const range = Math.max(Math.abs(area.latCenter - lat), dLng);
  // Keep a safety margin of 30% of the dropped cell size, as the specification does.
  for (let i = PAIR_RESOLUTIONS.length - 2; i >= 1; i--) {
    if (range < PAIR_RESOLUTIONS[i]! * 0.3) return c.slice((i + 1) * 2);
  }
  return c;
}
