/** Keys file used when no --keys is given, in the current directory. */
export const DEFAULT_KEYS_FILE = 'bando-keys.json';

/** The usage file kept next to a keys file: `keys.json` → `keys.usage.json`. */
export function usageFileFor(keysPath: string): string {
  return keysPath.replace(/(\.json)?$/, '.usage.json');
}

/** The dev keys kept next to a keys file by `bando serve --dev` while it does not exist: `keys.json` → `keys.dev.json`. */
export function devKeysFileFor(keysPath: string): string {
  return keysPath.replace(/(\.json)?$/, '.dev.json');
}
