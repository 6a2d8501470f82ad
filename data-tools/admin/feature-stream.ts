/**
 * The features of a GeoJSON FeatureCollection one at a time, from its bytes: each feature is parsed on its own and can
 * be dropped before the next, so a large file (the country's ward polygons: 52 MB of JSON) never becomes one object
 * tree (hundreds of MB of arrays). Members other than `features` are skipped unread.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * Calls `each` with every element of the top-level object's `features` array, parsed, in file order.
 * @param bytes the file's UTF-8 bytes
 * @param file the file's name, for the error
 * @throws Error naming the file when the bytes are not a JSON object with a `features` array, or a feature is not
 *   valid JSON
 */
export function forEachFeature(bytes: Uint8Array, file: string, each: (feature: unknown) => void): void {
  const text = (from: number, to: number) => Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString();
  const fail = (): never => {
    throw new Error(`${file}: not a GeoJSON FeatureCollection`);
  };
  let found = false;
  let i = skipSpace(bytes, 0);
  if (bytes[i] !== OPEN_OBJECT) fail();
  i = skipSpace(bytes, i + 1);
  while (bytes[i] !== CLOSE_OBJECT) {
    if (bytes[i] !== QUOTE) fail();
    const keyEnd = endOfString(bytes, i, fail);
    const key: unknown = JSON.parse(text(i, keyEnd));
    i = skipSpace(bytes, keyEnd);
    if (bytes[i] !== COLON) fail();
    i = skipSpace(bytes, i + 1);
    if (key === 'features' && bytes[i] === OPEN_ARRAY) {
      found = true;
      i = skipSpace(bytes, i + 1);
      while (bytes[i] !== CLOSE_ARRAY) {
        const end = endOfValue(bytes, i, fail);
        each(parseFeature(text(i, end), file));
        i = skipSpace(bytes, end);
        if (bytes[i] === COMMA) i = skipSpace(bytes, i + 1);
        else if (bytes[i] !== CLOSE_ARRAY) fail();
      }
      i++;
    } else {
      i = endOfValue(bytes, i, fail);
    }
    i = skipSpace(bytes, i);
    if (bytes[i] === COMMA) i = skipSpace(bytes, i + 1);
    else if (bytes[i] !== CLOSE_OBJECT) fail();
  }
  if (!found || skipSpace(bytes, i + 1) !== bytes.length) fail();
}

/** One feature's JSON, parsed; a syntax error names the file. */
function parseFeature(json: string, file: string): unknown {
  try {
    return JSON.parse(json);
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`);
  }
}

/** The first position at or after `i` that is not JSON white space. */
function skipSpace(b: Uint8Array, i: number): number {
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
  return i;
}

/** The position just after the string that opens at `i` (a quote). */
function endOfString(b: Uint8Array, i: number, fail: () => never): number {
  for (i++; i < b.length; i++) {
    if (b[i] === BACKSLASH) i++;
    else if (b[i] === QUOTE) return i + 1;
  }
  return fail();
}

/** The position just after the value that starts at `i`: a string, an object or array (nested), or a literal. */
function endOfValue(b: Uint8Array, i: number, fail: () => never): number {
  if (i >= b.length) return fail();
  if (b[i] === QUOTE) return endOfString(b, i, fail);
  if (b[i] !== OPEN_OBJECT && b[i] !== OPEN_ARRAY) {
    while (i < b.length && b[i] !== COMMA && b[i] !== CLOSE_OBJECT && b[i] !== CLOSE_ARRAY && skipSpace(b, i) === i)
      i++;
    return i;
  }
  let depth = 0;
  while (i < b.length) {
    // One table look-up for the bytes that change nothing (digits, commas: nearly all of a polygon's bytes).
    const k = NESTING[b[i]!]!;
    if (k === 0) i++;
    else if (k === IN_STRING) i = endOfString(b, i, fail);
    else if ((depth += k) === 0) return i + 1;
    else i++;
  }
  return fail();
}

/** The start of a string in NESTING. */
const IN_STRING = 2;

/** What each byte does to the nesting depth outside strings: +1 opens, -1 closes, IN_STRING starts a string. */
const NESTING = (() => {
  const t = new Int8Array(256);
  t[OPEN_OBJECT] = t[OPEN_ARRAY] = 1;
  t[CLOSE_OBJECT] = t[CLOSE_ARRAY] = -1;
  t[QUOTE] = IN_STRING;
  return t;
})();
