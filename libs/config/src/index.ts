export { loadConfig, ConfigError } from './load-config';
export type { ConfigSchema, FieldSpec, ConfigOf } from './load-config';
export { str, int, bool, url, oneOf } from './fields';
export { processIo, runCli, type CliIo } from './cli-io';
export { duration, durationMs, formatDuration } from './duration';
