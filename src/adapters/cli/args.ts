/**
 * Command-line arguments: `--flag value`, `--flag=value`, repeated flags collected in order, `-h` for `--help`, and
 * `key=value` words (the REST query parameters of the endpoint sub-commands), percent-decoded as a URL query is
 * (`%7C` is `|`, `+` a space), so values copied from a URL work as typed. A pasted query string
 * (`origin=…&destination=…`) or a whole URL (`https://host/Direction?origin=…`) gives its parameters; a parameter
 * given twice counts by its first value, as the REST server reads a query.
 */
import type { FlagKind } from './command.js';
import { didYouMean } from './suggest.js';

/** A word that is a URL with a query: `http(s)://…?…`, or a path or query alone (`/Direction?…`, `?origin=…`). */
const URL_WORD = /^(?:https?:\/\/[^?]*|\/[^?\s]*)?\?/;
/** A `name=value` word. */
const PARAM_WORD = /^[A-Za-z_]+=/;

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
      if (!kind) throw new Error(`unknown flag --${name}${didYouMean(name, [...Object.keys(table), 'help'], '--')}`);
      const value = eq >= 0 ? a.slice(eq + 1) : kind === 'switch' ? 'true' : argv[++i];
      if (value === undefined) throw new Error(`--${name} needs a value`);
      if (kind === 'switch' && value !== 'true' && value !== 'false')
        throw new Error(`--${name} must be true or false, got "${value}"`);
      flags.set(name, [...(flags.get(name) ?? []), value]);
    } else if (PARAM_WORD.test(a) || URL_WORD.test(a)) {
      for (const word of queryWords(a)) {
        const eq = word.indexOf('=');
        // A repeated parameter counts by its first value, as the REST server reads a query.
        const name = word.slice(0, eq);
        if (!Object.hasOwn(params, name)) params[name] = queryDecode(word.slice(eq + 1));
      }
    } else {
      positional.push(a);
    }
  }
  return { flags, params, positional };
}

/**
 * The `name=value` words of one argument: a URL's query split at `&` (its fragment dropped), a query string split at
 * `&` when every part is `name=…`, else the word itself (so `address=A&B` keeps its `&`).
 */
function queryWords(word: string): string[] {
  const url = URL_WORD.exec(word);
  const query = url ? word.slice(url[0].length).split('#')[0]! : word;
  const parts = query.split('&').filter((p) => p !== '');
  if (url) return parts.filter((p) => PARAM_WORD.test(p));
  return parts.every((p) => PARAM_WORD.test(p)) ? parts : [word];
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
