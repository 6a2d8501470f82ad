/**
 * The `bando build-pack` command: the pack builder (data-tools) behind the CLI. It lives with the builder so the
 * engine (src) never imports the builder; bin/bando.ts joins the two.
 */
import { accessSync, constants, existsSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { osmPack } from '../build-pack.js';
import { buildDimacsPack } from '../dimacs-pack.js';
import { vietnamAdmin } from '../admin-bundle.js';
import { Progress } from '../progress.js';
import { writePackFile } from '../pack-file.js';
import { flag, type ParsedArgs } from '../../src/adapters/cli/args.js';
import type { CliCommand } from '../../src/adapters/cli/run.js';

const HELP = `bando build-pack --input FILE [--input FILE ...] --output FILE.pack [--name NAME] [--admin DIR] [--ch] [--quiet]
  Inputs: OSM PBF, OSM XML, Overpass JSON (several, merged by element id; later inputs win), GeoJSON features as
  places (OSM-style properties, or name_vi / name_en / category / osm_id; a feature with an OSM id merges with that
  element), or a DIMACS road graph as two inputs: the .gr arcs and the .co coordinates (gzipped or plain).
  --admin DIR   Vietnamese administrative units (the folder holding vn-legacy/, vn-2025/, vn-2025-communes/ and,
                optional, vn-2025-boundaries/: with the official ward polygons every place gets the 2025 ward that
                holds it, and the pack keeps the polygons of its area for reverse geocoding).
  --ch          Also contract per-vehicle contraction hierarchies. Without them (the default) a pack routes every
                vehicle by its customizable hierarchy (one order for every vehicle; each vehicle's metric is made
                when it is first routed, about a second on a whole city). With them a pack is about three times
                the size and takes twice as long to build, for tables and trips about a tenth quicker.
                (--no-ch, the default, is still accepted.)
  BANDO_BUILD_MEMORY=1 in the environment logs each phase's time and memory (where a build's peak comes from).`;

/** `bando build-pack`: builds a pack file from OSM (and GeoJSON) or DIMACS inputs. */
export const buildPackCommand: CliCommand = {
  help: HELP,
  flags: {
    input: 'value',
    output: 'value',
    name: 'value',
    admin: 'value',
    ch: 'switch',
    'no-ch': 'switch',
    quiet: 'switch',
  },
  run: buildPack,
};

/**
 * Checks every path before the (long) build: each --input a readable file, --admin a folder, --output's folder
 * existing and writable, so a typo fails at once with the flag named instead of a raw ENOENT after the work.
 */
function checkPaths(inputs: readonly string[], output: string, adminDir: string | undefined): void {
  for (const input of inputs) {
    if (!existsSync(input) || !statSync(input).isFile()) throw new Error(`--input ${input}: no such file`);
  }
  if (adminDir !== undefined && (!existsSync(adminDir) || !statSync(adminDir).isDirectory()))
    throw new Error(`--admin ${adminDir}: no such folder`);
  const folder = dirname(resolve(output));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new Error(`--output ${output}: the folder ${folder} does not exist`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new Error(`--output ${output}: the folder ${folder} is not writable`);
  }
}

async function buildPack(args: ParsedArgs): Promise<number> {
  const inputs = args.flags.get('input') ?? [];
  const output = flag(args, 'output');
  if (inputs.length === 0 || !output) throw new Error(`missing --input or --output\n${HELP}`);
  checkPaths(inputs, output, flag(args, 'admin'));
  const name = flag(args, 'name') ?? basename(output).replace(/\.pack$/, '');
  const progress = new Progress(process.stderr, flag(args, 'quiet') === 'true');
  if (flag(args, 'ch') === 'true' && flag(args, 'no-ch') === 'true') throw new Error('--ch and --no-ch: give one');
  const hierarchies = flag(args, 'ch') === 'true';
  const gr = inputs.find((f) => /\.gr(\.gz)?$/.test(f));
  const co = inputs.find((f) => /\.co(\.gz)?$/.test(f));
  if (gr || co) {
    if (!gr || !co || inputs.length !== 2)
      throw new Error('a DIMACS pack needs exactly two inputs: the .gr and the .co file');
    progress.step('reading the DIMACS graph');
    const bytes = await buildDimacsPack(gr, co, name, hierarchies ? {} : false);
    progress.done(`${name}: ${(bytes.length / 1e6).toFixed(2)} MB`);
    writeFileSync(output, bytes);
  } else {
    const adminDir = flag(args, 'admin');
    const pack = osmPack({
      inputs,
      name,
      progress,
      admin: adminDir ? vietnamAdmin(adminDir) : null,
      hierarchies,
    });
    // Section by section: no copy of the whole pack in memory, and packs past 4 GiB (format version 2).
    writePackFile(pack, output);
  }
  return 0;
}
