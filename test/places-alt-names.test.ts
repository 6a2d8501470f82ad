/**
 * Every name tag is a searchable name (issue 35): official, alternative, short, old, local and international names,
 * brand and operator, each as written and in Vietnamese and English (`short_name:en`, `old_name:vi`, `brand:en` …),
 * are stored with the place. Truth from the raw OSM XML of the HCMC pack, read independently of the builder; "UEH",
 * only in `short_name:en`, finds its university.
 */
import { describe, expect, it } from 'vitest';
import { altNamesOf, nameOf } from '../data-tools/places/tags';
import { withoutNote } from '../src/places/text/name-note';
import { createEngine } from '../src/engine';
import { haversine } from '../src/geo';
import { OSM, PACK_INPUTS, testPack } from './helpers/packs';
import { packPlaces } from './helpers/pack-places';
import { xmlElements } from './helpers/osm-xml';

/** The name tags people search by, as the issue lists them. */
const NAME_TAG = /^(name|official_name|alt_name|short_name|old_name|loc_name|int_name|brand|operator)(:vi|:en)?$/;
const key = (s: string) => s.normalize('NFC').toLowerCase();

describe('alternative names', () => {
  const raw = PACK_INPUTS.hcmc.flatMap((f) => xmlElements(OSM + f));
  const places = packPlaces(testPack('hcmc'));

  it('every name tag of a place, in any language form, is its name or one of its stored names', () => {
    const byElement = new Map(places.filter((p) => p.element).map((p) => [p.element, p]));
    const keys = new Map<string, number>();
    const missing: string[] = [];
    for (const e of raw) {
      const place = byElement.get(e.element);
      if (!place) continue;
      const stored = new Set([place.name, ...place.alts].map(key));
      for (const [k, v] of Object.entries(e.tags)) {
        if (!NAME_TAG.test(k)) continue;
        keys.set(k, (keys.get(k) ?? 0) + 1);
        for (const name of v.split(';').map((s) => s.trim().replace(/\s+/g, ' '))) {
          if (name && !stored.has(key(name))) missing.push(`${e.element} ${k}=${name}`);
        }
      }
    }
    expect(missing).toEqual([]);
    // The language forms the fixed list used to miss are there to be read.
    for (const k of ['short_name:en', 'short_name:vi', 'official_name:vi', 'name:en', 'brand', 'operator'])
      expect(keys.get(k) ?? 0, k).toBeGreaterThan(0);
  });

  it('"UEH", only a short_name:en, is stored and finds the University of Economics', async () => {
    const ueh = raw.filter((e) => e.tags['short_name:en'] === 'UEH');
    expect(ueh).toHaveLength(1);
    const place = places.filter((p) => p.element === ueh[0]!.element);
    expect(place).toHaveLength(1);
    expect(place[0]!.alts).toContain('UEH');
    const engine = await createEngine({ packs: [testPack('hcmc')], wasm: false });
    const r = engine.geocode({ address: 'UEH' });
    expect(r.status).toBe('OK');
    if (r.status !== 'OK') return;
    const [lat, lon] = ueh[0]!.at!;
    expect(haversine(r.results[0]!.geometry.location.lat, r.results[0]!.geometry.location.lng, lat, lon)).toBeLessThan(
      150,
    );
  });
});

describe('a note in parentheses at the end of a name', () => {
  it('is left out of the name people call the place by, kept in the name tag stored among the other names', () => {
    expect(withoutNote('Ðồng Khởi (ex Catinat)')).toBe('Ðồng Khởi');
    expect(withoutNote('cầu Thủ Thiêm 4 ( dự kiến )')).toBe('cầu Thủ Thiêm 4');
    expect(withoutNote('University of Technology (HUTECH)')).toBe('University of Technology');
    expect(withoutNote('QL50-TPHCM(1)')).toBe('QL50-TPHCM');
    // Only a number before the note, parentheses inside the name, unbalanced: the name as written.
    expect(withoutNote('22 (Snake, Turtle...)')).toBe('22 (Snake, Turtle...)');
    expect(withoutNote('A46(67/2) Nam quang 2')).toBe('A46(67/2) Nam quang 2');
    expect(withoutNote('Hẻm 23 Lê D(ại')).toBe('Hẻm 23 Lê D(ại');
    const tags = { name: 'Saigon Square (closed)', shop: 'mall' };
    expect(nameOf(tags)).toBe('Saigon Square');
    expect(altNamesOf(tags, nameOf(tags)).map((a) => a.name)).toEqual(['Saigon Square (closed)']);
  });
});
