/**
 * Vitest global setup: builds dist/ when it is missing or older than the sources (data-tools/build-dist.ts), so
 * the tests that run the built package (the packed tarball, `bando serve --threads`) never run an old build, also
 * on a fresh clone.
 */
import { buildDistIfStale } from '../../data-tools/build-dist.js';

export function setup(): void {
  buildDistIfStale();
}
