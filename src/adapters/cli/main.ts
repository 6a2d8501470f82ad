import { createEngine } from '../../engine.js';
import { parseArgs } from './args.js';
import { BUILD_PACK_HELP, buildPackCommand } from './build-pack.js';

const HELP = `bando — offline Vietnamese map service engine

Usage:
  bando info [--pack FILE ...]          counts and provenance of the packs
  ${BUILD_PACK_HELP.split('\n').join('\n  ')}
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const args = parseArgs(rest);
  switch (command) {
    case 'build-pack':
      await buildPackCommand(args);
      return 0;
    case 'info': {
      const engine = await createEngine({ packs: args.flags.get('pack') });
      process.stdout.write(JSON.stringify(engine.info(), null, 2) + '\n');
      return 0;
    }
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
