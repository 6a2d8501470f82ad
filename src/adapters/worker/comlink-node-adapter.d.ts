// comlink ships this adapter's types as node-adapter.d.ts next to an .mjs file, which TypeScript does not pair up.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  /** Wraps a node:worker_threads Worker or MessagePort (postMessage, on/off('message')) as a comlink Endpoint. */
  export default function nodeEndpoint(nep: object): Endpoint;
}
