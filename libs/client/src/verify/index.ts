export { ReportBuilder, failures, type CheckResult, type CheckStatus, type VerificationReport } from './report';
export { verifyConsultation, normativeHashOf, contextHashOf, type VerifyConsultationOptions } from './consultation';
export { verifyLedgerBundle, ledgerFactHash, factsFromDocuments, GENESIS_PREV_HASH, type LedgerBundleInput, type LedgerBundleReport } from './ledger-bundle';
export { verifyWebhookSignature, type VerifyWebhookInput, type WebhookKeyEntry } from './webhook';
export { verifyStandardWebhook, type VerifyStandardWebhookInput } from './standard-webhook';
export type { WebhookBinding } from './webhook-binding';
export {
  buildEvidencePack,
  verifyEvidencePack,
  consultationStreamOf,
  consultationSealPayload,
  sealPayloadDifferences,
  EVIDENCE_PACK_FORMAT,
  type EvidencePack,
  type EvidencePackV1,
  type EvidencePackV2,
  type EvidencePackLedger,
  type BuildEvidencePackOptions,
  type ProgressFn,
} from './evidence';
export { verifyCheckpoint, type VerifyCheckpointOptions } from './checkpoint';
