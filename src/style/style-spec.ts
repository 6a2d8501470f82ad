/**
 * The MapLibre style-spec library (expressions, functions, colours), loaded on first use: importing it costs about
 * 90 ms, which every `import('bando')` would otherwise pay although only style validation and the static-map renderer
 * need it. Node loads its CommonJS build synchronously here, so `validateStyle` stays synchronous; browser bundles
 * replace this module with `style-spec.browser.ts` (package.json `browser` field), which imports it statically.
 * Every value of the library is taken from here, so one copy is in use (`instanceof Color` holds across modules).
 */
import { createRequire } from 'node:module';

type StyleSpecLibrary = typeof import('@maplibre/maplibre-gl-style-spec');

let library: StyleSpecLibrary | undefined;

/** The style-spec library (loaded on the first call). */
export function styleSpec(): StyleSpecLibrary {
  return (library ??= createRequire(import.meta.url)('@maplibre/maplibre-gl-style-spec') as StyleSpecLibrary);
}
