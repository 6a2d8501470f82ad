#!/usr/bin/env node
import { createEngine } from '../../engine.js';
import { parseArgs } from './args.js';
import { BUILD_PACK_HELP, buildPackCommand } from './build-pack.js';
import { ENDPOINT_COMMANDS, ENDPOINTS_HELP, endpointCommand } from './endpoints.js';
import { KEYS_HELP, keysCommand } from './keys.js';
import { SERVE_HELP, serveCommand } from './serve.js';
import { STATS_HELP, statsCommand } from './stats.js';

const indent = (text: string) => text.split('\n').join('\n  ');

const HELP = `bando — offline Vietnamese map service engine

Usage:
  bando info [--pack FILE ...]          counts and provenance of the packs
  ${indent(BUILD_PACK_HELP)}
  ${indent(SERVE_HELP)}
  ${indent(KEYS_HELP)}
  ${indent(STATS_HELP)}
  ${indent(ENDPOINTS_HELP)}
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const args = parseArgs(rest);
  if (command !== undefined && command in ENDPOINT_COMMANDS) return endpointCommand(command, args);
  switch (command) {
    case 'build-pack':
      await buildPackCommand(args);
      return 0;
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
      process.stdout.write(HELP);
      return 0;
    default:
      process.stderr.write(`unknown command "${command}"\n${HELP}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`bando: ${err.message}\n`);
    process.exit(1);
  },
);
