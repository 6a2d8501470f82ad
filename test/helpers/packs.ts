import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vietnamAdmin } from '../../data-tools/admin-bundle.js';
import { buildOsmPack } from '../../data-tools/build-pack.js';
import { HANOI_INPUTS } from '../../data-tools/hanoi-inputs.js';

/** The shared real data, beside the repository. */
export const DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
export const OSM = `${DATA}osm/`;
export const ADMIN = `${DATA}admin/`;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = join(ROOT, '.cache/test-packs/');

/** Inputs of the packs that tests build, oldest first (later inputs win). */
export const PACK_INPUTS = {
  hanoi: HANOI_INPUTS,
  hcmc: ['hcmc-d1-d3.osm', 'hcmc-thuduc-hcmute.osm'],
  /** The whole city as of 2018: the scale at which places and routing are judged. */
  'hcmc-city': ['hcmc-2018-01-01.osm.pbf'],
  /** The drive network, then the tourist places (GeoJSON, simple form; several share ids with OSM elements). */
  dalat: ['dalat-drive-2026.overpass.json', 'dalat-tourist-pois.geojson'],
  monaco: ['monaco.osm.pbf'],
  andorra: ['andorra.osm.pbf'],
} as const;
export type TestRegion = keyof typeof PACK_INPUTS;

/** How a test pack is built beyond its inputs. */
export interface TestPackOptions {
  /** Also contract per-vehicle hierarchies (`build-pack --ch`); default false, as `build-pack` builds. */
  hierarchies?: boolean;
}

/**
 * Builds the pack of a region from the real data and returns its bytes. Packs are cached under .cache/, keyed by
 * a hash of the builder's source code, so a change to the builder always rebuilds them.
 */
export function testPack(region: TestRegion, opts: TestPackOptions = {}): Uint8Array {
  mkdirSync(CACHE, { recursive: true });
  const file = `${CACHE}${region}${opts.hierarchies ? '-ch' : ''}-${hash}.pack`;
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  const bytes = buildTestPack(region, opts);
  writeFileSync(file, bytes);
  return bytes;
}

/** Builds a region's pack without the cache. */
export function buildTestPack(region: TestRegion, opts: TestPackOptions = {}): Uint8Array {
  return buildOsmPack({
    inputs: PACK_INPUTS[region].map((f) => OSM + f),
    name: region,
    admin: vietnamAdmin(ADMIN),
    hierarchies: opts.hierarchies,
  });
}

/**
 * The hash of the sources this process's builder was loaded from, taken as this module is evaluated, right after its
 * imports loaded the builder: taken at the first `testPack` instead (as before), a run during an edit could cache a
 * pack built by the modules loaded before the edit under the hash of the sources after it.
 */
const hash = sourceHash();

function sourceHash(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts') || p.endsWith('.json')) h.update(p.slice(ROOT.length)).update(readFileSync(p));
    }
  };
  walk(join(ROOT, 'data-tools'));
  walk(join(ROOT, 'src'));
  return h.digest('hex').slice(0, 16);
}
