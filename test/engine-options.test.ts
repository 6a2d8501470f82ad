import { describe, expect, it } from 'vitest';
import { createEngine, type EngineOptions } from '../src/engine.js';
import { defaultStyle } from '../src/map/style/default-style.js';
import { validateStyle } from '../src/style/validate-style.js';

/** Options as plain JavaScript may pass them: the types would refuse these, the run-time check must. */
const loose = (o: unknown) => createEngine(o as EngineOptions);

describe('createEngine checks its options before loading anything', () => {
  it('a string for packs is refused with the array it should have been', async () => {
    await expect(loose({ packs: 'x.pack' })).rejects.toThrow(/packs must be an array .*\["x\.pack"\]/);
  });
  it('an unknown key is refused, with the key meant when it is a known slip', async () => {
    await expect(loose({ pack: 'x.pack' })).rejects.toThrow(/unknown option "pack" \(did you mean packs\?\)/);
    await expect(loose({ colour: 'red' })).rejects.toThrow(
      /unknown option "colour"; the options are packs, verify, style, wasm, limits/,
    );
  });
  it('bad pack entries, booleans and non-objects are named', async () => {
    await expect(loose({ packs: ['a.pack', 42] })).rejects.toThrow(/packs\[1\] must be a file path/);
    await expect(loose({ verify: 'yes' })).rejects.toThrow(/verify must be 'lazy', true or false/);
    await expect(loose({ wasm: 1 })).rejects.toThrow(/wasm must be true or false/);
    await expect(loose('hanoi.pack')).rejects.toThrow(/options must be an object/);
    await expect(loose(null)).rejects.toThrow(/options must be an object/);
  });
  it('a style validateStyle refuses is refused with its errors and their paths; a valid one loads', async () => {
    const style = defaultStyle('http://localhost') as { layers: { type: string; paint?: object }[] };
    expect(validateStyle(style).errors).toEqual([]);
    const i = style.layers.findIndex((l) => l.type === 'line');
    const broken = structuredClone(style);
    broken.layers[i]!.paint = { ...broken.layers[i]!.paint, 'line-width': -1 };
    const { errors } = validateStyle(broken);
    expect(errors.map((e) => e.path)).toEqual([`layers[${i}].paint.line-width`]);
    await expect(createEngine({ style: broken })).rejects.toThrow(TypeError);
    await expect(createEngine({ style: broken })).rejects.toThrow(
      `createEngine: style is not valid (style-layers.md): layers[${i}].paint.line-width: ${errors[0]!.message}`,
    );
    await expect(loose({ style: 'dark' })).rejects.toThrow(/style is not valid .*a style must be an object/);
    const engine = await createEngine({ style });
    expect(engine.style).toBe(style);
  });
  it("good options still load (a missing file is the loader's error, naming it)", async () => {
    await expect(createEngine({ packs: ['no-such.pack'], verify: true, wasm: false })).rejects.toThrow(/no-such\.pack/);
  });
});
