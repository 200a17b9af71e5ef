// Verifies a consultation's evidence in the browser (docs/evidence.md "In the console"): the record as
// GET /<tenant>/v1/consultations/<id> answers it and its evidence (GET …/evidence), against the keys of
// a trust file the user loaded or the keys the services publish (then the report is unpinned, never
// valid). The checks, their names and their order are those of the CLI's `arbiter verify evidence`
// (the SDK's verifyEvidencePack) for the parts a console holds: trust, consultation.*, ledger.*. Rule
// versions and approvals are an evidence pack's additions and are not checked here.
import { consultationSealPayload, auditStreamId } from '@arbiter/audit-streams';
import {
  checkpointBeforeSignature,
  contextHashInput,
  normativeHashInput,
  reportCheckpointSignature,
  reportClaims,
  reportRecordHashes,
  reportRecordShape,
  reportSensitiveValues,
  reportSigningKid,
  reportVerifiedSignature,
  sameJson as same,
  showValue as show,
  ReportBuilder,
  type KeySet,
  type LedgerKeySet,
  type TrustAnchors,
  type VerificationReport,
} from '@arbiter/client/browser';
import { digestBytes, isDigestText } from './bytes';
import { factLeaf, jsonDigest, verifyInclusion } from './hashing';
import { decodeJwsUnverified, ed25519SignatureValid, VerdictCheckError, verifyVerdictJws } from './signatures';

type Rec = Record<string, unknown>;

/** The keys to check with: a trust file's (pinned), or what the services publish (unpinned). */
export type EvidenceKeys =
  { source: 'trust'; trust: TrustAnchors } | { source: 'published'; jwks: KeySet; ledger_keys: LedgerKeySet; where: string };

export interface ConsoleEvidenceInput {
  /** The consultation record (GET /<tenant>/v1/consultations/<id>). */
  record: unknown;
  /** Its evidence (GET /<tenant>/v1/consultations/<id>/evidence). */
  evidence: unknown;
  keys: EvidenceKeys;
  /** The instant expiry is reported against (ms since the epoch; default now). */
  now?: number;
}

export interface ConsoleEvidenceReport extends VerificationReport {
  /** The first check that failed, or null. */
  first_failure: { check: string; message: string } | null;
}

const isObject = (v: unknown): v is Rec => !!v && typeof v === 'object' && !Array.isArray(v);

export async function verifyConsultationEvidence(input: ConsoleEvidenceInput): Promise<ConsoleEvidenceReport> {
  const record = (isObject(input.record) ? input.record : {}) as Rec;
  const evidence = (isObject(input.evidence) ? input.evidence : {}) as Rec;
  const report = new ReportBuilder(`evidence of ${typeof record.id === 'string' ? record.id : '(no id)'}`);
  const done = (): ConsoleEvidenceReport => {
    const built = report.build();
    const failed = built.checks.find((c) => c.status === 'fail');
    return { ...built, first_failure: failed ? { check: failed.check, message: failed.message } : null };
  };

  // format: a record and the evidence of that same consultation.
  const ledger = evidence.ledger;
  if (!isObject(input.record) || typeof record.id !== 'string' || !isObject(ledger) || evidence.consultation_id !== record.id) {
    report.fail('format', 'not a consultation record and the evidence of that consultation (consultation_id and ledger)');
    return done();
  }
  report.pass('format', `consultation ${record.id} and its ledger evidence`);

  // trust: whose keys the signatures below are checked with.
  let jwks: KeySet;
  let ledgerKeys: LedgerKeySet;
  if (input.keys.source === 'trust') {
    const trust = input.keys.trust;
    report.expect(
      'trust',
      trust.tenant_id === record.tenant_id,
      `keys pinned by your trust file of ${trust.tenant_id}: ${trust.jwks.keys.length} verdict keys, ${trust.ledger_keys.keys.length} ledger keys`,
      `your trust file is of tenant ${trust.tenant_id}, the consultation of ${String(record.tenant_id)}: its keys cannot vouch for it`,
    );
    jwks = trust.jwks;
    ledgerKeys = trust.ledger_keys;
  } else {
    report.unpinned(
      'trust',
      `the keys came from the services whose answers are checked (${input.keys.where}): they are not pinned; load a trust file (arbiter trust export) to check against keys you hold`,
    );
    jwks = input.keys.jwks;
    ledgerKeys = input.keys.ledger_keys;
  }

  report.include('consultation', await verifyRecord(record, jwks, input.now ?? Date.now()));
  await verifyLedger(report, ledger, record, ledgerKeys);
  return done();
}

/** The record's own hashes, its signature and its claims (the SDK's verifyConsultation, with WebCrypto). */
async function verifyRecord(r: Rec, jwks: KeySet, now: number): Promise<VerificationReport> {
  const report = new ReportBuilder(`consultation ${String(r.id)}`);
  if (!reportRecordShape(report, r)) return report.build();
  const attempt = (value: unknown) => jsonDigest(value).catch((err: unknown) => err as Error);
  reportRecordHashes(report, r, await attempt(normativeHashInput(r)), await attempt(contextHashInput(r)));
  reportSensitiveValues(report, r);

  const jws = r.signed_verdict as string;
  reportSigningKid(report, decodeJwsUnverified(jws)?.header, r);
  let claims: Rec;
  try {
    const verified = await verifyVerdictJws(jws, jwks, now);
    claims = verified.claims;
    reportVerifiedSignature(report, verified);
  } catch (err) {
    if (!(err instanceof VerdictCheckError)) throw err;
    report.fail('signature', `${err.code}: ${err.message}`);
    return report.build();
  }
  reportClaims(report, claims, r);
  return report.build();
}

