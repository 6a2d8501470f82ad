import type { Pack } from '../../src/pack/reader.js';
import type { RoadGraph } from '../../src/route/graph.js';
import type { Endpoint } from '../../src/route/search.js';
import { asciiMapPack } from './ascii-map.js';

/**
 * A 4 × 3 grid of two-way streets with two via-way turn restrictions (vehicles get copy states of their via arcs):
 *
 *     A---B---C---J     no_left_turn: D-E, via E-F, to F-C. only_straight_on: G-H, via H-I, to I-L.
 *     |   |   |   |
 *     D---E---F---K
 *     |   |   |   |
 *     G---H---I---L
 */
export function viaWayGrid(): Pack {
  const names = ['AB', 'BC', 'CJ', 'DE', 'EF', 'FK', 'GH', 'HI', 'IL', 'AD', 'DG', 'BE', 'EH', 'CF', 'FI', 'JK', 'KL'];
  const w = (n: string) => names.indexOf(n);
  return asciiMapPack({
    rows: ['A   B   C   J', '', 'D   E   F   K', '', 'G   H   I   L'],
    ways: names.map((nodes) => ({ nodes, tags: {} })),
    restrictions: [
      { from: w('DE'), via: [w('EF')], to: w('CF'), kind: 'no_left_turn' },
      { from: w('GH'), via: [w('HI')], to: w('IL'), kind: 'only_straight_on' },
    ],
  }).pack;
}

/** The point in the middle of every edge of a graph, by edge. */
export function edgeMids(g: RoadGraph): Endpoint[] {
  return Array.from({ length: g.edgeCount }, (_, e) => {
    const u = g.edgeNodes[2 * e]!,
      v = g.edgeNodes[2 * e + 1]!;
    return { edge: e, t: 0.5, lat: (g.lat(u) + g.lat(v)) / 2, lon: (g.lon(u) + g.lon(v)) / 2 };
  });
}
