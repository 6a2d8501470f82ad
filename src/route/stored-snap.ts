/**
 * The snapping grid (SnapIndex) stored built in a pack (written by data-tools/stored-indexes.ts), so that the first
 * snap on a big pack does not list millions of segments cell by cell. Sections:
 * - `route.snap` (JSON): `{ version, cell, nx, ny, segments }`, the SnapGridLayout it was built for;
 * - `route.snap.first` (nx * ny + 1 byte offsets: an Offsets column, offsets.ts) and `route.snap.seg` (u8: each
 *   cell's segments as varint steps): the SnapGrid (snap-grid.ts).
 * Layout 1 (before 2026-12-03) stored `route.snap.seg` as u32: such a pack's grid is built at first use.
 * The grid is used only when its layout is the one the engine computes for the pack's graph; packs without the
 * sections build it at first use.
 */
import { readOffsets } from '../pack/offsets.js';
import { PackError, type Pack } from '../pack/reader.js';
import { snapGridProblem, type SnapGrid } from './snap-grid.js';
import type { SnapGridLayout } from './snap.js';

/** Layout version of the stored grid (2: segments as varint steps). */
export const SNAP_LAYOUT = 2;
/** Section names of the stored grid. */
export const SNAP_SECTIONS = { index: 'route.snap', first: 'route.snap.first', seg: 'route.snap.seg' } as const;

/**
 * The pack's stored grid for `layout`, or null when the pack has none or one of another layout. Throws PackError
 * naming the section when the arrays do not fit the layout (a pack opened without checksums).
 */
export function storedSnapGrid(pack: Pack, layout: SnapGridLayout): SnapGrid | null {
  if (!pack.has(SNAP_SECTIONS.index)) return null;
  const at = pack.json<SnapGridLayout & { version: number }>(SNAP_SECTIONS.index);
  if (
    at.version !== SNAP_LAYOUT ||
    at.cell !== layout.cell ||
    at.nx !== layout.nx ||
    at.ny !== layout.ny ||
    at.segments !== layout.segments
  )
    return null;
  const seg = pack.array(SNAP_SECTIONS.seg);
  const cells = layout.nx * layout.ny;
  const first = readOffsets(pack, SNAP_SECTIONS.first, { rows: cells, end: seg.length });
  const problem = seg instanceof Uint8Array ? snapGridProblem({ first, seg }, cells, layout.segments) : 'not bytes';
  if (problem)
    throw new PackError(pack.source, `corrupt: section "${SNAP_SECTIONS.seg}" does not fit the road graph: ${problem}`);
  return { first, seg: seg as Uint8Array };
}
