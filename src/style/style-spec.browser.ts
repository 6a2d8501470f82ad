/**
 * Browser form of `style-spec.ts` (chosen by the package.json `browser` field when bundling for browsers): the
 * library imported statically, since a browser bundle has no synchronous loader.
 */
import * as library from '@maplibre/maplibre-gl-style-spec';

/** The style-spec library. */
export function styleSpec(): typeof library {
  return library;
}
