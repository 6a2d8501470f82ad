/**
 * The static map's size parameters as it reads them: `width`, `height` and `scale`. Also what the server's cost
 * estimate reads (adapters/http/cost.ts), so a call is costed at the size it is drawn (`scale=%202` draws, and is
 * costed, at twice the size). Kept apart from static-route.ts so the estimate does not load the colour parser.
 */
import { given } from './coords.js';

/** Image pixels per map pixel the static map draws (Google's `scale`). */
const STATIC_SCALES = [1, 2] as const;
/** A `scale` the static map draws at. */
export type StaticScale = (typeof STATIC_SCALES)[number];

/**
 * `width` or `height` as read before its range is checked: `fallback` (pixels) when absent, a number as it is, a
 * string of digits (optional `+`, spaces around) as its number; NaN for anything else.
 */
export function parseSide(raw: unknown, fallback: number): number {
  if (!given(raw)) return fallback;
  if (typeof raw === 'number') return raw;
  return typeof raw === 'string' && /^\s*[+]?\d+\s*$/.test(raw) ? Number(raw) : NaN;
}

/** `scale`: 1 or 2 as a number or a numeric string, spaces around allowed (default 1); null for anything else. */
export function parseScale(raw: unknown): StaticScale | null {
  if (!given(raw)) return 1;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[12]\s*$/.test(raw) ? Number(raw) : NaN;
  return STATIC_SCALES.find((s) => s === n) ?? null;
}
