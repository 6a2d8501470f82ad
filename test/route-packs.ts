import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOsmPack } from '../data-tools/build-pack.js';

/**
 * Road packs for the routing tests and benches, built from the real data without admin units (the admin bundle
 * is not needed for routing) and cached under .cache/route-packs/ by input list.
 */
const DATA = fileURLToPath(new URL('../../shared/data/osm/', import.meta.url));
const CACHE = fileURLToPath(new URL('../.cache/route-packs/', import.meta.url));

export const ROUTE_PACK_INPUTS = {
  hanoi: ['hanoi-center-all-2023.overpass.json', 'hanoi-quoctugiam.osm', 'hanoi-hospitals-2024.overpass.json', 'hanoi-restaurants-2024.overpass.json', 'hanoi-central-drive-2025.overpass.json'],
  dalat: ['dalat-drive-2026.overpass.json'],
  monaco: ['monaco.osm.pbf'],
} as const;

/** Bytes of the routing pack of a region (built once, then read from the cache). */
export function routePack(region: keyof typeof ROUTE_PACK_INPUTS): Uint8Array {
  mkdirSync(CACHE, { recursive: true });
  const file = `${CACHE}${region}.pack`;
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  const bytes = buildOsmPack({ inputs: ROUTE_PACK_INPUTS[region].map((f) => DATA + f), name: region, admin: null });
  writeFileSync(file, bytes);
  return bytes;
}
