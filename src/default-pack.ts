/**
 * `bando/default-pack`: the URL of the embedded default pack (central Hanoi, about 6 MB), written so that bundlers
 * (Vite, webpack, Parcel) emit the pack as an asset of the app and give its URL, e.g.
 * `createEngine({ packs: [defaultPack] })` in a browser app. Apps that load their own packs do not import this
 * module, so their bundles do not carry the pack. (Node needs none of this: createEngine() finds the pack itself.)
 */
const defaultPack: string = new URL('../packs/hanoi.pack', import.meta.url).href;
export default defaultPack;
