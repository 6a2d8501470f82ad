/**
 * Request and session counting for the place endpoints, following the billing definitions of rest-api.md:
 * - an autocomplete session starts with the first autocomplete request carrying a new `sessiontoken`; the
 *   following autocomplete requests with the same token belong to it, and it ends with at most one place detail
 *   request carrying the token: the whole session counts as ONE billable unit;
 * - a request without a token bills individually, and so does every request that reuses the token of a session
 *   that already ended with its place detail, and a place detail whose token started no session;
 * - an open session forgotten for SESSION_IDLE_MS (no detail followed) has ended; its token then starts a new one;
 * - geocode requests bill one each.
 * Only answered requests count (OK or NOT_FOUND), not BAD_REQUEST. The counter is per engine; a REST layer that
 * bills per API key reads `snapshot()` before and after a call (calls are synchronous) and adds the difference.
 */

/** Counts since the engine was created. */
export interface PlacesUsage {
  /** Geocode requests (forward, reverse, by place_id), each billable. */
  geocode: number;
  autocomplete: number;
  placeDetail: number;
  /** Autocomplete sessions started (each billable once). */
  sessions: number;
  /** Sessions that ended with a place detail. */
  sessionsCompleted: number;
  /** Autocomplete and place detail requests billed one by one (no token, reused token, detail without session). */
  individual: number;
  /** geocode + sessions + individual. */
  billable: number;
}

/** An open session expires after this much idle time, milliseconds. */
export const SESSION_IDLE_MS = 10 * 60_000;
/** At most this many tokens are remembered; the least recently used are forgotten first. */
const MAX_TRACKED_TOKENS = 100_000;

/** The counter of one engine. `now` is injectable for tests (milliseconds). */
export class UsageCounter {
  private counts: Omit<PlacesUsage, 'billable'> = { geocode: 0, autocomplete: 0, placeDetail: 0, sessions: 0, sessionsCompleted: 0, individual: 0 };
  /** token → state; Map order is least recently used first. */
  private tokens = new Map<string, { ended: boolean; at: number }>();

  constructor(private now: () => number = Date.now) {}

  /** A copy of the counts. */
  snapshot(): PlacesUsage {
    const c = this.counts;
    return { ...c, billable: c.geocode + c.sessions + c.individual };
  }

  geocode(): void {
    this.counts.geocode++;
  }

  /** An answered autocomplete request, with its session token if any. */
  autocomplete(token: string | undefined): void {
    this.counts.autocomplete++;
    if (token === undefined) {
      this.counts.individual++;
      return;
    }
    const s = this.touch(token);
    if (!s) {
      this.counts.sessions++;
      this.remember(token, false);
    } else if (s.ended) {
      this.counts.individual++;
    }
  }

  /** An answered place detail request, with its session token if any. */
  placeDetail(token: string | undefined): void {
    this.counts.placeDetail++;
    const s = token === undefined ? undefined : this.touch(token);
    if (s && !s.ended) {
      s.ended = true;
      this.counts.sessionsCompleted++;
    } else {
      this.counts.individual++;
      if (token !== undefined && !s) this.remember(token, true);
    }
  }

  /** The live state of a token (refreshing its recency), or undefined when unknown or expired unended. */
  private touch(token: string): { ended: boolean; at: number } | undefined {
    const s = this.tokens.get(token);
    if (!s) return undefined;
    const t = this.now();
    if (!s.ended && t - s.at > SESSION_IDLE_MS) {
      this.tokens.delete(token);
      return undefined;
    }
    this.tokens.delete(token);
    s.at = t;
    this.tokens.set(token, s);
    return s;
  }

  private remember(token: string, ended: boolean): void {
    this.tokens.set(token, { ended, at: this.now() });
    if (this.tokens.size > MAX_TRACKED_TOKENS) this.tokens.delete(this.tokens.keys().next().value!);
  }
}
