import type { ClientVersions, PropertyDefinition } from './types.js';

/**
 * Parses the spec's "web/android/ios/macos" version quadruple, e.g. `0.19.0/5.0.0/3.5.0/0.4.0`.
 * @param quad four semver strings joined by `/`
 * @throws Error when the text is not four parts (table authoring error, caught by tests at load)
 */
export function versions(quad: string): ClientVersions {
  const parts = quad.split('/');
  if (parts.length !== 4 || parts.some((p) => !/^\d+\.\d+\.\d+$/.test(p))) {
    throw new Error(`bad version quadruple "${quad}"`);
  }
  const [web, android, ios, macos] = parts as [string, string, string, string];
  return { web, android, ios, macos };
}

/** "Basic A": web 0.10.0, Android 2.0.1, iOS 2.0.0, macOS 0.1.0. */
export const BASIC_A: ClientVersions = versions('0.10.0/2.0.1/2.0.0/0.1.0');

/** Formats versions back to the spec's quadruple text (`A` for {@link BASIC_A}). */
export function formatVersions(v: ClientVersions): string {
  const quad = `${v.web}/${v.android}/${v.ios}/${v.macos}`;
  return quad === '0.10.0/2.0.1/2.0.0/0.1.0' ? 'A' : quad;
}

/** Flag names as the spec abbreviates them. */
export type FlagName = 'fs' | 'interp' | 'trans';

/**
 * Builds the three boolean flags of a table row from the spec's abbreviations.
 * @param names any of `fs` (feature-state), `interp` (interpolate), `trans` (transition)
 */
export function flags(
  ...names: FlagName[]
): Pick<PropertyDefinition, 'featureState' | 'interpolate' | 'transition'> {
  return {
    featureState: names.includes('fs'),
    interpolate: names.includes('interp'),
    transition: names.includes('trans'),
  };
}
