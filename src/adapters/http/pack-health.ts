import type { Pack } from '../../pack/reader.js';

/** What {@link watchPacks} gives `/healthz`. */
export interface PackHealth {
  /** Null while no pack is known to be corrupt, else the first failure, naming the pack and the section. */
  problem(): string | null;
  /** Ends the background check (the server stops). */
  stop(): void;
}

/**
 * The packs' health for `/healthz` (issue 39 item 6). A pack checked whole at load is sound or was refused; a pack
 * checked section by section on first use (`verify: 'lazy'`, the default above 64 MB) may hold a corrupt section no
 * request has used yet. So those are checked here in the background, one chunk of `chunkBytes` per event-loop turn
 * (≈ 2.5 ms a MB: the serving thread keeps answering between chunks; a 1 GB pack takes about 3 s of one core in all),
 * and a section a request found corrupt counts at once (`Pack.problem`).
 */
export function watchPacks(packs: readonly Pack[], chunkBytes = 1 << 20): PackHealth {
  const sweeps = packs.map((p) => p.verifyRemaining(chunkBytes));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const step = () => {
    while (sweeps.length > 0 && sweeps[0]!.next().done) sweeps.shift();
    // A timer, unlike setImmediate, can be unref'd: the check never keeps a stopping process alive.
    if (sweeps.length > 0) timer = setTimeout(step, 0).unref();
  };
  timer = setTimeout(step, 0).unref();
  return {
    problem: () => packs.find((p) => p.problem !== null)?.problem ?? null,
    stop: () => clearTimeout(timer),
  };
}
