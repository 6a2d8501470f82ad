/** How a request relates to an autocomplete session (billing definitions 2 and 3 of rest-api.md). */
export interface SessionCharge {
  /** Quota units the request costs: 0 inside an open session, else 1. */
  billable: number;
  /** True when the request starts a session (a session costs one unit, charged on its first request). */
  session: boolean;
}

/** Default idle time after which an open session is over, milliseconds (5 minutes). */
export const SESSION_IDLE_MS = 5 * 60_000;
/** Default time a token is remembered after its last request, milliseconds (1 hour). */
const SESSION_REMEMBER_MS = 60 * 60_000;
/** Default number of autocomplete requests one session covers (its first included); later ones bill individually. */
export const SESSION_MAX_REQUESTS = 50;
/** Default longest life of a session from its first request, milliseconds (30 minutes). */
export const SESSION_MAX_AGE_MS = 30 * 60_000;

/** Options of {@link SessionTracker} (and of the usage stores, which keep sessions by the same rules). */
export interface SessionOptions {
  /** A session with no request for this long is over (milliseconds). Default {@link SESSION_IDLE_MS}. */
  idleMs?: number;
  /** Tokens are remembered this long after their last request, so that reuse bills individually (milliseconds). Default {@link SESSION_REMEMBER_MS}. */
  rememberMs?: number;
  /** Autocomplete requests one session covers, its first included. Default {@link SESSION_MAX_REQUESTS}. */
  maxRequests?: number;
  /** A session is over this long after its first request (milliseconds). Default {@link SESSION_MAX_AGE_MS}. */
  maxAgeMs?: number;
}

/** Session options with every default filled in (the memory and Redis stores read the same values). */
export function sessionLimits(opts: SessionOptions = {}): Required<SessionOptions> {
  return {
    idleMs: opts.idleMs ?? SESSION_IDLE_MS,
    rememberMs: opts.rememberMs ?? SESSION_REMEMBER_MS,
    maxRequests: opts.maxRequests ?? SESSION_MAX_REQUESTS,
    maxAgeMs: opts.maxAgeMs ?? SESSION_MAX_AGE_MS,
  };
}

/** The two endpoints that take part in sessions. */
export type SessionEndpoint = 'autocomplete' | 'placeDetail';

interface Session {
  open: boolean;
  /** Time of the last request, ms. */
  last: number;
  /** Time of the first request, ms. */
  started: number;
  /** Autocomplete requests made in the session. */
  calls: number;
}

/**
 * Tracks autocomplete session tokens per key, in memory (the Redis store keeps them by the same rules in Redis:
 * usage-redis-script.ts). A session starts with the first autocomplete request of a
 * new token and costs one unit; further autocomplete requests with the token cost nothing; one place detail request
 * with the token ends it at no cost. A session also ends after `idleMs` without requests, `maxAgeMs` after its first
 * request, and after `maxRequests` autocomplete requests (so one token cannot buy unbounded work for one unit). A
 * token whose session ended bills every later request individually, as a reused token does. Requests without a token bill individually, and so
 * does a place detail whose token never started a session.
 *
 * `charge` only looks; `record` changes the state, so a request refused for quota leaves the session untouched.
 */
export class SessionTracker {
  private readonly sessions = new Map<string, Session>();
  private readonly limits: Required<SessionOptions>;
  private nextSweep = 0;

  constructor(opts: SessionOptions = {}) {
    this.limits = sessionLimits(opts);
  }

  /** What a request of `endpoint` with `token` (or none) by `key` at `nowMs` (ms) costs, without recording it. */
  charge(endpoint: SessionEndpoint, key: string, token: string | undefined, nowMs: number): SessionCharge {
    if (!token) return { billable: 1, session: false };
    const s = this.sessions.get(id(key, token));
    if (!s) return endpoint === 'autocomplete' ? { billable: 1, session: true } : { billable: 1, session: false };
    return { billable: this.isOpen(s, endpoint, nowMs) ? 0 : 1, session: false };
  }

  /** Records the request whose cost `charge` gave. */
  record(endpoint: SessionEndpoint, key: string, token: string | undefined, nowMs: number): void {
    if (!token) return;
    this.sweep(nowMs);
    const k = id(key, token);
    const s = this.sessions.get(k);
    if (!s) this.sessions.set(k, { open: endpoint === 'autocomplete', last: nowMs, started: nowMs, calls: 1 });
    else {
      s.open = endpoint === 'autocomplete' && this.isOpen(s, endpoint, nowMs);
      s.last = nowMs;
      s.calls++;
    }
  }

  /** Whether a request of `endpoint` at `nowMs` is inside the session `s` (a place detail may follow its last request). */
  private isOpen(s: Session, endpoint: SessionEndpoint, nowMs: number): boolean {
    const { idleMs, maxAgeMs, maxRequests } = this.limits;
    return (
      s.open &&
      nowMs - s.last <= idleMs &&
      nowMs - s.started <= maxAgeMs &&
      (endpoint === 'placeDetail' || s.calls < maxRequests)
    );
  }

  /** Forgets tokens unused for `rememberMs`, at most once per minute, so memory stays bounded by recent traffic. */
  private sweep(nowMs: number): void {
    if (nowMs < this.nextSweep) return;
    this.nextSweep = nowMs + 60_000;
    for (const [k, s] of this.sessions) if (nowMs - s.last > this.limits.rememberMs) this.sessions.delete(k);
  }
}

function id(key: string, token: string): string {
  return `${key}\u0000${token}`;
}
