/**
 * Command-line arguments: `--flag value`, `--flag=value`, repeated flags collected in order, and `key=value` words
 * (the REST query parameters of the endpoint sub-commands).
 */
export interface ParsedArgs {
  flags: Map<string, string[]>;
  params: Record<string, string>;
  positional: string[];
}

/** Flags that take no value. */
const SWITCHES = new Set(['dev', 'quiet', 'help', 'no-verify', 'allow-http', 'trust-proxy', 'json']);

export function parseArgs(argv: string[]): ParsedArgs {
  const flags = new Map<string, string[]>();
  const params: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = a.slice(2, eq < 0 ? undefined : eq);
      const value = eq >= 0 ? a.slice(eq + 1) : SWITCHES.has(name) ? 'true' : argv[++i];
      if (value === undefined) throw new Error(`--${name} needs a value`);
      flags.set(name, [...(flags.get(name) ?? []), value]);
    } else if (/^[A-Za-z_]+=/.test(a)) {
      const eq = a.indexOf('=');
      params[a.slice(0, eq)] = a.slice(eq + 1);
    } else {
      positional.push(a);
    }
  }
  return { flags, params, positional };
}

/** The last value of a flag. */
export function flag(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return v?.[v.length - 1];
}
