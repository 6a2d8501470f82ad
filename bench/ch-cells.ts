/**
 * How well ranges of the spatial key cut a pack's hierarchies into cells (data-tools/ch-partition.ts): per
 * hierarchy (vehicle) and cell size, the cells, the share of states on a cell boundary (they make the overlay that
 * is contracted next) overall and per cell (min, median, max). Partitioned contraction pays only when this share is
 * small. Reads a pack file (argument; default the NY pack that build-scale caches) and its base graphs; contracts
 * nothing. Run: npx tsx bench/ch-cells.ts [pack] (or npm run bench -- ch-cells).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cutLevel, inKeyOrder } from '../data-tools/ch-partition.js';
import { Pack } from '../src/pack/reader.js';
import { VEHICLES } from '../src/route/profiles.js';
import { vehicleGraphs } from '../test/helpers/ch-check.js';
import { quantile, table } from './stats.js';

const file = process.argv[2] ?? fileURLToPath(new URL('../.cache/build-scale/ny/ny-1x1.pack', import.meta.url));
const pack = Pack.from(new Uint8Array(readFileSync(file)));
const rows: Record<string, string | number>[] = [];
vehicleGraphs(pack).forEach((base, v) => {
  const { g } = inKeyOrder(base);
  for (const cellStates of [32_768, 65_536, 131_072]) {
    const cut = cutLevel(g, cellStates);
    const share: number[] = [];
    for (let c = 0; c + 1 < cut.bounds.length; c++) {
      let b = 0;
      for (let s = cut.bounds[c]!; s < cut.bounds[c + 1]!; s++) b += cut.boundary[s]!;
      share.push(b / (cut.bounds[c + 1]! - cut.bounds[c]!));
    }
    const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
    rows.push({
      vehicle: VEHICLES[[0, 1, 3][v]!]!,
      states: g.states,
      'cell states': cellStates,
      cells: share.length,
      boundary: pct(cut.boundaryOf.reduce((x, y) => x + y, 0) / g.states),
      'per cell min / p50 / max': `${pct(Math.min(...share))} / ${pct(quantile(share, 0.5))} / ${pct(Math.max(...share))}`,
    });
  }
});
table('boundary states per cell (ranges of the spatial key)', rows);
