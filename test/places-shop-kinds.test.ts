/**
 * A family "tạp hóa" mapped as a department store (most of whole HCMC's shop=department_store are shops named after
 * their owners) is found with the kind word ("tạp hóa anh kha Huỳnh Tấn Phát Nhà Bè"). Truth: the raw PBF's element
 * of that name, never the engine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/engine';
import { haversine } from '../src/geo';
import { osmElements } from './helpers/osm-elements';
import { testPack } from './helpers/packs';

describe('tạp hóa mapped as other kinds of shop, on the whole-HCMC pack', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine({ packs: [testPack('hcmc-city')], wasm: false });
  }, 600_000);

  it.each([
    ['tap hoa anh kha huynh tan phat nha be', 'anh kha'],
    ['tạp hóa Thu Phương Bình Mỹ Củ Chi', 'Thu phương'],
  ])('%s: the shop named %s', (address, name) => {
    const truth = osmElements('hcmc-city').filter((e) => e.tags.name === name && e.tags.shop === 'department_store');
    expect(truth.length).toBe(1);
    const top = engine.geocode({ address }).results[0];
    expect(top).toBeDefined();
    const { lat, lng } = top!.geometry.location;
    expect(haversine(lat, lng, truth[0]!.lat, truth[0]!.lon)).toBeLessThan(150);
  });
});
