/**
 * Command-line arguments: `--flag value`, `--flag=value`, repeated flags collected in order, `-h` for `--help`, and
 * `key=value` words (the REST query parameters of the endpoint sub-commands), percent-decoded as a URL query is
 * (`%7C` is `|`, `+` a space), so values copied from a URL work as typed.
 */
import type { FlagKind } from './command.js';

export interface ParsedArgs {
  flags: Map<string, string[]>;
  params: Record<string, string>;
  positional: string[];
}

/**
 * Parses a sub-command's arguments against its flag table. Throws an Error naming the flag when it is not in the
 * table, lacks its value, or is a switch given a value other than `true` or `false` (`--work-ahead=false`). `help`
 * (also `-h`) is always a switch.
 */
export function parseArgs(argv: readonly string[], table: Readonly<Record<string, FlagKind>> = {}): ParsedArgs {
  const flags = new Map<string, string[]>();
  const params: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-h' || a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a === '-h' ? 'help' : a.slice(2, eq < 0 ? undefined : eq);
      const kind = name === 'help' ? 'switch' : table[name];
      if (!kind) throw new Error(`unknown flag --${name}`);
      const value = eq >= 0 ? a.slice(eq + 1) : kind === 'switch' ? 'true' : argv[++i];
      if (value === undefined) throw new Error(`--${name} needs a value`);
      if (kind === 'switch' && value !== 'true' && value !== 'false')
        throw new Error(`--${name} must be true or false, got "${value}"`);
      flags.set(name, [...(flags.get(name) ?? []), value]);
    } else if (/^[A-Za-z_]+=/.test(a)) {
      const eq = a.indexOf('=');
      params[a.slice(0, eq)] = queryDecode(a.slice(eq + 1));
    } else {
      positional.push(a);
    }
  }
  return { flags, params, positional };
}

/**
 * A query value as a URL carries it: `+` is a space and each run of valid `%XX` escapes is UTF-8 decoded; a `%` not
 * starting a valid escape stays as typed. Unlike a whole query string, `&` is kept (one word is one parameter).
 */
function queryDecode(value: string): string {
  return value.replace(/\+/g, ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run; // not UTF-8: left as typed, and the endpoint reports the parameter
    }
  });
}

/** The last value of a flag. */
export function flag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return v?.[v.length - 1];
}
