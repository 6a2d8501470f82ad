/**
 * Writes src/style/table.generated.json, the style table, derived (derive.ts) from MapLibre's style reference in the
 * installed @maplibre/maplibre-gl-style-spec (its dist/latest.json: the library's `latest` export lacks the client
 * versions) and the spec overlay (overlay.json). Generated ahead of time so the engine neither loads the style-spec
 * package (about 300 kB of JSON, tens of milliseconds) nor derives anything when it starts;
 * test/style-table-build.test.ts fails when the committed file is not what this script writes.
 * Run: npm run build:style-table   (or: node --import tsx data-tools/style-table/build.ts [out.json])
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { deriveTable } from './derive.js';
import type { SpecOverlay, StyleReference, StyleTable } from './types.js';

/** The committed output, next to the module that loads it. */
export const TABLE_OUT = fileURLToPath(new URL('../../src/style/table.generated.json', import.meta.url));
const OVERLAY = fileURLToPath(new URL('./overlay.json', import.meta.url));

/** The spec overlay. */
export function readOverlay(): SpecOverlay {
  return JSON.parse(readFileSync(OVERLAY, 'utf8')) as SpecOverlay;
}

/** MapLibre's v8 style reference of the installed style-spec package, and the package's version. */
export function installedReference(): { reference: StyleReference; version: string } {
  const require = createRequire(import.meta.url);
  const { version } = require('@maplibre/maplibre-gl-style-spec/package.json') as { version: string };
  const reference = require('@maplibre/maplibre-gl-style-spec/dist/latest.json') as StyleReference;
  return { reference, version };
}

/** The generated file's text: one row per line, so a package update shows as a readable diff. */
export function renderTable(table: StyleTable, version: string): string {
  const list = (rows: readonly unknown[]): string =>
    `[\n${rows.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]`;
  const generated =
    `by data-tools/style-table/build.ts from @maplibre/maplibre-gl-style-spec ${version} and ` +
    'data-tools/style-table/overlay.json; do not edit (npm run build:style-table)';
  return `{
  "generated": ${JSON.stringify(generated)},
  "layerTypes": ${JSON.stringify(table.layerTypes)},
  "layerFields": ${list(table.layerFields)},
  "properties": ${list(table.properties)}
}
`;
}

/** The file's text for the installed package and the current overlay. */
export function installedTableText(): string {
  const { reference, version } = installedReference();
  return renderTable(deriveTable(reference, readOverlay()), version);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const target = process.argv[2] ?? TABLE_OUT;
  const text = installedTableText();
  writeFileSync(target, text);
  const root = fileURLToPath(new URL('../../', import.meta.url));
  console.log(`style-table: ${target.startsWith(root) ? target.slice(root.length) : target} (${text.length} bytes)`);
}
