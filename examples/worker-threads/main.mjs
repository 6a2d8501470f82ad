// The engine in a worker thread, so the main thread stays free: `node main.mjs` after `npm install bando`.
import { Worker } from 'node:worker_threads';
import { createWorkerEngine } from 'bando/client';

// A worker thread takes a file URL: import.meta.resolve finds bando/worker in node_modules.
const worker = new Worker(new URL(import.meta.resolve('bando/worker')));
// No packs given: the engine loads the default pack (central Hanoi); pass { packs: ['my-city.pack'] } for your own.
const engine = createWorkerEngine(worker);

const place = await engine.geocode({ address: 'Hàng Bài, Hoàn Kiếm' });
console.log(place.results[0].formatted_address);
const route = await engine.direction({ origin: '21.0285,105.8522', destination: '21.0243,105.8575' });
console.log(route.routes[0].legs[0].distance.text, route.routes[0].legs[0].duration.text);

engine.terminate();
