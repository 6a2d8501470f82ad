import { isOffsetArray } from '../pack/offsets.js';
import type { Pack } from '../pack/reader.js';
import { PackError } from '../pack/reader.js';

/** Basemap features of a pack as zero-copy views (layout in data-tools/basemap.ts). */
export class Basemap {
  readonly kind: Uint8Array;
  readonly type: Uint8Array;
  readonly name: Uint32Array;
  readonly bbox: Int32Array;
  readonly featPart: Uint32Array;
  readonly partFirst: Uint32Array;
  readonly lat: Int32Array;
  readonly lon: Int32Array;
  readonly count: number;
  /** The pack's identity (Pack.identity): equal in every thread that opens the same pack's bytes. */
  readonly identity: string;

  constructor(pack: Pack) {
    this.identity = pack.identity;
    this.kind = pack.array('map.kind');
    this.type = pack.array('map.type');
    this.name = pack.array('map.name');
    this.bbox = pack.array('map.bbox');
    this.featPart = pack.array('map.featPart');
    this.partFirst = pack.array('map.partFirst');
    this.lat = pack.array('map.lat');
    this.lon = pack.array('map.lon');
    this.count = this.kind.length;
    const ok =
      this.type.length === this.count &&
      this.name.length === this.count &&
      this.bbox.length === 4 * this.count &&
      this.featPart.length === this.count + 1 &&
      isOffsetArray(this.featPart, this.partFirst.length - 1) &&
      isOffsetArray(this.partFirst, this.lat.length) &&
      this.lon.length === this.lat.length;
    if (!ok) throw new PackError(pack.source, 'corrupt basemap: arrays do not match');
  }
}
