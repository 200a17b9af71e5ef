export { DevstackError, type DevstackErrorCode } from './errors';
export { findFreePort, isPortFree } from './ports';
export { startPostgres, ensureDatabases, databaseUrl, type StartPostgresOptions, type PostgresHandle } from './postgres';
export { startRedis, findRedisServer, ensureRedisServer, pingRedis, type StartRedisOptions, type RedisHandle } from './redis';
export { loadOrCreateSecrets, SECRET_NAMES, type StackSecrets, type LoadedSecrets } from './secrets';
export {
  startStack,
  defaultApps,
  formatBanner,
  writeStackFile,
  STACK_FILE,
  reachableHost,
  DATABASES,
  type AppSpec,
  type AppExit,
  type StackOptions,
  type StackLog,
  type RunningStack,
} from './stack';
export { stopLeftoverServers } from './leftovers';
export { bootstrapConsoleLink } from './console-link';
