export { ReportBuilder, failures, type CheckResult, type CheckStatus, type ReportStatus, type VerificationReport } from './report';
export { verifyConsultation, normativeHashOf, contextHashOf, type VerifyConsultationOptions } from './consultation';
export { commitmentsOf, sensitiveStates } from './record-checks';
export {
  verifyLedgerBundle,
  ledgerFactHash,
  factsFromDocuments,
  GENESIS_PREV_HASH,
  type LedgerBundleInput,
  type LedgerBundleReport,
} from './ledger-bundle';
export { verifyWebhookSignature, type VerifyWebhookInput, type WebhookKeyEntry } from './webhook';
export { verifyStandardWebhook, type VerifyStandardWebhookInput } from './standard-webhook';
export type { WebhookBinding } from './webhook-binding';
export {
  buildEvidencePack,
  verifyEvidencePack,
  consultationSealPayload,
  sealPayloadDifferences,
  EVIDENCE_PACK_FORMAT,
  type EvidencePack,
  type EvidencePackV1,
  type EvidencePackV2,
  type EvidencePackV3,
  type VerifyEvidenceOptions,
  type EvidencePackLedger,
  type BuildEvidencePackOptions,
  type ProgressFn,
} from './evidence';
export { verifyCheckpoint, type VerifyCheckpointOptions } from './checkpoint';
export { consultationStreamOf, keysStreamOf, VERDICT_SEAL_ACTOR } from './audit-streams';
export {
  parseTrustFile,
  extendTrust,
  conflictingKids,
  jwkThumbprint,
  TRUST_FILE_FORMAT,
  type TrustAnchors,
  type TrustFile,
  type TrustedKeys,
  type KeyHistory,
  type TenantKeyHistory,
} from './trust';
export { fetchKeyHistory, fetchTenantKeyHistory } from './key-history';
