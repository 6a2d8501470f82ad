/**
 * A consumer's code against the package's published declarations (`bando`, resolved through package.json's
 * exports to dist/*.d.ts). test/typings.test.ts compiles it with tsc: every line marked @ts-expect-error must be an
 * error (tsc reports an unused marker), every other line must compile.
 */
import { createEngine, createWorkerEngine, type DirectionParams, type Vehicle } from 'bando';
import { createWorkerEngine as clientOnly, type WorkerEngine } from 'bando/client';
import defaultPack from 'bando/default-pack';
import type {} from 'bando/worker';
import * as browser from 'bando/browser';

const engine = await createEngine({ packs: ['region.pack'], wasm: false });

// What the REST API takes, typed.
engine.direction({ origin: '21.03,105.85', destination: '21.02,105.84', vehicle: 'bike', alternatives: 'true' });
engine.distanceMatrix({ origins: '21.03,105.85|21.02,105.84', destinations: '21.01,105.83', vehicle: 'hd' });
engine.trip({ waypoints: '21.03,105.85;21.02,105.84', vehicle: 'taxi' });
engine.geocode({ address: 'Hàng Bài, Hoàn Kiếm' });
engine.geocode({ placeid: 'abc', has_deprecated_administrative_unit: true });
engine.autocomplete({ input: 'Hàng B', limit: '5', more_compound: '1' });
engine.placeDetail({ place_id: 'abc', sessiontoken: 't' });
await engine.staticRoute({
  origin: '21.03,105.85',
  destination: '21.02,105.84',
  width: 300,
  height: '200',
  type: 'shortest',
});
// A raw REST query is accepted as a URLSearchParams and checked at run time.
engine.direction(new URLSearchParams('origin=21.03,105.85&destination=21.02,105.84'));
const closed: boolean = engine.closed;
await engine.close();
{
  await using scoped = await createEngine();
  scoped.info();
}
const vehicles: Vehicle[] = ['car', 'bike', 'taxi', 'truck', 'hd'];
const p: DirectionParams = { origin: '1,2', destination: '3,4', vehicle: vehicles[0] };
engine.direction(p);

// The mistakes the issue names.
// @ts-expect-error a vehicle the API does not have
engine.direction({ origin: '21.03,105.85', destination: '21.02,105.84', vehicle: 'motorbike' });
// @ts-expect-error a misspelled parameter (and the real one missing)
engine.direction({ origin: '21.03,105.85', destinaton: '21.02,105.84' });
// @ts-expect-error a coordinate pair is a "<lat>,<lng>" string, not an array
engine.direction({ origin: [21.03, 105.85], destination: '21.02,105.84' });
// @ts-expect-error misspelled matrix parameter
engine.distanceMatrix({ origin: '21.03,105.85', destinations: '21.02,105.84' });
// @ts-expect-error a vehicle the trip does not have
engine.trip({ waypoints: '21.03,105.85;21.02,105.84', vehicle: 'walk' });
// @ts-expect-error two of geocode's mutually exclusive keys
engine.geocode({ address: 'Hàng Bài', latlng: '21.03,105.85' });
// @ts-expect-error autocomplete needs its input
engine.autocomplete({ location: '21.03,105.85' });
// @ts-expect-error route preference is fastest or shortest
await engine.staticRoute({ origin: '21.03,105.85', destination: '21.02,105.84', type: 'quickest' });
// @ts-expect-error packs is an array
await createEngine({ packs: 'region.pack' });
// @ts-expect-error the option is packs
await createEngine({ pack: 'region.pack' });

// The worker engine has the same typed methods, returning Promises.
declare const worker: Worker;
const remote = createWorkerEngine(worker, { packs: ['region.pack'] });
const answer = await remote.direction({ origin: '21.03,105.85', destination: '21.02,105.84' });
answer.routes.map((r) => r.legs.length);
// @ts-expect-error same checks through the worker
await remote.direction({ origin: '21.03,105.85', destination: '21.02,105.84', vehicle: 'motorbike' });

// bando/browser has the same API.
await browser.createEngine({ wasm: true });

// bando/client: the worker client alone; bando/default-pack: the default pack's URL as a bundler asset.
const fromClient: WorkerEngine = clientOnly(new Worker('worker.js'), { packs: [defaultPack] });
await fromClient.direction({ origin: '21.03,105.85', destination: '21.02,105.84' });
