/**
 * Checkpoints of long engine computations (issue 39 item 3): a place between two steps of a loop (a kick of the trip
 * search, a leg, a map layer) where the computation may stop because nobody waits for its answer any more.
 *
 * The engine is synchronous, and a thread runs one engine call at a time (the server's worker threads do; see
 * thread-protocol.ts), so "the call running now" is a per-thread fact: whoever starts a call may install a test
 * with {@link setAbandonTest} and remove it when the call ends. With no test installed (the default, and in a
 * browser) a checkpoint costs one comparison. Checkpoints sit only where stopping leaves no shared state half
 * changed (the router's searches run whole between them).
 */

/** Thrown at a checkpoint of an abandoned call (the engine's own error boundaries may turn it into an error body: whoever abandoned the call reads its flag, not the answer). */
class CallAbandoned extends Error {
  constructor() {
    super('the call was abandoned: its client has gone');
    this.name = 'CallAbandoned';
  }
}

let abandoned: (() => boolean) | null = null;

/**
 * Installs (or, with null, removes) the test of this thread's running call: true once nobody waits for its answer.
 * Called very often (once per checkpoint): it must cost no more than a load (e.g. `Atomics.load` of a shared flag).
 */
export function setAbandonTest(test: (() => boolean) | null): void {
  abandoned = test;
}

/** Throws {@link CallAbandoned} when the running call is abandoned (see {@link setAbandonTest}); else returns. */
export function checkpoint(): void {
  if (abandoned !== null && abandoned()) throw new CallAbandoned();
}
