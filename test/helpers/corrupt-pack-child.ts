/**
 * Child process of test/fuzz-packs.test.ts (issue 18 item 5): opens corrupted copies of a real pack and asks every
 * endpoint something inside the pack's area, reporting each case's outcome to the parent over IPC. It runs apart so
 * that the parent can tell a hang (no report within its time limit) from an answer, and a crash from an error.
 */
import { createEngine } from '../../src/engine.js';
import { Pack } from '../../src/pack/reader.js';
import { corrupt, type CorruptCase } from './corrupt-pack.js';
import { testPack, type TestRegion } from './packs.js';

/** What the parent sends: the pack to corrupt, two points inside it, and the cases. */
export interface ChildTask {
  region: TestRegion;
  points: [string, string, string];
  cases: CorruptCase[];
}

/** One case's outcome: the pack was refused (with the error), or every call was answered (their statuses). */
export type CaseReport =
  | { case: CorruptCase; refused: string }
  | { case: CorruptCase; answered: string[] }
  | { case: CorruptCase; threw: string };

process.once('message', async (task: ChildTask) => {
  const base = testPack(task.region);
  const sections = [...Pack.from(base).sections.values()].filter((s) => s.byteLength > 0);
  const [a, b, c] = task.points;
  for (const k of task.cases) {
    process.send!({ start: k });
    let engine: Awaited<ReturnType<typeof createEngine>>;
    try {
      engine = await createEngine({ packs: [corrupt(base, sections, k)], verify: k.verify });
    } catch (err) {
      process.send!({ case: k, refused: `${(err as Error).name}: ${(err as Error).message}` } satisfies CaseReport);
      continue;
    }
    const calls: [string, () => unknown][] = [
      ['direction', () => engine.direction({ origin: a, destination: b })],
      ['distanceMatrix', () => engine.distanceMatrix({ origins: a, destinations: `${b}|${c}` })],
      ['trip', () => engine.trip({ waypoints: `${a};${b};${c}` })],
      ['geocode', () => engine.geocode({ latlng: a })],
      ['autocomplete', () => engine.autocomplete({ input: 'Lê Lợi' })],
      ['staticRoute', () => engine.staticRoute({ origin: a, destination: b, width: 64, height: 64 })],
    ];
    const answered: string[] = [];
    try {
      for (const [name, call] of calls) {
        const r = (await call()) as
          { status?: string; code?: string; error_message?: string; message?: string } | Uint8Array;
        answered.push(
          r instanceof Uint8Array
            ? `${name}: png`
            : `${name}: ${r.status ?? r.code} ${r.error_message ?? r.message ?? ''}`,
        );
      }
      process.send!({ case: k, answered } satisfies CaseReport);
    } catch (err) {
      process.send!({ case: k, threw: `${(err as Error).name}: ${(err as Error).message}` } satisfies CaseReport);
    }
  }
  process.send!({ done: true });
});
