/**
 * The MapLibre style-spec library (expressions, functions, colours), loaded on first use: importing it costs about
 * 90 ms, which every `import('bando')` would otherwise pay although only style validation and the static-map renderer
 * need it. Node loads a CommonJS build synchronously here, so `validateStyle` stays synchronous: in the built package
 * that is `dist/style-spec.cjs` (the used parts, bundled; tsup defines `__BANDO_STYLE_SPEC__` as its path), from the
 * repository's sources the library itself. The browser bundles replace this module with `style-spec.browser.ts`,
 * which imports it statically. Every value of the library is taken from here, so one copy is in use (`instanceof
 * Color` holds across modules).
 */
import { nodeBuiltin } from '../node-builtin.js';

type StyleSpecLibrary = typeof import('./style-spec-library.js');

declare const __BANDO_STYLE_SPEC__: string | undefined;
const MODULE = typeof __BANDO_STYLE_SPEC__ === 'string' ? __BANDO_STYLE_SPEC__ : '@maplibre/maplibre-gl-style-spec';

let library: StyleSpecLibrary | undefined;

/** The style-spec library (loaded on the first call). */
export function styleSpec(): StyleSpecLibrary {
  return (library ??= nodeBuiltin('node:module')!.createRequire(import.meta.url)(MODULE) as StyleSpecLibrary);
}

/**
 * The library if a call has loaded it, else undefined: before then no value of its classes (Color, Formatted, ...)
 * exists, so a test of a value against them needs no load.
 */
export function loadedStyleSpec(): StyleSpecLibrary | undefined {
  return library;
}
