import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOsmPack } from '../../data-tools/build-pack.js';
import type { HierarchyOptions } from '../../data-tools/ch-pack.js';
import { Pack } from '../../src/pack/reader.js';

/**
 * A tiny hand-drawn OSM map. Each letter of `rows` is a node at (row, column) → (21 − row · 0.001°, 105.8 + col/4 ·
 * 0.001°); ways are letter strings (highway=residential unless their tags say otherwise); restrictions run from way
 * index (or indices: no_entry, no_exit) to way index over a via letter or via way indices; nodes may carry tags.
 */
export interface AsciiMap {
  rows: string[];
  ways: { nodes: string; tags?: Record<string, string> }[];
  restrictions?: { from: number | number[]; via: string | number[]; to: number | number[]; kind: string }[];
  nodeTags?: Record<string, Record<string, string>>;
}

/**
 * The pack built (by the real pack builder, from OSM XML) from a hand-drawn map, and each letter's position.
 * `hierarchies`: also contract per-vehicle hierarchies (`true`, or how: a forced core size, for tests of the core
 * search); without, the pack routes by its customizable hierarchy, as `build-pack` builds by default.
 */
export function asciiMapPack(
  spec: AsciiMap,
  name = 'test',
  hierarchies?: HierarchyOptions | true,
): { pack: Pack; at: (ch: string) => [number, number] } {
  const pos = new Map<string, [number, number]>();
  spec.rows.forEach((row, r) =>
    [...row].forEach((ch, c) => {
      if (/[A-Za-z]/.test(ch)) pos.set(ch, [21 - r * 0.001, 105.8 + (c / 4) * 0.001]);
    }),
  );
  const ids = new Map<string, number>();
  let xml = '<?xml version="1.0"?>\n<osm version="0.6">\n';
  let id = 1;
  for (const [ch, [lat, lon]] of pos) {
    ids.set(ch, id);
    const tags = Object.entries(spec.nodeTags?.[ch] ?? {})
      .map(([k, v]) => `<tag k="${k}" v="${v}"/>`)
      .join('');
    xml += `<node id="${id++}" version="1" lat="${lat}" lon="${lon}">${tags}</node>\n`;
  }
  spec.ways.forEach((w, i) => {
    xml += `<way id="${100 + i}" version="1">${[...w.nodes].map((c) => `<nd ref="${ids.get(c)}"/>`).join('')}`;
    for (const [k, v] of Object.entries({ highway: 'residential', ...w.tags })) xml += `<tag k="${k}" v="${v}"/>`;
    xml += '</way>\n';
  });
  (spec.restrictions ?? []).forEach((r, i) => {
    const via =
      typeof r.via === 'string'
        ? `<member type="node" ref="${ids.get(r.via)}" role="via"/>`
        : r.via.map((w) => `<member type="way" ref="${100 + w}" role="via"/>`).join('');
    const members = (ways: number | number[], role: string) =>
      [ways]
        .flat()
        .map((w) => `<member type="way" ref="${100 + w}" role="${role}"/>`)
        .join('');
    xml += `<relation id="${500 + i}" version="1">${members(r.from, 'from')}${via}${members(r.to, 'to')}<tag k="type" v="restriction"/><tag k="restriction" v="${r.kind}"/></relation>\n`;
  });
  xml += '</osm>\n';
  const file = join(mkdtempSync(join(tmpdir(), 'bando-map-')), 'map.osm');
  writeFileSync(file, xml);
  return {
    pack: Pack.from(
      buildOsmPack({
        inputs: [file],
        name,
        admin: null,
        hierarchies: hierarchies !== undefined,
        contraction: hierarchies === true ? undefined : hierarchies,
      }),
    ),
    at: (ch) => pos.get(ch)!,
  };
}
