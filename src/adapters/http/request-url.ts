/**
 * The parts of a request URL the REST surface reads: scheme, path and query pairs. Ordinary endpoint URLs are taken
 * apart by hand, which costs far less per request than `new URL` plus `URLSearchParams`; anything unusual goes
 * through `new URL`, so the answer is always the one the WHATWG parser gives.
 */
export interface RequestUrl {
  /** `http:` or `https:`. */
  protocol: string;
  /** Path as `URL.pathname` gives it. */
  pathname: string;
  /** Query parameters in order, decoded as `URLSearchParams` decodes them. */
  pairs: [string, string][];
  /** The full `URL` (parsed on first use). */
  url(): URL;
}

/** Hosts already checked with the WHATWG parser: host header → valid. Bounded: clients choose the Host header. */
const HOSTS = new Map<string, boolean>();
const MAX_HOSTS = 256;

/** Host header characters with which `http://<host>/` and the full URL put the same host (no `@ ? # \\ %`). */
const PLAIN_HOST = /^[A-Za-z0-9.\-:[\]]+$/;
/** Path characters that `URL` leaves as they are and that never form dot segments. */
const PLAIN_PATH = /^\/[A-Za-z/]*$/;
/** Query characters that `URL` keeps and `URLSearchParams` splits and decodes exactly as {@link decode} does. */
const PLAIN_QUERY = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*$/;

/** Parses an absolute request URL; null when the WHATWG parser rejects it (malformed Host header). */
export function parseRequestUrl(href: string): RequestUrl | null {
  const fast = plain(href);
  if (fast) return fast;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  return { protocol: url.protocol, pathname: url.pathname, pairs: [...url.searchParams], url: () => url };
}

/** The hand-made parse of `http(s)://host/path?query`, or null when the URL is not of that plain form. */
function plain(href: string): RequestUrl | null {
  const start = href.startsWith('http://') ? 7 : href.startsWith('https://') ? 8 : -1;
  if (start < 0) return null;
  const slash = href.indexOf('/', start);
  if (slash < 0) return null;
  const host = href.slice(start, slash);
  if (!PLAIN_HOST.test(host) || !hostOk(host)) return null;
  const q = href.indexOf('?', slash);
  const pathname = q < 0 ? href.slice(slash) : href.slice(slash, q);
  if (!PLAIN_PATH.test(pathname)) return null;
  const query = q < 0 ? '' : href.slice(q + 1);
  if (!PLAIN_QUERY.test(query)) return null;
  const pairs: [string, string][] = [];
  if (query !== '') {
    for (const part of query.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const name = decode(eq < 0 ? part : part.slice(0, eq));
      const value = decode(eq < 0 ? '' : part.slice(eq + 1));
      if (name === null || value === null) return null;
      pairs.push([name, value]);
    }
  }
  let parsed: URL | undefined;
  return { protocol: start === 7 ? 'http:' : 'https:', pathname, pairs, url: () => (parsed ??= new URL(href)) };
}

/**
 * `application/x-www-form-urlencoded` decoding of one name or value: `+` is a space, `%XX` a byte, bytes UTF-8.
 * Null when a percent sequence is malformed or the bytes are not UTF-8 (URLSearchParams keeps or replaces those;
 * the caller then lets it decide).
 */
function decode(s: string): string | null {
  const spaced = s.includes('+') ? s.replace(/\+/g, ' ') : s;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}

/** True when `new URL` accepts `http://<host>/` (cached per host string). */
function hostOk(host: string): boolean {
  const known = HOSTS.get(host);
  if (known !== undefined) return known;
  let ok = true;
  try {
    new URL(`http://${host}/`);
  } catch {
    ok = false;
  }
  if (HOSTS.size < MAX_HOSTS) HOSTS.set(host, ok);
  return ok;
}

/** The first value of the named query parameter, or null (as `URLSearchParams.get`). */
export function firstParam(pairs: readonly [string, string][], name: string): string | null {
  for (const [n, v] of pairs) if (n === name) return v;
  return null;
}
