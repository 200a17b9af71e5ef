// The pure parts of offline verification (no Node API, no network): what the console's browser
// verifier shares with the SDK and the CLI, so that both name the same checks and read the same files.
export { ReportBuilder, failures, type CheckResult, type CheckStatus, type ReportStatus, type VerificationReport } from './report';
export { parseTrustFile, TRUST_FILE_FORMAT, type TrustAnchors, type TrustFile } from './trust-file';
export {
  CLAIM_BINDINGS,
  contextHashInput,
  isCommitment,
  normativeHashInput,
  reportClaims,
  reportRecordHashes,
  reportRecordShape,
  reportSensitiveValues,
  reportSigningKid,
  reportVerifiedSignature,
  sameJson,
  sensitiveStates,
  showValue,
} from './record-checks';
export { InputError } from '../errors';
export type { KeySet, LedgerKeySet, LedgerPublicKey, VerificationKey } from '../types';
export { ledgerKeyAt, type LedgerKeyLookup } from './ledger-key';
export { checkpointBeforeSignature, checkpointShapeProblems, reportCheckpointSignature } from './checkpoint-checks';
