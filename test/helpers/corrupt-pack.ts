/**
 * Corrupted copies of a pack for the pack fuzzing (issue 18 item 5): cut short, or a few bytes overwritten inside
 * one section (where, with `verify` off, no checksum catches them). Deterministic from the case's seed.
 */
import type { SectionEntry, Verify } from '../../src/pack/reader.js';

/** One corruption: `truncate` keeps a prefix, `overwrite` replaces 1–4 bytes of one section. */
export interface CorruptCase {
  kind: 'truncate' | 'overwrite';
  seed: number;
  verify: Verify;
}

/** The corrupted copy of `base` that `k` describes; `sections` are base's non-empty sections. */
export function corrupt(base: Uint8Array, sections: readonly SectionEntry[], k: CorruptCase): Uint8Array {
  let state = (k.seed * 2654435761) >>> 0 || 1;
  // xorshift32: a fixed sequence per seed.
  const next = (n: number): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  if (k.kind === 'truncate') return base.slice(0, next(base.length));
  const bytes = base.slice();
  const s = sections[next(sections.length)]!;
  for (let i = 1 + next(4); i > 0; i--) bytes[s.offset + next(s.byteLength)] = next(256);
  return bytes;
}
