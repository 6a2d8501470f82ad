/**
 * Text in a pack is composed (NFC) whatever the input holds: OSM stores some names decomposed (a vowel and its marks
 * as separate code points), which answers would otherwise show so and which would not join or match the same name
 * composed. Truth from the raw inputs, read here without the builder.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine';
import { Pack } from '../src/pack/reader';
import { StringTable } from '../src/pack/strings';
import { OSM, PACK_INPUTS, testPack } from './helpers/packs';

/** Every `name` tag value of the Overpass JSON inputs of the Hanoi pack that is not NFC. */
function decomposedNames(): string[] {
  const out: string[] = [];
  for (const f of PACK_INPUTS.hanoi.filter((f) => f.endsWith('.json'))) {
    const { elements } = JSON.parse(readFileSync(OSM + f, 'utf8')) as { elements: { tags?: Record<string, string> }[] };
    for (const e of elements) {
      const name = e.tags?.name;
      if (name && name !== name.normalize('NFC')) out.push(name);
    }
  }
  return out;
}

describe('composed text', () => {
  const raw = decomposedNames();

  it('the inputs hold decomposed names; the pack holds only composed strings', () => {
    expect(raw.length).toBeGreaterThan(0);
    const strings = new StringTable(Pack.from(testPack('hanoi')));
    const bad: string[] = [];
    for (let i = 1; i < strings.size; i++) {
      const s = strings.get(i);
      if (s !== s.normalize('NFC')) bad.push(s);
    }
    expect(bad).toEqual([]);
  });

  it('a place named decomposed in the input is found by its composed name and answered composed', async () => {
    const engine = await createEngine({ packs: [testPack('hanoi')], wasm: false });
    for (const name of new Set(raw)) {
      const composed = name.normalize('NFC');
      const r = engine.geocode({ address: composed });
      expect(r.status, composed).toBe('OK');
      if (r.status !== 'OK') continue;
      const shown = r.results[0]!.formatted_address;
      expect(shown, composed).toBe(shown.normalize('NFC'));
      // A geocode shows a place with a house number by its address; autocomplete shows its name.
      const a = engine.autocomplete({ input: composed });
      expect(a.status, composed).toBe('OK');
      if (a.status === 'OK') expect(a.predictions[0]!.description, composed).toContain(composed);
    }
  });
});
