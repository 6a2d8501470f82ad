import { createEngine } from '../../engine.js';
import { parseArgs, type ParsedArgs } from './args.js';
import { ENDPOINT_COMMANDS, ENDPOINTS_HELP, endpointCommand } from './endpoints.js';
import { KEYS_HELP, keysCommand } from './keys.js';
import { SERVE_HELP, serveCommand } from './serve.js';
import { STATS_HELP, statsCommand } from './stats.js';

const indent = (text: string) => text.split('\n').join('\n  ');

/** A sub-command supplied by the program that runs the CLI (bin/bando.ts adds the pack builder's). */
export interface CliCommand {
  /** Usage lines for `bando help`. */
  help: string;
  /** Runs the command; resolves to the process exit code. */
  run(args: ParsedArgs): Promise<number>;
}

const help = (extra: Record<string, CliCommand>) => `bando — offline Vietnamese map service engine

Usage:
  bando info [--pack FILE ...]          counts and provenance of the packs
${Object.values(extra).map((c) => `  ${indent(c.help)}\n`).join('')}  ${indent(SERVE_HELP)}
  ${indent(KEYS_HELP)}
  ${indent(STATS_HELP)}
  ${indent(ENDPOINTS_HELP)}
`;

/**
 * Runs `bando` with its arguments (without the node and script paths).
 * @param extra sub-commands beyond the engine's own, by name
 * @returns the process exit code
 */
export async function runCli(argv: string[], extra: Record<string, CliCommand> = {}): Promise<number> {
  const [command, ...rest] = argv;
  const args = parseArgs(rest);
  if (command !== undefined && command in ENDPOINT_COMMANDS) return endpointCommand(command, args);
  if (command !== undefined && Object.hasOwn(extra, command)) return extra[command]!.run(args);
  switch (command) {
    case 'info': {
      const engine = await createEngine({ packs: args.flags.get('pack') });
      process.stdout.write(JSON.stringify(engine.info(), null, 2) + '\n');
      return 0;
    }
    case 'serve':
      await serveCommand(args);
      return 0;
    case 'keys':
      return keysCommand(args);
    case 'stats':
      return statsCommand(args);
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(help(extra));
      return 0;
    default:
      process.stderr.write(`unknown command "${command}"\n${help(extra)}`);
      return 2;
  }
}
