import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';

/** Young-generation half-space an engine thread starts with, MB (V8's `--min-semi-space-size`). */
export const ENGINE_SEMI_SPACE_MB = 16;

/**
 * V8 settings for `bando serve`'s engine threads, set before they start (the flags are process-wide; a thread reads
 * them when its heap is made, and at each young-generation collection, a scavenge). Returns the flags set.
 *
 * - Engine threads allocate about 60 KB per route answer, nearly all of it dead by the next answer, and V8 keeps
 *   the young generation small while so little survives: a scavenge every 100–200 routes, each a pause of
 *   0.6–5 ms in which the thread answers nothing. Starting each thread's young generation at
 *   {@link ENGINE_SEMI_SPACE_MB} MB halves the scavenges (a scavenge costs what survives, not what died). The
 *   serving thread's heap was made before and keeps V8's default.
 * - When the JavaScript threads (the serving thread and the engine threads) are at least as many as the cores, a
 *   parallel scavenge's helper threads find no free core and the pause waits for them; scavenges then run on their
 *   own thread (`--no-parallel-scavenge`). With cores to spare the helpers shorten the pause, and it is left on.
 *
 * Measured under the route workload on a loaded 2-core machine (HTTP README, Route tail).
 * @param engineThreads worker threads that will run engines (0: none, nothing is set)
 * @param cores cores this process may use (default `availableParallelism()`)
 */
export function tuneEngineGc(engineThreads: number, cores = availableParallelism()): string[] {
  if (engineThreads <= 0) return [];
  const flags = [`--min-semi-space-size=${ENGINE_SEMI_SPACE_MB}`];
  if (engineThreads + 1 >= cores) flags.push('--no-parallel-scavenge');
  for (const f of flags) setFlagsFromString(f);
  return flags;
}
