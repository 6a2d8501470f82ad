import type { ParsedArgs } from './args.js';

/** How a flag reads its value: a `switch` takes none (`--dev`), a `value` takes one (`--port 80`, `--port=80`). */
export type FlagKind = 'switch' | 'value';

/**
 * One `bando` sub-command: its usage text and its flag table (without the leading `--`). The CLI parses the
 * arguments against the table, so an unknown flag is refused with the command's usage, and `--help`/`-h` (every
 * command's, not listed) prints the usage and never runs the command. A new flag is one entry in the table, one
 * line in the usage and a `flag(args, name)` in `run`. A `value` flag may be repeated; `args.flags` keeps all.
 */
export interface CliCommand {
  /** Usage lines, printed by `bando help`, `bando <command> --help` and after a usage error. */
  help: string;
  /** The command's flags by name. */
  flags: Readonly<Record<string, FlagKind>>;
  /** Runs the command; resolves to the process exit code. */
  run(args: ParsedArgs): Promise<number>;
}
