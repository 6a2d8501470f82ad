/**
 * Per-key request rate over a sliding one-second window. For a key allowed `n` requests per second it keeps the
 * times of the last `n` accepted requests in a ring; a request is accepted when the oldest of them is at least
 * 1000 ms old. Memory is O(n) per key and each check is O(1).
 */
export class RateLimiter {
  private readonly rings = new Map<string, { times: Float64Array; next: number }>();

  /**
   * Records a request of `key` at time `nowMs` (milliseconds) when it fits under `perSecond`; returns false (and
   * records nothing) when the key already made `perSecond` requests in the preceding 1000 ms.
   */
  take(key: string, perSecond: number, nowMs: number): boolean {
    let ring = this.rings.get(key);
    if (!ring || ring.times.length !== perSecond) {
      ring = { times: new Float64Array(perSecond).fill(-Infinity), next: 0 };
      this.rings.set(key, ring);
    }
    // ring.next is the oldest of the last perSecond accepted times.
    if (nowMs - ring.times[ring.next]! < 1000) return false;
    ring.times[ring.next] = nowMs;
    ring.next = (ring.next + 1) % perSecond;
    return true;
  }
}
