export { RegistryInternalClient, INTERNAL_TOKEN_HEADER } from './client';
export type { RegistryInternalClientOptions } from './client';
export { LedgerInternalClient } from './ledger-client';
export type { LedgerInternalClientOptions } from './ledger-client';
export {
  LedgerRejectedError,
  LedgerUnavailableError,
  RegistryRejectedError,
  RegistryUnavailableError,
  VerdictRejectedError,
  VerdictUnavailableError,
} from './errors';
export { REGISTRY_CHANGED_CHANNEL } from './types';
export type * from './types';
export type * from './ledger-types';
export type { paths as InternalApiPaths } from './generated/registry-internal';
export type { paths as LedgerInternalApiPaths } from './generated/ledger-internal';
export { publicRuleVersion, ruleVersionContentHash, ruleVersionSealPayload } from './rule-version-seal';
export type { PublicRuleVersion, PublicConditionRow, RuleVersionSealPayload } from './rule-version-seal';
export { VerdictInternalClient } from './verdict-client';
export type { VerdictInternalClientOptions } from './verdict-client';
export type { paths as VerdictInternalApiPaths } from './generated/verdict-internal';
export type { ShadowDisagreements } from './verdict-client';
