export { RegistryInternalClient, INTERNAL_TOKEN_HEADER } from './client';
export type { RegistryInternalClientOptions } from './client';
export { RegistryRejectedError, RegistryUnavailableError } from './errors';
export { REGISTRY_CHANGED_CHANNEL } from './types';
export type * from './types';
export type { paths as InternalApiPaths } from './generated/registry-internal';
