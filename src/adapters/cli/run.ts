import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../../engine.js';
import { parseArgs, type ParsedArgs } from './args.js';
import type { CliCommand } from './command.js';
import { ENDPOINTS_HELP, endpointCommands } from './endpoints.js';
import { keysCommand } from './keys.js';
import { serveCommand } from './serve.js';
import { statsCommand } from './stats.js';
import { didYouMean } from './suggest.js';

export type { CliCommand } from './command.js';

const indent = (text: string) => text.split('\n').join('\n  ');

/** `bando info`: counts and provenance of the packs. */
const infoCommand: CliCommand = {
  help: 'bando info [--pack FILE ...]          counts and provenance of the packs',
  flags: { pack: 'value' },
  run: async (args: ParsedArgs) => {
    const engine = await createEngine({ packs: args.flags.get('pack') });
    process.stdout.write(JSON.stringify(engine.info(), null, 2) + '\n');
    return 0;
  },
};

const help = (extra: Record<string, CliCommand>) => `bando — offline Vietnamese map service engine

Usage:
  ${indent(infoCommand.help)}
${Object.values(extra)
  .map((c) => `  ${indent(c.help)}\n`)
  .join('')}  ${indent(serveCommand.help)}
  ${indent(keysCommand.help)}
  ${indent(statsCommand.help)}
  ${indent(ENDPOINTS_HELP)}
  bando help [COMMAND], bando COMMAND --help (or -h): usage; bando --version: the version.
`;

/** The package's version, from the package.json above this module (dist/ in the package, src/ in a clone). */
function version(): string {
  for (const up of ['../package.json', '../../../package.json']) {
    const file = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'bando' && pkg.version) return pkg.version;
    }
  }
  return 'unknown';
}

/**
 * Runs `bando` with its arguments (without the node and script paths). Each sub-command's arguments are parsed
 * against its flag table first: `--help`/`-h` prints its usage and never runs it; an unknown flag prints the
 * usage and exits 2.
 * @param extra sub-commands beyond the engine's own, by name
 * @returns the process exit code
 */
export async function runCli(argv: string[], extra: Record<string, CliCommand> = {}): Promise<number> {
  const [name, ...rest] = argv;
  const commands: Record<string, CliCommand> = {
    info: infoCommand,
    serve: serveCommand,
    keys: keysCommand,
    stats: statsCommand,
    ...endpointCommands,
    ...extra,
  };
  switch (name) {
    case '--version':
    case '-v':
    case 'version':
      process.stdout.write(`bando ${version()}\n`);
      return 0;
    case undefined:
    case '--help':
    case '-h':
      process.stdout.write(help(extra));
      return 0;
    case 'help': {
      const topic = rest[0] !== undefined && Object.hasOwn(commands, rest[0]) ? commands[rest[0]]! : undefined;
      process.stdout.write(topic ? `${topic.help}\n` : help(extra));
      return 0;
    }
  }
  if (!Object.hasOwn(commands, name)) {
    process.stderr.write(`unknown command "${name}"${didYouMean(name, Object.keys(commands))}\n${help(extra)}`);
    return 2;
  }
  const command = commands[name]!;
  let args: ParsedArgs;
  try {
    args = parseArgs(rest, command.flags);
  } catch (err) {
    process.stderr.write(`bando ${name}: ${(err as Error).message}\n${command.help}\n`);
    return 2;
  }
  if (args.flags.has('help')) {
    process.stdout.write(`${command.help}\n`);
    return 0;
  }
  return command.run(args);
}
