/**
 * Builds the embedded default pack, packs/hanoi.pack (central Hanoi), from the Hanoi files of the shared real
 * data (oldest first, so newer extracts win for the same element), with the Vietnamese admin units.
 * Usage: npm run build:packs [-- --data DIR]   (DIR defaults to ../shared/data beside the repository)
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { vietnamAdmin } from './admin-bundle.js';
import { buildOsmPack } from './build-pack.js';
import { Progress } from './progress.js';
import { HANOI_INPUTS } from './hanoi-inputs.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const dataArg = process.argv.indexOf('--data');
const data = dataArg > 0 ? process.argv[dataArg + 1]! : join(root, '../shared/data');

const bytes = buildOsmPack({
  inputs: HANOI_INPUTS.map((f) => join(data, 'osm', f)),
  name: 'hanoi',
  admin: vietnamAdmin(join(data, 'admin')),
  progress: new Progress(process.stderr),
});
writeFileSync(join(root, 'packs/hanoi.pack'), bytes);
