/**
 * The `bando` program: the engine's commands (src/adapters/cli) joined with the pack builder's (data-tools), so
 * that neither imports the other's layer.
 */
import { buildPackCommand } from '../data-tools/cli/build-pack.js';
import { runCli } from '../src/adapters/cli/run.js';

runCli(process.argv.slice(2), { 'build-pack': buildPackCommand }).then(
  (code) => process.exit(code),
  (err: Error) => {
    process.stderr.write(`bando: ${err.message}\n`);
    process.exit(1);
  },
);
