/**
 * Reads the official polygons of the 2025 wards/communes (build time, Node):
 * `<admin dir>/vn-2025-boundaries/wards-2025.geojson.gz`, one MultiPolygon feature per ward with its official
 * 5-digit `ward_code` and `province_code`. Each feature is matched to its 2025 ward of the admin table by code
 * (the codes of vn-2025/merges.json); the two wards whose codes differ between the sources (3,319 of 3,321 agree)
 * are matched by name within their province. A feature that matches no ward, or two features for one ward, fail
 * the build: a wrong ward is worse than none.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { nameKey } from '../../src/places/text/fold';
import type { AdminTable } from '../../src/admin/types';
import { WardPolygonsBuilder, type Part } from '../../src/admin/ward-polygons-builder';
import { forEachFeature } from './feature-stream';

interface WardFeature {
  properties: { ward_code: string; full_name: string; name: string; province_code: string };
  geometry: { type: 'MultiPolygon' | 'Polygon'; coordinates: unknown };
}

/** Path of the ward polygons under an admin data folder. */
const wardBoundariesFile = (adminDir: string): string => join(adminDir, 'vn-2025-boundaries', 'wards-2025.geojson.gz');

/** True when the admin folder has the 2025 ward polygons. */
export function hasWardBoundaries(adminDir: string): boolean {
  return existsSync(wardBoundariesFile(adminDir));
}

/** Every 2025 ward's polygons, keyed by admin unit id, ready to finish (whole, or clipped to a pack's area). */
export function loadWardBoundaries(adminDir: string, table: AdminTable): WardPolygonsBuilder {
  const file = wardBoundariesFile(adminDir);
  const byCode = new Map<string, number>();
  const byName = new Map<string, number[]>(); // `${province code}|${nameKey(name)}` → ward ids
  const provinceCode = new Map<number, string>();
  for (const u of table.units) if (u.system === '2025' && u.level === 'province') provinceCode.set(u.id, u.code);
  for (const u of table.units) {
    if (u.system !== '2025' || u.level !== 'ward') continue;
    byCode.set(u.code, u.id);
    const k = `${provinceCode.get(u.parent)}|${nameKey(u.name)}`;
    byName.set(k, [...(byName.get(k) ?? []), u.id]);
  }
  const builder = new WardPolygonsBuilder();
  const seen = new Set<number>();
  // Feature by feature from the unzipped bytes: the file as one parsed tree would take hundreds of MB.
  forEachFeature(gunzipSync(readFileSync(file)), file, (feature) => {
    const f = feature as WardFeature;
    const p = f.properties;
    let id = byCode.get(p.ward_code);
    if (id === undefined) {
      const named = byName.get(`${p.province_code}|${nameKey(p.name)}`) ?? [];
      if (named.length !== 1)
        throw new Error(
          `${file}: ward ${p.ward_code} "${p.full_name}" matches ${named.length} wards of the admin table`,
        );
      id = named[0]!;
    }
    if (seen.has(id)) throw new Error(`${file}: two polygons for ward ${p.ward_code} "${p.full_name}"`);
    seen.add(id);
    builder.add(id, partsOf(f, file));
  });
  return builder;
}

/** The polygon parts of a feature (a Polygon is one part). */
function partsOf(f: WardFeature, file: string): Part[] {
  const g = f.geometry;
  const polys = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as Part[];
  if (!Array.isArray(polys) || polys.some((poly) => !Array.isArray(poly) || poly.some((r) => !Array.isArray(r)))) {
    throw new Error(`${file}: ward ${f.properties.ward_code} has malformed geometry`);
  }
  return polys;
}
