/** Vietnamese administrative units of both systems: the table, name resolution and the pack subset (no Node imports). */
export { resolveAdmin, gazetteerFor } from './resolve';
export { subsetFor, fromSerialized } from './serialize';
export { provinceOf } from './table';
export type { AdminTable, AdminUnit } from './types';
