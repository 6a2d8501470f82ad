/**
 * Opening a pack's ward polygons: a failed check of the data is reported as a corrupt pack naming the file, and a
 * fault of the code is not (it reaches the caller as it is, so the endpoints report it as an engine error).
 */
import Flatbush from 'flatbush';
import { describe, expect, it } from 'vitest';
import { isDataFailure, WARD_SECTIONS, WardPolygons } from '../src/admin/ward-polygons';
import { Pack, PackError } from '../src/pack/reader';
import { PackWriter } from '../src/pack/writer';

/** A pack of one square ward (1e-7 degree units) with `index` as its flatbush bytes. */
function wardPack(index: Uint8Array): Pack {
  const xy = new Int32Array([0, 0, 1000, 0, 1000, 1000, 0, 1000]);
  return Pack.from(
    new PackWriter()
      .addArray(WARD_SECTIONS.unit, new Int32Array([7]))
      .addArray(WARD_SECTIONS.partWard, new Uint32Array([0]))
      .addArray(WARD_SECTIONS.partRing, new Uint32Array([0, 1]))
      .addArray(WARD_SECTIONS.ringStart, new Uint32Array([0, 4]))
      .addArray(WARD_SECTIONS.xy, xy)
      .addBytes(WARD_SECTIONS.index, index)
      .finish(),
    { source: 'wards.pack' },
  );
}

describe('ward polygons at load', () => {
  it('a sound pack opens and names the ward of a point inside it', () => {
    const f = new Flatbush(1, 16, Int32Array);
    f.add(0, 0, 1000, 1000);
    f.finish();
    const wards = WardPolygons.fromPack(wardPack(new Uint8Array(f.data)))!;
    expect(wards.unitAt(0.00005, 0.00005)).toBe(7);
  });

  it('an index that is not a flatbush is a corrupt pack, named', () => {
    expect(() => WardPolygons.fromPack(wardPack(new Uint8Array(64).fill(3)))).toThrow(PackError);
    expect(() => WardPolygons.fromPack(wardPack(new Uint8Array(64).fill(3)))).toThrow(
      /wards\.pack: corrupt ward polygons: .*Flatbush/,
    );
  });

  it('only failed checks of the data count as corruption, never a fault of the code', () => {
    expect(isDataFailure(new Error('Data does not appear to be in a Flatbush format.'))).toBe(true);
    expect(isDataFailure(new RangeError('Invalid typed array length: 9'))).toBe(true);
    expect(isDataFailure(new TypeError('import_flatbush.default.from is not a function'))).toBe(false);
    expect(isDataFailure(new ReferenceError('x is not defined'))).toBe(false);
  });
});
