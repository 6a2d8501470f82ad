import { readOffsets, type Offsets } from '../pack/offsets.js';
import type { Pack } from '../pack/reader.js';
import { PackError } from '../pack/reader.js';
import { readPart, type PartPoints } from './part-points.js';

/**
 * Basemap features of a pack as zero-copy views (layout in data-tools/basemap.ts), their points read part by part
 * from the steps the pack stores (part-points.ts) when drawn: opening one reads nothing.
 */
export class Basemap {
  readonly kind: Uint8Array;
  readonly type: Uint8Array;
  readonly name: Uint32Array;
  /** F × 4 box of each feature's points, 1e-7 degrees: least longitude and latitude, then greatest. */
  readonly bbox: Int32Array;
  /** F + 1 offsets: feature f's parts are featPart.at(f) .. featPart.at(f + 1) - 1. */
  readonly featPart: Offsets;
  /** P + 1 offsets: part p's points are partFirst.at(p) .. partFirst.at(p + 1) - 1. */
  readonly partFirst: Offsets;
  /** Points of every part. */
  readonly pointCount: number;
  readonly count: number;
  /** The parts' points as the pack stores them (part-points.ts); null in a pack from before, which stores them whole. */
  private readonly packed: PartPoints | null;
  /** The points whole (1e-7 degrees), in a pack from before `packed`; else empty. */
  private readonly lat: Int32Array;
  private readonly lon: Int32Array;
  /** The pack's identity (Pack.identity): equal in every thread that opens the same pack's bytes. */
  readonly identity: string;

  constructor(pack: Pack) {
    this.identity = pack.identity;
    this.kind = pack.array('map.kind');
    this.type = pack.array('map.type');
    this.name = pack.array('map.name');
    this.bbox = pack.array('map.bbox');
    this.count = this.kind.length;
    this.partFirst = readOffsets(pack, 'map.partFirst');
    const parts = Math.max(0, this.partFirst.length - 1);
    this.pointCount = parts > 0 ? this.partFirst.at(parts) : 0;
    this.featPart = readOffsets(pack, 'map.featPart', { rows: this.count, end: parts });
    const whole = !pack.has('map.xy');
    const xy = whole ? new Uint8Array(0) : pack.array<Uint8Array>('map.xy');
    this.packed = whole
      ? null
      : { xy, at: readOffsets(pack, 'map.at', { rows: parts, end: xy.length }), origin: pack.array('map.origin') };
    this.lat = whole ? pack.array('map.lat') : new Int32Array(0);
    this.lon = whole ? pack.array('map.lon') : new Int32Array(0);
    const ok =
      this.type.length === this.count &&
      this.name.length === this.count &&
      this.bbox.length === 4 * this.count &&
      (whole ? this.lat.length === this.pointCount && this.lon.length === this.pointCount : this.packedFits());
    if (!ok) throw new PackError(pack.source, 'corrupt basemap: arrays do not match');
  }

  /** Calls visit(lon, lat) for each point of part p (1e-7 degrees), in order. */
  forEachPoint(p: number, visit: (lon: number, lat: number) => void): void {
    const first = this.partFirst.at(p),
      end = this.partFirst.at(p + 1);
    if (this.packed) readPart(this.packed, p, end - first, visit);
    else for (let i = first; i < end; i++) visit(this.lon[i]!, this.lat[i]!);
  }

  /** Part p's points, interleaved: longitude, latitude (1e-7 degrees), point after point. */
  partCoords(p: number): Int32Array {
    const out = new Int32Array(2 * (this.partFirst.at(p + 1) - this.partFirst.at(p)));
    let k = 0;
    this.forEachPoint(p, (lon, lat) => {
      out[k++] = lon;
      out[k++] = lat;
    });
    return out;
  }

  /**
   * Whether `packed` has bytes and an origin (its offsets, a part's into the bytes, were checked when read). A part's
   * bytes are read no further than its end, so a part whose bytes do not hold its points (a corrupt pack opened
   * without checksums) is drawn wrong, never read past.
   */
  private packedFits(): boolean {
    const { xy, origin } = this.packed!;
    return xy instanceof Uint8Array && origin instanceof Int32Array && origin.length === 2;
  }
}
