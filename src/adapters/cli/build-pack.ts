import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { buildOsmPack } from '../../../data-tools/build-pack.js';
import { buildDimacsPack } from '../../../data-tools/dimacs-pack.js';
import { vietnamAdmin } from '../../../data-tools/admin-bundle.js';
import { Progress } from '../../../data-tools/progress.js';
import { flag, type ParsedArgs } from './args.js';

export const BUILD_PACK_HELP = `bando build-pack --input FILE [--input FILE ...] --output FILE.pack [--name NAME] [--admin DIR] [--quiet]
  Inputs: OSM PBF, OSM XML, Overpass JSON (several, merged by element id; later inputs win),
  or a DIMACS road graph as two inputs: the .gr arcs and the .co coordinates (gzipped or plain).
  --admin DIR   Vietnamese administrative units (the folder holding vn-legacy/, vn-2025/, vn-2025-communes/ and,
                optional, vn-2025-boundaries/: with the official ward polygons every place gets the 2025 ward that
                holds it, and the pack keeps the polygons of its area for reverse geocoding).`;

/** `bando build-pack`: builds a pack file from OSM or DIMACS inputs. */
export async function buildPackCommand(args: ParsedArgs): Promise<void> {
  const inputs = args.flags.get('input') ?? [];
  const output = flag(args, 'output');
  if (inputs.length === 0 || !output) throw new Error(`missing --input or --output\n${BUILD_PACK_HELP}`);
  const name = flag(args, 'name') ?? basename(output).replace(/\.pack$/, '');
  const progress = new Progress(process.stderr, flag(args, 'quiet') === 'true');
  const gr = inputs.find((f) => /\.gr(\.gz)?$/.test(f));
  const co = inputs.find((f) => /\.co(\.gz)?$/.test(f));
  let bytes: Uint8Array;
  if (gr || co) {
    if (!gr || !co || inputs.length !== 2) throw new Error('a DIMACS pack needs exactly two inputs: the .gr and the .co file');
    progress.step('reading the DIMACS graph');
    bytes = await buildDimacsPack(gr, co, name);
    progress.done(`${name}: ${(bytes.length / 1e6).toFixed(2)} MB`);
  } else {
    const adminDir = flag(args, 'admin');
    bytes = buildOsmPack({ inputs, name, progress, admin: adminDir ? vietnamAdmin(adminDir) : null });
  }
  writeFileSync(output, bytes);
}
