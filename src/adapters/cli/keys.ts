import { withFileLock } from '../http/file-lock.js';
import {
  KEY_NUMBER_RANGES,
  keyNumberProblem,
  keyTextProblem,
  normalizeKeys,
  type ApiKey,
  type KeyKind,
} from '../http/keys.js';
import { newKeySecret, readKeysFile, writeKeysFile } from '../http/keys-file.js';
import { flag, type ParsedArgs } from './args.js';
import type { CliCommand } from './command.js';
import { DEFAULT_KEYS_FILE } from './files.js';

const KEYS_HELP = `bando keys create [--kind rest|tiles] [--name TEXT] [--restrict PATTERN ...] [--quota N] [--rate N] [--key SECRET] [--keys FILE]
bando keys list [--keys FILE] [--json]
bando keys delete KEY [--keys FILE]
  Manages the keys file read by "bando serve --keys" (default ${DEFAULT_KEYS_FILE}).
  --restrict  URL pattern with * wildcards matched on Origin/Referer, e.g. "https://*.example.com/*"
  --quota     monthly quota, 0 to 1000000000000 (default 30000 for rest keys, 1000 map loads for tiles keys)
  --rate      requests per second, 1 to 10000
  --key       the key's text instead of a random one (1 to 256 characters, no spaces or control characters)
  create and delete hold the keys file's lock (FILE.lock) while they read and write it, so concurrent edits all land.`;

/** `bando keys create|list|delete`: edits the keys file; prints the created key. */
export const keysCommand: CliCommand = {
  help: KEYS_HELP,
  flags: {
    kind: 'value',
    name: 'value',
    restrict: 'value',
    quota: 'value',
    rate: 'value',
    keys: 'value',
    key: 'value',
    json: 'switch',
  },
  run: async (args) => keys(args),
};

/** A key number from a flag, in the field's range (absent: undefined), or an Error naming the flag. */
function countFlag(args: ParsedArgs, name: string, field: keyof typeof KEY_NUMBER_RANGES): number | undefined {
  const v = flag(args, name);
  if (v === undefined) return undefined;
  const n = /^\d{1,16}$/.test(v) ? Number(v) : NaN;
  const problem = keyNumberProblem(field, n);
  if (problem) throw new Error(`--${name} ${problem}, got "${v}"`);
  return n;
}

/**
 * Reads the keys file, changes its list with `edit` and writes it back, all under the file's lock, so that two
 * edits at once (two `keys create` in a script) never read the same list and drop each other's key.
 */
function editKeysFile(path: string, edit: (keys: ApiKey[]) => ApiKey[], missingOk = true): void {
  // A file that must exist is named as missing before a lock file is made beside it.
  if (!missingOk) readKeysFile(path);
  withFileLock(`${path}.lock`, `keys file ${path}`, () => writeKeysFile(path, edit(readKeysFile(path, { missingOk }))));
}

function keys(args: ParsedArgs): number {
  const path = flag(args, 'keys') ?? DEFAULT_KEYS_FILE;
  const [action, target] = args.positional;
  switch (action) {
    case 'create': {
      const kind = flag(args, 'kind') ?? 'rest';
      if (kind !== 'rest' && kind !== 'tiles') throw new Error(`--kind must be rest or tiles, got "${kind}"`);
      const quota = countFlag(args, 'quota', 'monthlyQuota');
      const rate = countFlag(args, 'rate', 'perSecond');
      const secret = flag(args, 'key') ?? newKeySecret();
      const problem = keyTextProblem(secret);
      if (problem) throw new Error(`--key ${problem}`);
      const key: ApiKey = { key: secret, kind: kind as KeyKind, created: new Date().toISOString() };
      const name = flag(args, 'name');
      if (name) key.name = name;
      const restrict = args.flags.get('restrict');
      if (restrict) key.restrictions = restrict;
      if (quota !== undefined) key.monthlyQuota = quota;
      if (rate !== undefined) key.perSecond = rate;
      editKeysFile(path, (keys) => {
        if (keys.some((k) => k.key === secret)) throw new Error(`key ${secret} is already in ${path}`);
        // Refuses a bad --restrict pattern before anything is written.
        normalizeKeys([...keys, key]);
        return [...keys, key];
      });
      process.stdout.write(`${key.key}\n`);
      return 0;
    }
    case 'list': {
      const keys = readKeysFile(path);
      if (flag(args, 'json') === 'true') process.stdout.write(JSON.stringify(keys, null, 2) + '\n');
      else
        for (const k of normalizeKeys(keys))
          process.stdout.write(
            [
              k.key,
              k.kind,
              `quota=${k.monthlyQuota}/month`,
              k.perSecond ? `rate=${k.perSecond}/s` : '',
              k.restrictions.map((r) => r.source).join(' '),
              k.name ?? '',
            ]
              .filter(Boolean)
              .join('  ') + '\n',
          );
      return 0;
    }
    case 'delete': {
      if (!target) throw new Error(`keys delete needs the key\n${KEYS_HELP}`);
      editKeysFile(
        path,
        (keys) => {
          const rest = keys.filter((k) => k.key !== target);
          if (rest.length === keys.length) throw new Error(`key ${target} is not in ${path}`);
          return rest;
        },
        false,
      );
      process.stdout.write(`deleted ${target}\n`);
      return 0;
    }
    default:
      process.stderr.write(`${KEYS_HELP}\n`);
      return 2;
  }
}
