/**
 * `bando/server`: the Node-only parts of serving, kept out of the main entry so that `import 'bando'` and browser
 * bundles never load them. The usage stores plug into `createFetchHandler({ usage })`.
 */
export {
  createRedisUsageStore,
  describeRedisUrl,
  isRedisUrl,
  RedisUsageStore,
  type RedisUsageOptions,
} from './adapters/http/usage-redis.js';
export { FileUsageStore, readUsageFile, type FileUsageOptions } from './adapters/http/usage-file.js';
