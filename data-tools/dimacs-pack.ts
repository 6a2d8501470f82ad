import { basename } from 'node:path';
import { statSync } from 'node:fs';
import { haversine } from '../src/geo.js';
import { COORD_SCALE } from '../src/pack/format.js';
import { StringTableBuilder } from '../src/pack/strings.js';
import { PROFILE_COUNT } from '../src/route/profiles.js';
import { metadata } from './build-pack.js';
import { graphArrays } from './graph.js';
import { hilbert16 } from './hilbert.js';
import { buildIncidence } from './incidence.js';
import { withHierarchies, type HierarchyOptions } from './ch-pack.js';
import { readDimacs } from './dimacs/read.js';
import { writePack, type PackContents } from './pack-sections.js';
import { buildStoredIndexes } from './stored-indexes.js';
import { Pack } from '../src/pack/reader.js';

/** Nominal speed given to every arc of a DIMACS graph, km/h (durations of distance graphs are length / speed). */
const DIMACS_SPEED = 50;

/**
 * Builds a routing-only pack from a DIMACS road graph (`.gr` arcs + `.co` coordinates). Arc weights are metres for
 * distance graphs (`-d`) and tenths of a second for travel-time graphs (`-t`, stored as per-edge durations). Arc
 * pairs u→v / v→u of equal weight become one two-way edge; every vehicle gets the same graph.
 *
 * @param hierarchies contraction options, or `false` for a pack without hierarchies, routed by the customizable
 *   hierarchy whose order the stored indexes hold (as `build-pack --no-ch`).
 */
export async function buildDimacsPack(
  grPath: string,
  coPath: string,
  name: string,
  hierarchies: HierarchyOptions | false = {},
): Promise<Uint8Array> {
  const d = await readDimacs(grPath, coPath);
  const N = d.nodeCount;
  // Hilbert order for memory locality.
  let minLat = Infinity,
    minLon = Infinity,
    maxLat = -Infinity,
    maxLon = -Infinity;
  for (let i = 0; i < N; i++) {
    minLat = Math.min(minLat, d.lat[i]!);
    maxLat = Math.max(maxLat, d.lat[i]!);
    minLon = Math.min(minLon, d.lon[i]!);
    maxLon = Math.max(maxLon, d.lon[i]!);
  }
  const key = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    key[i] = hilbert16(
      Math.round(((d.lon[i]! - minLon) / Math.max(1e-9, maxLon - minLon)) * 65535),
      Math.round(((d.lat[i]! - minLat) / Math.max(1e-9, maxLat - minLat)) * 65535),
    );
  }
  const order = Array.from({ length: N }, (_, i) => i).sort((a, b) => key[a]! - key[b]! || a - b);
  const newId = new Uint32Array(N);
  order.forEach((old, i) => (newId[old] = i));

  // Pair arcs: a u→v arc whose reverse v→u has the same weight becomes one two-way edge.
  const M = d.from.length;
  const pairKey = (u: number, v: number, w: number) => `${u},${v},${w}`;
  const open = new Map<string, number[]>();
  const twoWay = new Uint8Array(M);
  const skip = new Uint8Array(M);
  for (let a = 0; a < M; a++) {
    const rev = open.get(pairKey(d.to[a]!, d.from[a]!, d.weight[a]!));
    if (rev && rev.length) {
      const b = rev.pop()!;
      twoWay[b] = 1;
      skip[a] = 1;
      continue;
    }
    const k = pairKey(d.from[a]!, d.to[a]!, d.weight[a]!);
    const list = open.get(k);
    if (list) list.push(a);
    else open.set(k, [a]);
  }
  const arcs: number[] = [];
  for (let a = 0; a < M; a++) if (!skip[a]) arcs.push(a);
  arcs.sort((p, q) => newId[d.from[p]!]! - newId[d.from[q]!]! || newId[d.to[p]!]! - newId[d.to[q]!]! || p - q);
  const E = arcs.length;
  const g = graphArrays(N, E, 0);
  g.edgePref.fill(100);
  for (let i = 0; i < N; i++) {
    const old = order[i]!;
    g.nodeLat[i] = Math.round(d.lat[old]! * COORD_SCALE);
    g.nodeLon[i] = Math.round(d.lon[old]! * COORD_SCALE);
    g.nodeOsm[i] = old + 1; // the DIMACS node id
  }
  const dur = d.kind === 'time' ? new Float32Array(E) : undefined;
  arcs.forEach((a, e) => {
    const u = newId[d.from[a]!]!;
    const v = newId[d.to[a]!]!;
    g.edgeNodes[2 * e] = u;
    g.edgeNodes[2 * e + 1] = v;
    g.edgeLen[e] =
      d.kind === 'distance'
        ? d.weight[a]!
        : haversine(d.lat[d.from[a]!]!, d.lon[d.from[a]!]!, d.lat[d.to[a]!]!, d.lon[d.to[a]!]!);
    if (dur) dur[e] = d.weight[a]! / 10;
    for (let p = 0; p < PROFILE_COUNT; p++) {
      g.edgeSpeed[e * PROFILE_COUNT * 2 + p * 2] = DIMACS_SPEED;
      g.edgeSpeed[e * PROFILE_COUNT * 2 + p * 2 + 1] = twoWay[a] ? DIMACS_SPEED : 0;
    }
  });
  Object.assign(g, buildIncidence(g.edgeNodes, N));

  const strings = new StringTableBuilder();
  const contents: PackContents = { meta: {}, strings, graph: g, edgeDuration: dur };
  const inputs = [grPath, coPath].map((f) => ({ file: basename(f), format: 'dimacs', bytes: statSync(f).size }));
  contents.meta = {
    ...metadata(name, inputs, contents),
    attribution: '9th DIMACS Implementation Challenge',
    license: 'public benchmark data',
    weights: d.kind,
  };
  // The stored indexes that apply to a routing-only graph: components and the snapping grid (no places).
  contents.indexes = buildStoredIndexes(Pack.from(writePack(contents)));
  if (hierarchies === false) return writePack(contents);
  return withHierarchies(contents, undefined, hierarchies).finish();
}
