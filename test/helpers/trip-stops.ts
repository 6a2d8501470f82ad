import type { EngineApi } from '../../src/adapters/http/routes.js';

/**
 * `n` stops in the south-west of the Hanoi pack, every one reachable from and to the others by car, as a `waypoints`
 * value: a grid of points from which the stops a trip names as unreachable (or off the roads) are dropped in turn,
 * so trips over them are solved in full (≈ 0.25 s of a core for 400) rather than refused after the matrix.
 * @param api an engine over the Hanoi pack (answers synchronously or not)
 */
export async function reachableStops(api: EngineApi, n: number): Promise<string> {
  const stops = [
    '21.0285,105.8542',
    ...Array.from(
      { length: n + 60 },
      (_, i) => `${(21.0 + (i % 23) * 0.0025).toFixed(4)},${(105.81 + Math.floor(i / 23) * 0.0025).toFixed(4)}`,
    ),
  ];
  for (;;) {
    const answer = (await api.trip!({ waypoints: stops.join(';') })) as { code: string; message?: string };
    if (answer.code === 'Ok') break;
    // A message names the stop at fault last ("waypoints[3] cannot be reached from waypoints[0]", or the reverse).
    const named = [...(answer.message ?? '').matchAll(/waypoints\[(\d+)\]/g)].map((m) => Number(m[1]));
    if (named.length === 0 || stops.length <= n) throw new Error(`no ${n} reachable stops: ${answer.message}`);
    stops.splice(Math.max(...named), 1);
  }
  return stops.slice(0, n).join(';');
}
