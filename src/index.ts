export { createEngine, Engine, DEFAULT_PACK_URL, type EngineOptions, type EngineInfo } from './engine.js';
export { Pack, PackError } from './pack/reader.js';
export { PackWriter } from './pack/writer.js';
export { loadPack, type PackSource } from './pack/load.js';
export { VEHICLES, type Vehicle } from './route/profiles.js';
export type { MetricCounts, MetricExchange, MetricPart } from './route/cch/exchange.js';
export {
  createFetchHandler,
  type FetchHandler,
  type FetchHandlerOptions,
  type RequestEvent,
  type ResourceRoute,
} from './adapters/http/handler.js';
export type { ApiKey, KeyKind } from './adapters/http/keys.js';
export type { ClientInfo, TrustProxy } from './adapters/http/client.js';
export {
  MemoryUsageStore,
  UsageStoreUnavailable,
  type UsageStore,
  type UsageReport,
  type PeriodUsage,
  type UsageRequest,
  type Admission,
  type MemoryUsageOptions,
} from './adapters/http/usage.js';
export type { EngineApi, EngineParams, MethodName } from './adapters/http/routes.js';
export { createWorkerEngine, type WorkerEngine } from './adapters/worker/client.js';
export type { WorkerInitOptions, WorkerPackSource } from './adapters/worker/protocol.js';
export { createMapResources, type MapResourcesOptions } from './adapters/http/map-resources.js';
export { createTileSource, type TileSource, type TileSourceOptions } from './map/tiles/source.js';
export { validateStyle } from './style/validate-style.js';
export { validateStyleLayer } from './style/validate-layer.js';
export type { StyleIssue, StyleValidationResult } from './style/issues.js';
export type { Query, NumberParam, BoolParam } from './api/param-types.js';
export type { DirectionParams, DirectionResponse } from './api/direction.js';
export type { MatrixParams, MatrixResponse } from './api/matrix.js';
export type { TripParams, TripResponse } from './api/trip.js';
export type { GeocodeParams } from './api/geocode.js';
export type { AutocompleteParams } from './api/autocomplete.js';
export type { PlaceDetailParams } from './api/place-detail.js';
export type { StaticRouteQuery, StaticRouteError } from './api/static-route.js';
export type { GeocodeResponse, AutocompleteResponse, PlaceDetailResponse } from './api/place-shapes.js';
export type { TextValue } from './text/text-value.js';
