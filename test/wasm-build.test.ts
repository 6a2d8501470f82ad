import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildWasm,
  CCH_WASM_OUT,
  CONTRACT_WASM_OUT,
  RASTER_WASM_OUT,
  WASM_OUT,
  wasmToolchain,
} from '../data-tools/build-wasm.js';

const toolchain = wasmToolchain();
if (!toolchain)
  console.log(
    'wasm-build: skipped, no /usr/bin/rustc with the wasm32-unknown-unknown std (apt-get install rustc libstd-rust-dev-wasm32 lld)',
  );

describe('the committed WebAssembly core', () => {
  it('is a small WebAssembly module exporting the searches', () => {
    const bytes = readFileSync(WASM_OUT);
    expect(bytes.length).toBeLessThan(64 * 1024);
    const names = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['memory', 'alloc', 'route', 'one_to_many', 'ch_route', 'ch_table']));
    expect(WebAssembly.Module.imports(new WebAssembly.Module(bytes))).toEqual([]);
  });

  it.skipIf(!toolchain)('is what a rebuild from wasm/src gives, byte for byte', () => {
    const rebuilt = buildWasm();
    expect(Buffer.from(rebuilt).equals(readFileSync(WASM_OUT))).toBe(true);
  });
});

describe("the committed WebAssembly contraction (the pack builder's)", () => {
  it('is a small module exporting the contraction and importing only its progress report', () => {
    const mod = new WebAssembly.Module(readFileSync(CONTRACT_WASM_OUT));
    expect(readFileSync(CONTRACT_WASM_OUT).length).toBeLessThan(64 * 1024);
    expect(WebAssembly.Module.exports(mod).map((e) => e.name)).toEqual(
      expect.arrayContaining(['memory', 'prepare', 'contract']),
    );
    expect(WebAssembly.Module.imports(mod)).toEqual([{ module: 'env', name: 'progress', kind: 'function' }]);
  });

  it.skipIf(!toolchain)('is what a rebuild from wasm/contract gives, byte for byte', () => {
    expect(Buffer.from(buildWasm('contract')).equals(readFileSync(CONTRACT_WASM_OUT))).toBe(true);
  });
});

describe("the committed WebAssembly raster kernel (the static map's)", () => {
  it('is a small module exporting the kernels and importing nothing', () => {
    const mod = new WebAssembly.Module(readFileSync(RASTER_WASM_OUT));
    expect(readFileSync(RASTER_WASM_OUT).length).toBeLessThan(64 * 1024);
    expect(WebAssembly.Module.exports(mod).map((e) => e.name)).toEqual(
      expect.arrayContaining(['memory', 'init', 'fill', 'stroke', 'flush']),
    );
    expect(WebAssembly.Module.imports(mod)).toEqual([]);
  });

  it.skipIf(!toolchain)('is what a rebuild from wasm/raster gives, byte for byte', () => {
    expect(Buffer.from(buildWasm('raster')).equals(readFileSync(RASTER_WASM_OUT))).toBe(true);
  });
});

describe('the committed WebAssembly search of the customizable hierarchy', () => {
  it('exports the search and imports one shared memory of up to 4 GiB', () => {
    const mod = new WebAssembly.Module(readFileSync(CCH_WASM_OUT));
    expect(WebAssembly.Module.exports(mod).map((e) => e.name)).toEqual(
      expect.arrayContaining(['search', '__heap_base']),
    );
    expect(WebAssembly.Module.imports(mod)).toEqual([{ module: 'env', name: 'memory', kind: 'memory' }]);
    // A module whose memory import is not shared would refuse a shared memory (and the reverse).
    expect(() => new WebAssembly.Instance(mod, { env: { memory: new WebAssembly.Memory({ initial: 2 }) } })).toThrow();
    const memory = new WebAssembly.Memory({ initial: 2, maximum: 65536, shared: true });
    expect(new WebAssembly.Instance(mod, { env: { memory } }).exports.search).toBeTypeOf('function');
  });

  it.skipIf(!toolchain)('is what a rebuild from wasm/cch gives, byte for byte', () => {
    expect(Buffer.from(buildWasm('cch')).equals(readFileSync(CCH_WASM_OUT))).toBe(true);
  });
});
