/**
 * The parameter table (src/api/param-table.ts) against the engine: every row's example is accepted by its endpoint,
 * and a wrong value of every row is refused with BAD_REQUEST naming the parameter, so the table lists parameters
 * the endpoints really read, with values they really take.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_PARAMS, type ParamRow } from '../src/api/param-table.js';
import { METHOD_NAMES, type MethodName } from '../src/adapters/http/routes.js';
import { createEngine, type Engine } from '../src/engine.js';

let engine: Engine;
let placeId: string;
beforeAll(async () => {
  engine = await createEngine();
  placeId = engine.autocomplete({ input: 'Hàng Bài' }).predictions[0]!.place_id;
});

/** The row's example, with a real place id where the example describes one. */
const example = (r: ParamRow) => (r.type === 'place id' ? placeId : r.example);

/** A value of the row's type that its endpoint must refuse. */
const wrong = (r: ParamRow) => (r.type === 'text' ? 'a\u0007b' : 'zzz');

/**
 * A valid query of an endpoint: its required rows and one "one of" (`row` when it is one), with their examples; every
 * row's example when none is required (trip: any two coordinates).
 */
function base(method: MethodName, row: ParamRow): Record<string, string> {
  const rows = ENDPOINT_PARAMS[method];
  const oneOf = row.need === 'one of' ? row : rows.find((r) => r.need === 'one of');
  const needed = rows.filter((r) => r.need === 'required' || r === oneOf);
  return Object.fromEntries((needed.length > 0 ? needed : rows).map((r) => [r.name, example(r)]));
}

async function call(method: MethodName, q: Record<string, string>): Promise<{ status: string; message: string }> {
  const r = (await engine[method](q as never)) as Record<string, unknown>;
  if (r instanceof Uint8Array) return { status: 'OK', message: '' };
  return { status: String(r.status ?? r.code), message: String(r.error_message ?? r.message ?? '') };
}

describe('the parameter table', () => {
  it('has every endpoint', () => {
    expect(Object.keys(ENDPOINT_PARAMS).sort()).toEqual([...METHOD_NAMES].sort());
  });

  for (const method of METHOD_NAMES) {
    it(`${method}: each example is answered, each wrong value refused naming its parameter`, async () => {
      for (const r of ENDPOINT_PARAMS[method]) {
        const ok = await call(method, { ...base(method, r), [r.name]: example(r) });
        expect({ param: r.name, status: ok.status }).not.toEqual({ param: r.name, status: 'BAD_REQUEST' });
        const bad = await call(method, { ...base(method, r), [r.name]: wrong(r) });
        expect({ param: r.name, status: bad.status }).toEqual({ param: r.name, status: 'BAD_REQUEST' });
        expect(bad.message, r.name).toContain(r.name);
      }
    });
  }
});
