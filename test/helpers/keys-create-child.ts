/**
 * Child process of test/http-key-names.test.ts (issue 39 item 2): runs `bando keys create --keys FILE` `count` times
 * in a row through the CLI's own command, starting at the wall-clock time `startAt` (ms since the epoch) so that
 * all children edit the keys file at once. Prints each created key on its own line (the command's own output).
 */
import { parseArgs } from '../../src/adapters/cli/args.js';
import { keysCommand } from '../../src/adapters/cli/keys.js';

const [file, count, startAt] = process.argv.slice(2) as [string, string, string];
const wait = Number(startAt) - Date.now();
if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
for (let i = 0; i < Number(count); i++) await keysCommand.run(parseArgs(['create', '--keys', file], keysCommand.flags));
