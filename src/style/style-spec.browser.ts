/**
 * Browser form of `style-spec.ts` (swapped in by the browser and worker builds, see tsup.config.ts): the library
 * imported statically, since a browser has no synchronous loader.
 */
import * as library from './style-spec-library.js';

/** The style-spec library. */
export function styleSpec(): typeof library {
  return library;
}

/** The library (always loaded here). */
export function loadedStyleSpec(): typeof library {
  return library;
}
