/**
 * The URL of a request as RFC 9112 §3.2–3.3 builds it from the request line and the Host header, for transports
 * that read raw HTTP (`bando serve`). The path and query come from the request-target only: a Host header is checked
 * to be `host[:port]` and never joined to the target unchecked, so `Host: 127.0.0.1/Geocode?…#` cannot replace the
 * path that was asked for.
 */

/** The scheme of the connection a request came on. */
export type ConnectionScheme = 'http' | 'https';

/**
 * True when `host` is `host[:port]` as RFC 9110 §7.2 allows it in a Host header and in a target's authority: a
 * registered name (ASCII letters, digits, `-`, `.`, `_`, `~`), an IPv4 address, or an IPv6 literal in brackets,
 * then optionally `:` and at most five digits (≤ 65535). Nothing else: no `/`, `?`, `#`, `@`, `%`, `\`, white space
 * or control characters. One pass over the text.
 */
export function isValidHost(host: string): boolean {
  const n = host.length;
  let i = 0;
  if (host.charCodeAt(0) === 0x5b /* [ */) {
    const close = host.indexOf(']');
    if (close < 2) return false;
    for (i = 1; i < close; i++) if (!isHexDigit(host.charCodeAt(i)) && host[i] !== ':' && host[i] !== '.') return false;
    i = close + 1;
  } else {
    while (i < n && isNameChar(host.charCodeAt(i))) i++;
    if (i === 0) return false;
  }
  if (i === n) return true;
  if (host[i] !== ':' || n - i - 1 > 5) return false;
  for (let k = i + 1; k < n; k++) if (!isDigit(host.charCodeAt(k))) return false;
  return n - i - 1 === 0 || Number(host.slice(i + 1)) <= 65535;
}

/**
 * The absolute URL of a request (RFC 9112 §3.2, §3.3), or the reason it is a bad request (answer 400).
 * - origin-form `/path?query`: the authority is the Host header, which must be there exactly once (HTTP/1.1; an
 *   HTTP/1.0 request without one gets `localhost`) and be a valid `host[:port]`;
 * - absolute-form `http://authority/path?query`: the authority is the target's (the Host header is ignored, as
 *   §3.2.2 says); no user information; its scheme must be the connection's, so a plain-HTTP request cannot claim
 *   to be HTTPS;
 * - any other form (`*`, `host:port`, a relative path) is refused: this server answers GET on paths only.
 * @param scheme the connection's scheme
 * @param target the request-target as sent on the request line
 * @param hosts every Host header line's value (none, one, or several)
 * @param httpVersion e.g. `1.1` or `1.0`
 */
export function requestUrl(
  scheme: ConnectionScheme,
  target: string,
  hosts: readonly string[],
  httpVersion: string,
): string | { error: string } {
  if (target.startsWith('/')) {
    if (hosts.length > 1) return { error: 'The request has more than one Host header.' };
    if (hosts.length === 0)
      return httpVersion === '1.0' ? `${scheme}://localhost${target}` : { error: 'The request has no Host header.' };
    const host = hosts[0]!.trim();
    if (!isValidHost(host)) return { error: 'The Host header is not a valid host[:port].' };
    return `${scheme}://${host}${target}`;
  }
  const sep = target.indexOf('://');
  const given = sep < 0 ? '' : target.slice(0, sep).toLowerCase();
  if (given !== 'http' && given !== 'https')
    return { error: 'The request-target must be a path (/…) or an absolute http(s) URL.' };
  if (given !== scheme)
    return { error: `The request-target's scheme ${given}: does not match the connection's (${scheme}:).` };
  const start = sep + 3;
  let end = start;
  while (end < target.length && target[end] !== '/' && target[end] !== '?' && target[end] !== '#') end++;
  const authority = target.slice(start, end);
  if (!isValidHost(authority)) return { error: "The request-target's authority is not a valid host[:port]." };
  const rest = target.slice(end);
  return `${scheme}://${authority}${rest.startsWith('/') ? rest : `/${rest}`}`;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHexDigit = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
/** Letters, digits, `-`, `.`, `_`, `~`: the unreserved characters of RFC 3986, all a registered name needs. */
const isNameChar = (c: number): boolean =>
  isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 46 || c === 95 || c === 126;
