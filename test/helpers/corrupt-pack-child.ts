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

/**
 * One case's outcome: the pack was refused (with the error), or every call was answered (their statuses, and per
 * call whether the whole answer equals the clean pack's), or a call threw.
 */
export type CaseReport =
  | { case: CorruptCase; refused: string }
  | { case: CorruptCase; answered: string[]; same: boolean[] }
  | { case: CorruptCase; threw: string };

type Answer = { status?: string; code?: string; error_message?: string; message?: string } | Uint8Array;

/** An answer as comparable text: the JSON body without its timings, or the image's bytes. */
const asText = (r: Answer): string =>
  r instanceof Uint8Array
    ? Buffer.from(r).toString('base64')
    : JSON.stringify(r, (k, v: unknown) => (k.startsWith('executed_time') ? undefined : v));

process.once('message', async (task: ChildTask) => {
  const base = testPack(task.region);
  const sections = [...Pack.from(base).sections.values()].filter((s) => s.byteLength > 0);
  const [a, b, c] = task.points;
  const callsOf = (engine: Awaited<ReturnType<typeof createEngine>>): [string, () => unknown][] => [
    ['direction', () => engine.direction({ origin: a, destination: b })],
    ['distanceMatrix', () => engine.distanceMatrix({ origins: a, destinations: `${b}|${c}` })],
    ['trip', () => engine.trip({ waypoints: `${a};${b};${c}` })],
    ['geocode', () => engine.geocode({ latlng: a })],
    ['autocomplete', () => engine.autocomplete({ input: 'Lê Lợi' })],
    ['staticRoute', () => engine.staticRoute({ origin: a, destination: b, width: 64, height: 64 })],
  ];
  const clean = await createEngine({ packs: [base], verify: true });
  const want: string[] = [];
  for (const [, call] of callsOf(clean)) want.push(asText((await call()) as Answer));
  for (const k of task.cases) {
    process.send!({ start: k });
    let engine: Awaited<ReturnType<typeof createEngine>>;
    try {
      engine = await createEngine({ packs: [corrupt(base, sections, k)], verify: k.verify });
    } catch (err) {
      process.send!({ case: k, refused: `${(err as Error).name}: ${(err as Error).message}` } satisfies CaseReport);
      continue;
    }
    const answered: string[] = [];
    const same: boolean[] = [];
    try {
      for (const [name, call] of callsOf(engine)) {
        const r = (await call()) as Answer;
        answered.push(
          r instanceof Uint8Array
            ? `${name}: png`
            : `${name}: ${r.status ?? r.code} ${r.error_message ?? r.message ?? ''}`,
        );
        same.push(asText(r) === want[same.length]);
      }
      process.send!({ case: k, answered, same } satisfies CaseReport);
    } catch (err) {
      process.send!({ case: k, threw: `${(err as Error).name}: ${(err as Error).message}` } satisfies CaseReport);
    }
  }
  process.send!({ done: true });
});
