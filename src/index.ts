export { createEngine, Engine, DEFAULT_PACK_URL, type EngineOptions, type EngineInfo } from './engine.js';
export { Pack, PackError } from './pack/reader.js';
export { PackWriter } from './pack/writer.js';
export { loadPack, type PackSource } from './pack/load.js';
export { VEHICLES, type Vehicle } from './route/profiles.js';
