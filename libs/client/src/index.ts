export * from './errors';
export * from './types';
export { createServiceClient, unwrap, unwrapWithResponse, type ServiceClientOptions } from './http';
export {
  createVerdictClient,
  maxAgeOf,
  type VerdictClient,
  type VerdictClientOptions,
  type VerdictPaths,
  type CallOptions,
  type EvaluateOptions,
  type ConsultationQuery,
} from './verdict-client';
export { createLedgerClient, type LedgerClient, type LedgerClientOptions, type LedgerRoutes } from './ledger-client';
export {
  createRegistryClient,
  REGISTRY_OPERATIONS,
  type RegistryClient,
  type RegistryClientOptions,
  type RegistryBody,
  type RegistryPage,
  type RegistryQuery,
} from './registry-client';
export { checkFact, type FactProblem, type FactProblemCode } from './requirements';
export {
  resolveUntilComplete,
  type FactProvider,
  type ResolveLoopOptions,
  type ResolveLoopResult,
  type RoundInfo,
  type DroppedFact,
} from './resolve-loop';
export { RemoteJwks, StaticJwks, remoteJwks, assertKeySet, type JwksSource, type RemoteJwksOptions } from './jwks';
export {
  verifyVerdict,
  decodeVerdictUnverified,
  type VerdictClaims,
  type VerifyVerdictOptions,
  type VerifiedVerdict,
} from './verify-verdict';
export { requestApprovalAndWait, waitForApproval, isDecided, type PollBackoff, type WaitOptions } from './approvals';
export {
  requireVerdict,
  verdictOf,
  bindingMismatches,
  operationContextHash,
  type RequireVerdictOptions,
  type VerdictBinding,
  type RefusalCode,
} from './middleware';
export { MemoryReplayGuard, redisReplayGuard, ReplayGuardFullError, type ReplayGuard, type RedisSetNx } from './replay-guard';
export * from './verify';
export {
  auditConsultations,
  periodBound,
  type AuditConsultationsOptions,
  type ConsultationAuditReport,
  type FieldDifference,
} from './audit/consultations';
export * from './guard';
export * from './adapters';
export { resilientFetch, retryAfterMs, SDK_VERSION, USER_AGENT, DEFAULT_TIMEOUT_MS, type FetchLike, type RetryOptions } from './retry';
