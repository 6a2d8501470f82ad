// The page's code: only createWorkerEngine (bando/client, 9 KB) is bundled here; the engine runs in worker.js.
import { createWorkerEngine } from 'bando/client';
// The default pack (central Hanoi) as an asset URL; for your own pack, give its URL instead: packs: ['/my-city.pack'].
import defaultPack from 'bando/default-pack';

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const engine = createWorkerEngine(worker, { packs: [defaultPack] });

const place = await engine.geocode({ address: 'Hàng Bài, Hoàn Kiếm' });
const route = await engine.direction({ origin: '21.0285,105.8522', destination: '21.0243,105.8575' });
const leg = route.routes[0].legs[0];
document.getElementById('out').textContent =
  `${place.results[0].formatted_address}\n${leg.distance.text} ${leg.duration.text}`;
