/**
 * Pack bytes per km of road (README, "Pack size per km of road"): for the packs the tests build from the real data
 * (Hanoi, HCMC, Đà Lạt with the admin data, Monaco, Andorra; each as `build-pack` builds it, routed by the
 * customizable hierarchy's order, and with the per-vehicle hierarchies of `--ch` beside it) and any pack files named
 * in PACK_BYTES_FILES (comma-separated, e.g. the New York packs of bench/build-scale.ts), the km of road
 * (the sum of the graph's edge lengths) and the bytes per km by group of sections: the graph, the hierarchies, the
 * customizable hierarchy's order, the other stored indexes (components, snapping grid, place index, categories, point order), places, basemap, wards and
 * admin units, strings.
 *
 * A pack built before the stored categories and point order (place.cat*, place.pts*) gets their sizes computed
 * from its places (marked with *), so packs of older builders still show today's total.
 *
 * Run: npx tsx bench/pack-bytes.ts   (or npm run bench -- pack-bytes). Builds the test packs when not cached.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Pack } from '../src/pack/reader.js';
import { Region } from '../src/region.js';
import { PlaceCategories } from '../src/places/search/place-categories.js';
import { categorySections } from '../src/places/search/stored-categories.js';
import { pointSections } from '../src/places/stored-points.js';
import { testPack, type TestRegion } from '../test/helpers/packs.js';
import { table } from './stats.js';

/** Section groups, by the first rule whose test a section name passes. */
const GROUPS: [string, (name: string) => boolean][] = [
  ['graph', (n) => n.startsWith('graph.')],
  ['hierarchies', (n) => n.startsWith('ch.')],
  // The customizable hierarchy's order (src/route/cch/stored-order.ts): what a pack without hierarchies routes by.
  ['cch order', (n) => n.startsWith('route.cch')],
  ['stored indexes', (n) => n.startsWith('route.') || /^place\.(ix|cat|pts)(\.|$)/.test(n)],
  ['places', (n) => n.startsWith('place.')],
  ['basemap', (n) => n.startsWith('map.')],
  ['wards + admin', (n) => n.startsWith('admin.') || n.startsWith('ward')],
  ['strings', (n) => n.startsWith('str.')],
];

/** Bytes of the sections a pack of an older builder lacks, computed from its places (0 when it has them). */
function missingStored(pack: Pack): number {
  const region = new Region(pack);
  const places = region.places;
  if (!places || places.count === 0) return 0;
  let bytes = 0;
  const add = (s: { json: [string, unknown][]; arrays: [string, ArrayBufferView][] }) => {
    for (const [, v] of s.json) bytes += JSON.stringify(v).length;
    for (const [, a] of s.arrays) bytes += a.byteLength;
  };
  if (!pack.has('place.cat')) add(categorySections(new PlaceCategories(places, region.strings)));
  if (!pack.has('place.pts')) add(pointSections(places) ?? { json: [], arrays: [] });
  return bytes;
}

/** One row of the table for a pack. */
function row(label: string, bytes: Uint8Array): Record<string, string | number> {
  const pack = Pack.from(bytes, { verify: false });
  const len = new Region(pack).graph.edgeLen;
  let metres = 0;
  for (let e = 0; e < len.length; e++) metres += len[e]!;
  const km = metres / 1000;
  const by = new Map<string, number>(GROUPS.map(([g]) => [g, 0]));
  for (const e of pack.sections.values()) {
    const group = GROUPS.find(([, test]) => test(e.name))?.[0];
    if (group) by.set(group, by.get(group)! + e.byteLength);
  }
  const extra = missingStored(pack);
  by.set('stored indexes', by.get('stored indexes')! + extra);
  const total = bytes.length + extra;
  const perKm = (b: number) => Math.round(b / km).toLocaleString('en');
  return {
    pack: `${label}${extra > 0 ? ' *' : ''}`,
    MB: (total / 1e6).toFixed(2),
    'km of road': Math.round(km).toLocaleString('en'),
    'total B/km': perKm(total),
    ...Object.fromEntries(GROUPS.map(([g]) => [g, perKm(by.get(g)!)])),
  };
}

const regions: TestRegion[] = ['hanoi', 'hcmc', 'dalat', 'monaco', 'andorra'];
const rows = regions.flatMap((r) => [row(r, testPack(r)), row(`${r} --ch`, testPack(r, { hierarchies: true }))]);
for (const file of (process.env.PACK_BYTES_FILES ?? '').split(',').filter(Boolean))
  rows.push(row(basename(file), new Uint8Array(readFileSync(file))));
table('pack bytes per km of road, by group of sections (* = place.cat / place.pts sizes computed)', rows);
