/**
 * Rivers, canals and streams are places: people look for them by name ("rạch Bến Nghé", "kênh Tàu Hủ", "song cha"
 * typed without marks). Truth: the raw PBF's named waterways (ways and relations' member ways), as lines (an answer anywhere on a river is on it),
 * never the engine; a waterway named only by its kind's word ("rạch") is no place.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readOsmFile } from '../data-tools/osm/read';
import { createEngine, type Engine } from '../src/engine';
import { fold } from '../src/places/text/fold';
import { OSM, PACK_INPUTS, testPack } from './helpers/packs';
import { HIT_METRES, metresToLine } from './helpers/typed-queries';

/**
 * The named waterways of the whole-HCMC input (ways, and the member ways of relations: a river's water area is often a
 * multipolygon), as lines of [lat, lon], by folded name.
 */
function waterwayLines(): Map<string, [number, number][][]> {
  const nodes = new Map<number, [number, number]>();
  const wayRefs = new Map<number, number[]>();
  const named: { name: string; ways: number[] }[] = [];
  for (const file of PACK_INPUTS['hcmc-city'])
    readOsmFile(OSM + file, {
      node: (id, lat, lon) => void nodes.set(id, [lat, lon]),
      way: (id, refs, tags) => {
        wayRefs.set(id, refs);
        if (tags.waterway && tags.name) named.push({ name: fold(tags.name), ways: [id] });
      },
      relation: (_id, members, tags) => {
        const ways = members.filter((m) => m.type === 'way').map((m) => m.ref);
        if (tags.waterway && tags.name) named.push({ name: fold(tags.name), ways });
      },
      feature: () => undefined,
    });
  const out = new Map<string, [number, number][][]>();
  for (const w of named)
    for (const way of w.ways) {
      const line = (wayRefs.get(way) ?? []).flatMap((r) => (nodes.has(r) ? [nodes.get(r)!] : []));
      out.set(w.name, [...(out.get(w.name) ?? []), line]);
    }
  return out;
}

describe('waterways on the whole-HCMC pack', () => {
  let engine: Engine;
  let lines: Map<string, [number, number][][]>;
  beforeAll(async () => {
    engine = await createEngine({ packs: [testPack('hcmc-city')], wasm: false });
    lines = waterwayLines();
  }, 600_000);

  it.each([
    ['rạch Bến Nghé', 'rach ben nghe'],
    ['kênh Tàu Hủ', 'kenh tau hu'],
    ['song cha', 'song cha'],
    ['Suối Bà Lúa', 'suoi ba lua'],
    ['sông Tắc', 'song tac'],
  ])('%s: on a waterway of that name', (address, name) => {
    const truth = lines.get(name);
    expect(truth, `the input has waterways named ${name}`).toBeDefined();
    const top = engine.geocode({ address }).results[0];
    expect(top).toBeDefined();
    const { lat, lng } = top!.geometry.location;
    expect(Math.min(...truth!.map((line) => metresToLine(lat, lng, line)))).toBeLessThan(HIT_METRES);
    expect(top!.partial_match).toBeUndefined();
  });

  it('a waterway named only by its kind is no place', () => {
    expect(lines.get('rach')?.length).toBeGreaterThan(0);
    const named = engine.autocomplete({ input: 'rạch', limit: 10 }).predictions.map((p) => p.description);
    expect(named.filter((d) => fold(d.split(',')[0]!) === 'rach')).toEqual([]);
  });
});
