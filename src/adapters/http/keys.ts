import { globMatch } from './glob.js';

/** An API key as written in a keys file (`{ "keys": [ ... ] }`) or passed to `createFetchHandler`. */
export interface ApiKey {
  /** The secret sent as `api_key`. */
  key: string;
  /** `rest` keys call the REST endpoints, `tiles` keys load web maps. Default `rest`. */
  kind?: KeyKind;
  /** URL patterns with `*` wildcards matched against the request's Origin or Referer; absent or empty = anywhere. */
  restrictions?: string[];
  /** Billable requests (rest) or map loads (tiles) per calendar month (UTC). Default 30,000 (rest) / 1,000 (tiles). */
  monthlyQuota?: number;
  /** Optional cap on requests per second (sliding one-second window). */
  perSecond?: number;
  /** Free text shown by `bando keys list`. */
  name?: string;
  /** ISO 8601 creation time, set by `bando keys create`. */
  created?: string;
}

/** What a key may be used for. */
export type KeyKind = 'rest' | 'tiles';

/** Default monthly quotas of the Limits section of rest-api.md. */
export const DEFAULT_MONTHLY_QUOTA: Record<KeyKind, number> = { rest: 30_000, tiles: 1_000 };

/**
 * The range of each number of a key, whole numbers [least, most], checked when a keys file or a flag is read. A rate
 * window holds one time per allowed request (8 bytes each), so the rate's ceiling bounds its memory (80 KB a key).
 */
export const KEY_NUMBER_RANGES = {
  monthlyQuota: [0, 1_000_000_000_000],
  perSecond: [1, 10_000],
} as const satisfies Record<string, readonly [number, number]>;

/** Why `value` is not a whole number in the range of the key field `field`, or null when it is. */
export function keyNumberProblem(field: keyof typeof KEY_NUMBER_RANGES, value: unknown): string | null {
  const [least, most] = KEY_NUMBER_RANGES[field];
  return Number.isInteger(value) && (value as number) >= least && (value as number) <= most
    ? null
    : `must be a whole number from ${least} to ${most}`;
}

/** Longest API key accepted, characters (a generated key has 32). */
export const MAX_KEY_LENGTH = 256;

/**
 * What a key's text must be, one rule a row: [test, what the message says]. Any other text is a key, the names of
 * Object.prototype (`__proto__`, `constructor`, …) included: keys and their counts live in prototype-free maps.
 */
const KEY_TEXT_RULES: readonly (readonly [(key: string) => boolean, string])[] = [
  [(k) => k.length >= 1 && k.length <= MAX_KEY_LENGTH, `must be 1 to ${MAX_KEY_LENGTH} characters long`],
  // Whitespace, control, format (zero-width), private-use, unassigned characters and lone surrogates: a key
  // nobody can read back or type, or one that a log line or a URL would change.
  [(k) => !/[\s\p{C}]/u.test(k), 'must not hold spaces, control or invisible characters'],
];

/** Why `key` cannot be an API key's text, or null when it can. */
export function keyTextProblem(key: unknown): string | null {
  if (typeof key !== 'string') return 'must be a string';
  for (const [ok, why] of KEY_TEXT_RULES) if (!ok(key)) return why;
  return null;
}

/**
 * Checks a list of keys read from a file or given by a caller and returns them with defaults filled in.
 * Throws an Error naming the entry and field on a malformed key (a configuration mistake, not a request error).
 */
export function normalizeKeys(keys: readonly ApiKey[]): NormalizedKey[] {
  const seen = new Set<string>();
  return keys.map((k, i) => {
    const where = `keys[${i}]`;
    if (!k || typeof k !== 'object') throw new Error(`${where} must be an object`);
    const problem = keyTextProblem(k.key);
    if (problem) throw new Error(`${where}.key ${problem}`);
    if (seen.has(k.key)) throw new Error(`${where}.key "${k.key}" appears twice`);
    seen.add(k.key);
    const kind = k.kind ?? 'rest';
    if (kind !== 'rest' && kind !== 'tiles') throw new Error(`${where}.kind must be "rest" or "tiles"`);
    const restrictions = k.restrictions ?? [];
    if (!Array.isArray(restrictions) || restrictions.some((r) => typeof r !== 'string' || r.length === 0))
      throw new Error(`${where}.restrictions must be an array of non-empty URL patterns`);
    const monthlyQuota = k.monthlyQuota ?? DEFAULT_MONTHLY_QUOTA[kind];
    const quotaProblem = keyNumberProblem('monthlyQuota', monthlyQuota);
    if (quotaProblem) throw new Error(`${where}.monthlyQuota ${quotaProblem}`);
    const rateProblem = k.perSecond === undefined ? null : keyNumberProblem('perSecond', k.perSecond);
    if (rateProblem) throw new Error(`${where}.perSecond ${rateProblem}`);
    return { ...k, kind, restrictions: restrictions.map(parsePattern), monthlyQuota, label: k.name ?? keyHash(k.key) };
  });
}

