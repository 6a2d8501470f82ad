import { expect } from 'vitest';

/** Waits until `done()` holds, polling every 10 ms, for at most 60 s (then the test fails). */
export async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 6000 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(done()).toBe(true);
}
