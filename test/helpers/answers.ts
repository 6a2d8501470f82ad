/**
 * An engine answer with its run times zeroed (`executed_time`, `executed_time_all`, in milliseconds), for comparing
 * answers of two runs: run times differ between runs, everything else must be identical.
 */
export function withoutTimes(answer: unknown): unknown {
  return JSON.parse(JSON.stringify(answer, (k, x) => (k === 'executed_time' || k === 'executed_time_all' ? 0 : x)));
}
