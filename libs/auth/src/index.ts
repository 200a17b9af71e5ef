export { PERMISSIONS, hasPermission, isPermission, canAccessScope } from './identity';
export type { AuthenticatedIdentity, Identity, Permission, PrincipalInfo, RateLimitOverride } from './identity';
export { mintTenantId } from './tenant-id';
export type { TenantId, TenantOwned } from './tenant-id';
export { generateApiKey, hashApiKey, isApiKeyFormat, apiKeyPrefix, secretsEqual } from './api-keys';
export {
  CONSOLE_SESSION_ID_PREFIX,
  consoleCredentialFor,
  isConsoleCredentialFormat,
  isConsoleSession,
  isCredentialFormat,
} from './console-credentials';
export { CachedKeyResolver, MAX_CACHE_TTL_MS, INVALIDATION_CHANNEL, parseInvalidation } from './resolver';
export type { KeyResolver, CacheOptions, InvalidationEvent } from './resolver';
export { IntrospectionClient } from './introspection';
export { Authenticator, credentialFrom, requirePermission } from './authenticate';
export type { AuthErrors, AuthenticatorOptions, CredentialSource } from './authenticate';
export { publishInvalidation, subscribeInvalidations } from './pubsub';
export { acceptedInternalTokens, internalTokenGuard, isInternalToken } from './internal-token';
export { createRemoteAuth } from './remote';
export type { RemoteAuth, RemoteAuthOptions } from './remote';
export { expressAuthentication, whoAmI } from './tsoa';
export type { AuthedRequest } from './tsoa';
