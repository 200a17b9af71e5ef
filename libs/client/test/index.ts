// Test material of the SDK for other projects' tests (the CLI's), by the workspace-only alias
// @arbiter/client/testing; never part of the published package.
export { makeConsultation, makeKey, signJws, jcs, digest, TENANT, type TestKey } from './fixtures';
export {
  makeLedgerKey,
  signCheckpoint,
  signTransition,
  keySealPayloadOf,
  sealedPayloadOf,
  TestStream,
  type LedgerTestKey,
  type TestFact,
  type TestCheckpoint,
} from './ledger-fixtures';
export { startFakeEvidenceServer, type FakeEvidenceServer } from './fake-evidence-server';
