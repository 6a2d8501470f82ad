import { describe, expect, it } from 'vitest';
import { exampleQueries } from '../src/adapters/cli/examples.js';
import { createFetchHandler } from '../src/adapters/http/handler.js';
import { SerializedBody } from '../src/adapters/http/responses.js';
import type { EngineApi } from '../src/adapters/http/routes.js';
import { createEngine } from '../src/engine.js';
import { testPack } from './helpers/packs.js';

const dalat = await createEngine({ packs: [testPack('dalat')] });
const bbox = dalat.regions[0]!.meta.bbox!;
const [w, s, e, n] = bbox;
const inside = (latlng: string) => {
  const [lat, lng] = latlng.split(',').map(Number) as [number, number];
  return lat >= s && lat <= n && lng >= w && lng <= e;
};

describe('bando serve examples and the demo map follow the loaded pack', () => {
  it('on a pack without central Hanoi, every example point is in the pack and the examples answer OK', async () => {
    const q = await exampleQueries(dalat as EngineApi, bbox);
    for (const p of [
      q.direction.origin!,
      q.direction.destination!,
      ...q.distanceMatrix.destinations!.split('|'),
      ...q.trip.waypoints!.split(';'),
    ])
      expect(inside(p), p).toBe(true);
    expect(dalat.direction(q.direction as never).status).toBe('OK');
    expect(dalat.geocode(q.geocode as never).status).toBe('OK');
    expect(dalat.trip(q.trip as never).code).toBe('Ok');
    expect(dalat.autocomplete(q.autocomplete as never).status).toBe('OK');
    expect(q.placeDetail.place_id).not.toBe('PLACE_ID_FROM_AUTOCOMPLETE');
    expect(dalat.placeDetail(q.placeDetail as never).status).toBe('OK');
  });

  it('an engine answering in JSON text (the server threads) gives the same examples', async () => {
    // What a worker thread gives the serving thread: the JSON text, in UTF-8 bytes, and its status.
    const text = (answer: unknown) => new SerializedBody(new TextEncoder().encode(JSON.stringify(answer)), 200);
    const threaded: EngineApi = {
      geocode: (p) => text(dalat.geocode(p as never)),
      autocomplete: (p) => text(dalat.autocomplete(p as never)),
    };
    const q = await exampleQueries(threaded, bbox);
    expect(q).toEqual(await exampleQueries(dalat as EngineApi, bbox));
    expect(q.placeDetail.place_id).not.toBe('PLACE_ID_FROM_AUTOCOMPLETE');
  });

  it('the style served for the demo map is centred in the pack', async () => {
    const handler = createFetchHandler(dalat, { keys: [{ key: 'map', kind: 'tiles' }] });
    const style = (await (await handler(new Request('https://h/styles/default/style.json?key=map'))).json()) as {
      center: [number, number];
    };
    expect(inside(`${style.center[1]},${style.center[0]}`)).toBe(true);
  });
});