/** The ledger part, as the SDK checks an evidence pack's ledger section. */
async function verifyLedger(report: ReportBuilder, ledger: Rec, record: Rec, ledgerKeys: LedgerKeySet): Promise<void> {
  const fact = (isObject(ledger.fact) ? ledger.fact : {}) as Rec;
  const leafIndex = ledger.leaf_index as number;
  const treeSize = ledger.tree_size as number;
  const path = ledger.inclusion_path as unknown[];
  const checkpoint = ledger.checkpoint as Rec;
  const problems: string[] = [];
  if (!isObject(ledger.fact)) problems.push('fact is not an object');
  if (!Number.isSafeInteger(leafIndex) || leafIndex < 0) problems.push(`leaf_index ${show(leafIndex)} is not an integer ≥ 0`);
  if (!Number.isSafeInteger(treeSize) || treeSize < 1) problems.push(`tree_size ${show(treeSize)} is not an integer ≥ 1`);
  if (!Array.isArray(path) || !path.every(isDigestText)) problems.push('inclusion_path is not an array of sha256:<64 lowercase hex>');
  if (!isObject(checkpoint)) problems.push('checkpoint is not an object');
  if (problems.length) {
    report.fail('ledger', `the ledger section is unusable: ${problems.join('; ')}`);
    return;
  }
  report.pass('ledger', `fact ${String(fact.fact_id)}, leaf ${leafIndex} of ${treeSize} in ${String(fact.stream_id)}`);

  // The fact is what was sealed: its fact_hash recomputes from its own members (docs/ledger-formats.md "fact_hash").
  let recomputed: string | undefined;
  try {
    const sealedBy = fact.sealed_by ?? null;
    recomputed = await jsonDigest({
      fact_id: fact.fact_id,
      stream_id: fact.stream_id,
      tenant_id: fact.tenant_id,
      actor: fact.actor,
      sealed_at_ms: fact.sealed_at_ms,
      ...(sealedBy === null ? {} : { sealed_by: sealedBy }),
      custom_payload: fact.custom_payload,
      prev_hash: fact.prev_hash,
    });
  } catch (err) {
    report.fail('ledger.fact_hash', `the fact's hash cannot be computed: ${(err as Error).message}`);
  }
  if (recomputed !== undefined)
    report.expect(
      'ledger.fact_hash',
      recomputed === fact.fact_hash && isDigestText(fact.fact_hash) && ledger.fact_hash === fact.fact_hash,
      `the fact's fact_hash ${String(fact.fact_hash)} recomputes from its members`,
      `the fact's members hash to ${recomputed}, not to its fact_hash ${show(fact.fact_hash)} (the answer names ${show(ledger.fact_hash)}): the fact was changed after it was sealed`,
    );

  const stream = auditStreamId(String(record.tenant_id), 'consultations');
  report.expect(
    'ledger.stream',
    fact.stream_id === stream && fact.tenant_id === record.tenant_id,
    `sealed in ${stream}`,
    `the fact is in stream ${show(fact.stream_id)} of tenant ${show(fact.tenant_id)}, not in ${stream} of the consultation's tenant ${String(record.tenant_id)}`,
  );

  const expected = consultationSealPayload(record as never) as unknown as Rec;
  const actual = isObject(fact.custom_payload) ? fact.custom_payload : {};
  const differences = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].filter(
    (n) => !(n in expected) || !(n in actual) || !same(expected[n], actual[n]),
  );
  report.expect(
    'ledger.payload',
    differences.length === 0,
    'the sealed payload is the consultation (id, normative_hash, context_hash, verdict, signing_kid, decided_at = requested_at)',
    `the sealed payload differs from the consultation: ${differences.map((d) => `${d} (record ${show(expected[d])}, ledger ${show(actual[d])})`).join('; ')}`,
  );

  report.expect(
    'ledger.leaf_index',
    fact.sequence === leafIndex + 1 && leafIndex < treeSize,
    `leaf ${leafIndex} is the fact's position ${String(fact.sequence)} in the stream, inside a tree of ${treeSize}`,
    `leaf_index ${leafIndex} does not fit the fact's sequence ${show(fact.sequence)} (leaf_index = sequence − 1) within tree_size ${treeSize}`,
  );

  report.include('ledger.checkpoint', await verifyCheckpoint(checkpoint, ledgerKeys, stream, treeSize));

  let included = false;
  try {
    included = await verifyInclusion(
      leafIndex,
      checkpoint.tree_size as number,
      await factLeaf(String(fact.fact_hash)),
      (path as string[]).map(digestBytes),
      digestBytes(String(checkpoint.root_hash)),
    );
  } catch {
    included = false;
  }
  report.expect(
    'ledger.inclusion',
    included,
    `the ${path.length}-hash audit path leads from the fact's leaf to the checkpoint's root ${String(checkpoint.root_hash)}`,
    `the audit path does not lead from the leaf of fact_hash ${show(fact.fact_hash)} at index ${leafIndex} of ${show(checkpoint.tree_size)} to the checkpoint's root_hash ${show(checkpoint.root_hash)}`,
  );
}

/** shape, key and signature of the checkpoint (the SDK's verifyCheckpoint). */
async function verifyCheckpoint(c: Rec, keys: LedgerKeySet, streamId: string, treeSize: number): Promise<VerificationReport> {
  const report = new ReportBuilder(`checkpoint of ${String(c.stream_id)}`);
  const next = checkpointBeforeSignature(report, c, keys, { streamId, treeSize });
  if (next) reportCheckpointSignature(report, next.key, await ed25519SignatureValid(next.key, next.unsigned, next.signature));
  return report.build();
}
