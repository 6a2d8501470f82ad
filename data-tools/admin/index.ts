/** Vietnamese administrative units at build time: loading the source files (Node); the rest lives in src/admin. */
export { loadAdminUnits } from './load';
export { resolveAdmin, subsetFor, provinceOf, type AdminTable } from '../../src/admin/index';