/** A key with defaults filled in and its URL restrictions compiled. */
export interface NormalizedKey extends Omit<ApiKey, 'restrictions'> {
  kind: KeyKind;
  restrictions: UrlPattern[];
  monthlyQuota: number;
  /** How logs name the key: its `name`, else {@link keyHash} of it; never any part of the secret. */
  label: string;
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = (1n << 64n) - 1n;

/**
 * A key's stable stand-in in logs: `#` and the 16 hexadecimal digits of the FNV-1a 64-bit hash of its UTF-8 bytes.
 * The same on every server and restart, so log lines of one key can be followed, and no part of the secret (a
 * prefix gave a short key away whole). Computed once per key, when the keys are read.
 */
export function keyHash(key: string): string {
  let h = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(key)) h = ((h ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  return `#${h.toString(16).padStart(16, '0')}`;
}

/** A URL restriction taken apart: scheme, host and path globs, each matched on its own part of a URL. */
export interface UrlPattern {
  source: string;
  /** Scheme globs, lowercase: the pattern's, or `http` and `https` when it names none. */
  schemes: string[];
  /** Host glob (host and port), lowercase; its `*` never spans a `:`. */
  host: string;
  /** Path glob, compared with the path and query; case-sensitive. */
  path: string;
}

/**
 * Reads a restriction such as `https://*.example.com/*`, `*://example.com/app/*`, `*.example.com` or
 * `localhost:*`. Parts are matched separately so that a `*` in the host can never swallow a `/` and let
 * `https://evil.com/x.example.com/` pass for `https://*.example.com/*`. A missing scheme matches http and https;
 * a missing path matches any path. The host part is compared with the URL's host (hostname plus a non-default port),
 * so `localhost` does not allow `localhost:3000` but `localhost:*` does; a pattern that names a port is compared with
 * the port written out, so `localhost:*` also allows `http://localhost/` (port 80). Hosts compare in punycode.
 */
export function parsePattern(source: string): UrlPattern {
  let rest = source.trim();
  let schemes = ['http', 'https'];
  const s = /^([a-z*][a-z0-9+.*-]*):\/\//i.exec(rest);
  if (s) {
    schemes = [s[1]!.toLowerCase()];
    rest = rest.slice(s[0].length);
  }
  const slash = rest.indexOf('/');
  return {
    source,
    schemes,
    host: asciiHostGlob((slash < 0 ? rest : rest.slice(0, slash)).toLowerCase()),
    path: slash < 0 ? '/*' : rest.slice(slash),
  };
}

/**
 * A host glob with its internationalised labels in punycode (`*.bücher.de` → `*.xn--bcher-kva.de`), as browsers
 * send them in Origin and Referer and as `URL` gives them. Labels are converted one by one by the WHATWG URL
 * parser, so wildcards stay as they are; a label that does not convert (one with a `*` among non-ASCII letters) is
 * kept, and can then match nothing.
 */
function asciiHostGlob(glob: string): string {
  const colon = glob.indexOf(':');
  const name = colon < 0 ? glob : glob.slice(0, colon);
  if (/^[\x00-\x7f]*$/.test(name)) return glob;
  const labels = name.split('.').map((label) => {
    if (/^[\x00-\x7f]*$/.test(label) || label.includes('*')) return label;
    try {
      return new URL(`http://${label}/`).hostname;
    } catch {
      return label;
    }
  });
  return labels.join('.') + (colon < 0 ? '' : glob.slice(colon));
}

/** Default port of a scheme, for patterns that name a port (`localhost:*` matches `http://localhost/`). */
const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443', ws: '80', wss: '443' };

/** A host glob against a URL's host: `*` never matches `:`, so the colons of both must pair up. */
function hostMatches(glob: string, host: string): boolean {
  const pieces = glob.split(':');
  const parts = host.split(':');
  return pieces.length === parts.length && pieces.every((p, i) => globMatch(p, parts[i]!));
}

/**
 * True when the URL (an Origin such as `https://app.example.com` or a full Referer) matches one of the patterns.
 * An unparsable URL matches nothing. Linear in the URL's length for each pattern.
 */
export function matchesRestrictions(patterns: readonly UrlPattern[], url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const scheme = u.protocol.slice(0, -1);
  // An Origin has no path; it stands for the site's root.
  const path = (u.pathname || '/') + u.search;
  const host = u.host.toLowerCase();
  // The same host with its port written out, for patterns that name one: the URL drops a scheme's default port.
  const port = u.port || (Object.hasOwn(DEFAULT_PORTS, scheme) ? DEFAULT_PORTS[scheme] : '');
  const hostPort = port ? `${u.hostname.toLowerCase()}:${port}` : host;
  return patterns.some(
    (p) =>
      p.schemes.some((g) => globMatch(g, scheme)) &&
      hostMatches(p.host, p.host.includes(':') ? hostPort : host) &&
      globMatch(p.path, path),
  );
}
