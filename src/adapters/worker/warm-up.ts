import type { EngineInfo } from '../../engine.js';
import type { EngineApi, EngineParams, MethodName } from '../http/routes.js';

/** An engine that may tell its packs' areas (the `Engine` does; a custom one need not). */
type Warmable = EngineApi & { info?: () => EngineInfo };

/**
 * The calls that make an engine build its lazy state before it serves: for each pack with a known area, a reverse
 * geocode and a route at the area's centre and an autocomplete (the places index, the ward polygons, the road graph
 * and its WebAssembly core). Measured on the Hanoi pack, these take 0.1 s, 0.5 s and 1.8 s on the first call and
 * well under a millisecond after it, so a worker that skips them makes its first light calls wait seconds.
 */
export function warmUpCalls(engine: Warmable): [MethodName, EngineParams][] {
  const calls: [MethodName, EngineParams][] = [];
  for (const { bbox } of engine.info?.().packs ?? []) {
    if (!bbox) continue;
    const centre = `${((bbox[1] + bbox[3]) / 2).toFixed(5)},${((bbox[0] + bbox[2]) / 2).toFixed(5)}`;
    calls.push(['geocode', { latlng: centre }], ['direction', { origin: centre, destination: centre }]);
  }
  if (calls.length > 0) calls.push(['autocomplete', { input: 'a' }]);
  return calls;
}

/** Runs the warm-up calls of {@link warmUpCalls}; their answers (and any failure, which a real call will report) are dropped. */
export async function warmUp(engine: Warmable): Promise<void> {
  for (const [method, params] of warmUpCalls(engine)) {
    try {
      await engine[method]?.(params);
    } catch {
      // A pack that cannot answer at its centre is no reason not to serve; its own calls will say what is wrong.
    }
  }
}
