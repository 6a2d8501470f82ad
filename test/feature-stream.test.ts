/**
 * Reading a GeoJSON FeatureCollection feature by feature (data-tools/admin/feature-stream.ts): the features are those
 * of one JSON.parse of the whole file, on the country's ward polygons and on text made to trip a scanner (brackets
 * and quotes inside strings, members around `features`); broken files fail naming the file.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { forEachFeature } from '../data-tools/admin/feature-stream';
import { ADMIN } from './helpers/packs';

/** The features forEachFeature gives for `text`. */
function streamed(text: string): unknown[] {
  const out: unknown[] = [];
  forEachFeature(new TextEncoder().encode(text), 'f.geojson', (f) => out.push(f));
  return out;
}

const digest = (f: unknown) => createHash('sha256').update(JSON.stringify(f)).digest('hex');

describe('GeoJSON features one at a time', () => {
  it('the official ward polygons: the same 3,321 features as one parse of the whole file', () => {
    const bytes = gunzipSync(readFileSync(`${ADMIN}vn-2025-boundaries/wards-2025.geojson.gz`));
    const got: string[] = [];
    forEachFeature(bytes, 'wards', (f) => got.push(digest(f)));
    const whole = (JSON.parse(bytes.toString('utf8')) as { features: unknown[] }).features.map(digest);
    expect(got.length).toBe(3321);
    expect(got).toEqual(whole);
  });

  it('brackets, braces, quotes and escapes inside strings, members before and after, white space', () => {
    const text = `
      { "type" : "FeatureCollection",
        "name": "a \\"quoted\\" {name} [x]",
        "bbox": [1, 2, 3, {"a": [4]}],
        "features" : [
          {"type":"Feature","properties":{"name":"Phường } ] \\\\","k":"\\"{"},"geometry":null},
          {"type":"Feature","properties":{"n":[1,"]",{"x":"}"}],"t":true,"f":false,"z":null,"e":-1.5e-3},"geometry":{"type":"Point","coordinates":[106.7,10.8]}}
          , 3, "a string", null
        ],
        "after": {"features": [{"not": "these"}]}
      }`;
    expect(streamed(text)).toEqual((JSON.parse(text) as { features: unknown[] }).features);
    expect(streamed('{"feat\\u0075res":[]}')).toEqual([]);
  });

  it('what is not a FeatureCollection fails naming the file', () => {
    for (const bad of [
      '',
      '[]',
      '{"type":"FeatureCollection"}',
      '{"features":3}',
      '{"features":[{"a":1}',
      '{"features":[{"a":1} {"b":2}]}',
      '{"features":[{"a":"1}]}',
      '{"type" "x", "features": []}',
      '{"features":[]} {}',
    ])
      expect(() => streamed(bad), bad).toThrow(/^f\.geojson: not a GeoJSON FeatureCollection$/);
    expect(() => streamed('{"features":[{"a":}]}')).toThrow(/^f\.geojson: not valid JSON/);
  });
});
