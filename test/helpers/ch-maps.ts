import type { AsciiMap } from './ascii-map.js';

/**
 * A 4 × 4 grid with one-way streets, a no-left-turn and a via-way restriction, so its hierarchy is edge-based:
 * the small map the contraction tests force cores on.
 */
export const RESTRICTED_GRID: AsciiMap = {
  rows: ['A   B   C   D', '', 'E   F   G   H', '', 'I   J   K   L', '', 'M   N   O   P'],
  ways: [
    { nodes: 'ABCD' },
    { nodes: 'EFGH', tags: { oneway: 'yes' } },
    { nodes: 'IJKL' },
    { nodes: 'PONM', tags: { oneway: 'yes' } },
    { nodes: 'AEIM' },
    { nodes: 'BFJN', tags: { highway: 'primary' } },
    { nodes: 'OKGC', tags: { oneway: 'yes' } },
    { nodes: 'DHLP' },
  ],
  restrictions: [
    { from: 1, via: 'F', to: 5, kind: 'no_left_turn' },
    { from: 0, via: [5], to: 2, kind: 'no_right_turn' },
  ],
};
