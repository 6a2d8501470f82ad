/** What the transport knows about the client of a request, passed as the handler's second argument. */
export interface ClientInfo {
  /** The peer's IP address as the socket reports it (node:http `req.socket.remoteAddress`). */
  remoteAddress?: string;
  /**
   * The connection the request came over (any object, the same for every request of one connection; node:http gives
   * its socket): it may hold at most `maxHeavyPerConnection` heavy calls.
   */
  connection?: object;
  /** Aborted when the client has gone (its connection closed): its calls are then dropped or abandoned. */
  signal?: AbortSignal;
}

/** True for IPv4 127.0.0.0/8, IPv6 ::1 and IPv4-mapped loopback addresses. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** Who may say `X-Forwarded-Proto: https`: every peer (`true`), nobody (`false`), or the listed proxy addresses. */
export type TrustProxy = boolean | readonly string[];

/**
 * True when the request reached us over HTTPS: the URL is https:, or a trusted proxy in front of us says the client
 * used HTTPS (first value of X-Forwarded-Proto), or plain HTTP is allowed for development and the peer is loopback.
 * The Host header is never trusted for the loopback test: any client can send `Host: localhost`.
 */
export function isSecure(
  url: { protocol: string },
  forwardedProto: string | null,
  client: ClientInfo,
  trustProxy: TrustProxy,
  allowHttp: boolean,
): boolean {
  if (url.protocol === 'https:') return true;
  if (
    trustProxy === true ||
    (Array.isArray(trustProxy) && client.remoteAddress !== undefined && trustProxy.includes(client.remoteAddress))
  ) {
    if (forwardedProto && forwardedProto.split(',')[0]!.trim().toLowerCase() === 'https') return true;
  }
  return allowHttp && isLoopback(client.remoteAddress);
}
