/** Vietnamese administrative units of both systems: the table, name resolution and the pack subset (no Node imports). */
export { resolveAdmin, gazetteerFor, type AdminQuery, type AdminResolution } from './resolve';
export { subsetFor, fromSerialized, type SerializedAdmin } from './serialize';
export { buildTable, indexKey, provinceOf } from './table';
export type { AdminTable, AdminUnit, AdminLevel, AdminSystem, WardLink } from './types';
export { legacyOf } from './legacy-of';
