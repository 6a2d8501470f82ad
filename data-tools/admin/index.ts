/** Vietnamese administrative units: loading (Node), resolving and pack subsets (browser-safe). */
export { loadAdminUnits } from './load';
export { resolveAdmin, gazetteerFor, type AdminQuery, type AdminResolution } from './resolve';
export { subsetFor, fromSerialized, type SerializedAdmin } from './serialize';
export { buildTable, indexKey, provinceOf } from './table';
export type { AdminTable, AdminUnit, AdminLevel, AdminSystem, WardLink } from './types';
