/**
 * Builds the WebAssembly modules with Debian's rustc for wasm32-unknown-unknown (apt-get install rustc
 * libstd-rust-dev-wasm32 lld): the route core (wasm/src → src/route/wasm/bando-route.wasm), the static map's raster
 * kernel (wasm/raster → src/render/raster/bando-raster.wasm), the customizable hierarchy's search (wasm/cch →
 * src/route/wasm/bando-cch.wasm) and the pack builder's contraction (wasm/contract →
 * data-tools/ch-contract.wasm). The flags make the output depend only on the sources
 * and the toolchain: no debug info, no symbols, one codegen unit, the checkout's path remapped.
 * Run: npm run build:wasm   (or: node --import tsx data-tools/build-wasm.ts [route.wasm [contract.wasm [raster.wasm [cch.wasm]]]])
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian's rustc (rustup's, if first on PATH, usually lacks the wasm32 standard library). */
export const RUSTC = '/usr/bin/rustc';
/** Where the toolchain's wasm32 standard library lives. */
export const WASM_STD = '/usr/lib/rustlib/wasm32-unknown-unknown';
/** The committed build outputs, next to their loaders. */
export const WASM_OUT = fileURLToPath(new URL('../src/route/wasm/bando-route.wasm', import.meta.url));
export const CONTRACT_WASM_OUT = fileURLToPath(new URL('./ch-contract.wasm', import.meta.url));
export const RASTER_WASM_OUT = fileURLToPath(new URL('../src/render/raster/bando-raster.wasm', import.meta.url));
export const CCH_WASM_OUT = fileURLToPath(new URL('../src/route/wasm/bando-cch.wasm', import.meta.url));

/**
 * The modules the engine loads at run time from beside its code (src/wasm-file.ts): repository path and file name.
 * Every bundle of the engine has them copied next to it (tsup.config.ts, the test and bench bundles).
 */
export const RUNTIME_WASM = [
  { path: 'src/route/wasm/bando-route.wasm', name: 'bando-route.wasm' },
  { path: 'src/render/raster/bando-raster.wasm', name: 'bando-raster.wasm' },
  { path: 'src/route/wasm/bando-cch.wasm', name: 'bando-cch.wasm' },
] as const;

/**
 * The arguments of a module that imports a shared memory of up to 4 GiB (rather than defining its own): the
 * customizable hierarchy's search, over the memory its TypeScript side owns (src/route/wasm/cch-arena.ts).
 */
const IMPORTS_SHARED_MEMORY = [
  '-C',
  'target-feature=+atomics,+bulk-memory',
  '-C',
  'link-arg=--import-memory',
  '-C',
  'link-arg=--shared-memory',
  '-C',
  'link-arg=--max-memory=4294967296',
];

/** The crates: their root source, crate name, output and arguments of their own. */
export const CRATES = {
  route: { root: 'wasm/src/lib.rs', name: 'bando_route', out: WASM_OUT, args: [] },
  contract: { root: 'wasm/contract/lib.rs', name: 'bando_contract', out: CONTRACT_WASM_OUT, args: [] },
  raster: { root: 'wasm/raster/lib.rs', name: 'bando_raster', out: RASTER_WASM_OUT, args: [] },
  cch: { root: 'wasm/cch/lib.rs', name: 'bando_cch', out: CCH_WASM_OUT, args: IMPORTS_SHARED_MEMORY },
} as const satisfies Record<string, { root: string; name: string; out: string; args: readonly string[] }>;
const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** True when the toolchain needed by `buildWasm` is installed. */
export function wasmToolchain(): boolean {
  return existsSync(RUSTC) && existsSync(WASM_STD);
}

/** Compiles a crate (the route core by default) and returns the .wasm bytes. Throws with rustc's message when the build fails. */
export function buildWasm(crate: keyof typeof CRATES = 'route'): Uint8Array {
  const { root, name, args } = CRATES[crate];
  const dir = mkdtempSync(join(tmpdir(), 'bando-wasm-'));
  try {
    const out = join(dir, `${name}.wasm`);
    execFileSync(
      RUSTC,
      [
        '--target',
        'wasm32-unknown-unknown',
        '--crate-type',
        'cdylib',
        '--crate-name',
        name,
        '--edition',
        '2021',
        '-C',
        'opt-level=3',
        '-C',
        'lto',
        '-C',
        'codegen-units=1',
        '-C',
        'panic=abort',
        '-C',
        'debuginfo=0',
        '-C',
        'strip=symbols',
        // A small stack: no module recurses deeply (the raster kernel's band splits at most 12 deep); the route
        // core keeps its state in memory the TypeScript side allocates, the others in vectors on the heap.
        '-C',
        'link-arg=-zstack-size=65536',
        ...args,
        `--remap-path-prefix=${ROOT}=`,
        `--remap-path-prefix=${dir}=`,
        root,
        '-o',
        out,
      ],
      { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    return new Uint8Array(readFileSync(out));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!wasmToolchain()) {
    console.error(`build-wasm: needs ${RUSTC} with ${WASM_STD} (apt-get install rustc libstd-rust-dev-wasm32 lld)`);
    process.exit(1);
  }
  const { writeFileSync } = await import('node:fs');
  (['route', 'contract', 'raster', 'cch'] as const).forEach((crate, i) => {
    const target = process.argv[2 + i] ?? CRATES[crate].out;
    const bytes = buildWasm(crate);
    writeFileSync(target, bytes);
    console.log(`build-wasm: ${target.startsWith(ROOT) ? target.slice(ROOT.length) : target} (${bytes.length} bytes)`);
  });
}
