import type { ClientVersions } from './types.js';

/** "Basic A": web 0.10.0, Android 2.0.1, iOS 2.0.0, macOS 0.1.0. */
export const BASIC_A: ClientVersions = { web: '0.10.0', android: '2.0.1', ios: '2.0.0', macos: '0.1.0' };

const quad = (v: ClientVersions): string => `${v.web}/${v.android}/${v.ios}/${v.macos}`;

/** Formats versions as the spec's web/android/ios/macos quadruple text (`A` for {@link BASIC_A}). */
export function formatVersions(v: ClientVersions): string {
  return quad(v) === quad(BASIC_A) ? 'A' : quad(v);
}
