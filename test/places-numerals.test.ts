/**
 * Roman numerals in names ("Dinh III Bảo Đại", "Mỹ Khánh IV") are typed in digits ("dinh 3", "Mỹ Khánh 4"). Truth
 * from the raw inputs: the Đà Lạt tourist list's point for Dinh III, the whole-HCMC PBF's names.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import type { GeocodeResponse } from '../src/api/place-shapes';
import { storedTermsOf } from '../src/places/search/terms';
import { OSM, testPack } from './helpers/packs';

const digitsOf = (name: string) =>
  storedTermsOf(name)
    .filter((t) => t.numeric)
    .map((t) => t.folded);

describe('Roman numerals in names', () => {
  it('a numeral of two letters or more in capitals also stands for its digits; letters and words do not', () => {
    expect(digitsOf('Dinh III Bảo Đại')).toEqual(['3']);
    expect(digitsOf('Mỹ Khánh IV')).toEqual(['4']);
    expect(digitsOf('ADAM BIDA XIV')).toEqual(['14']);
    expect(digitsOf('Bánh canh Bảy (VII)')).toEqual(['7']);
    // One letter is a letter ("Hẻm V"); "XI", "VI" are Vietnamese words ("XI MĂNG"); lower case is a word.
    for (const name of ['Hẻm V', 'XI MĂNG HÀ TIÊN', 'Vi Vi shop', 'Trường ii', 'MIX'])
      expect(digitsOf(name)).toEqual([]);
  });

  describe('found by their digits', () => {
    let dalat: Engine;
    let city: Engine;
    beforeAll(async () => {
      [dalat, city] = await Promise.all([
        createEngine({ packs: [testPack('dalat')], wasm: false }),
        createEngine({ packs: [testPack('hcmc-city')], wasm: false }),
      ]);
    }, 300_000);
    const top = (e: Engine, address: string) => {
      const r = e.geocode({ address }) as GeocodeResponse;
      return r.status === 'OK' ? r.results[0] : undefined;
    };

    it('"dinh 3" is Dinh III Bảo Đại, where the tourist list puts it', () => {
      const pois = JSON.parse(readFileSync(OSM + 'dalat-tourist-pois.geojson', 'utf8')) as {
        features: { geometry: { coordinates: [number, number] }; properties: { name_vi: string } }[];
      };
      const dinh = pois.features.find((f) => f.properties.name_vi === 'Dinh III Bảo Đại')!;
      const [lng, lat] = dinh.geometry.coordinates;
      const got = top(dalat, 'dinh 3')?.geometry.location;
      expect(got).toBeDefined();
      expect(haversine(got!.lat, got!.lng, lat, lng)).toBeLessThan(150);
    });

    it('"Mỹ Khánh 4" is Mỹ Khánh IV, not its neighbours I–III', () => {
      expect(top(city, 'Mỹ Khánh 4')?.formatted_address).toMatch(/^Mỹ Khánh IV,/);
      expect(top(city, 'Mỹ Khánh 2')?.formatted_address).toMatch(/^Mỹ Khánh II,/);
    });
  });
});
