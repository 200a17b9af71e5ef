// An evidence pack: one self-contained JSON file with everything an auditor needs to check a decision
// on a machine with no access to Arbiter — the consultation record, the tenant's verdict key set, the
// rule versions it cites and the approvals of the consultation; version 2 adds the consultation's
// ledger fact, its inclusion proof, the signed checkpoint it leads to and the ledger's keys; version 3
// adds the tenant's key history (docs/cli.md "Evidence packs"). verifyEvidencePack uses nothing else
// but the keys the verifier trusts (docs/evidence.md "Trusted keys"): the keys inside a pack prove
// nothing by themselves, since whoever wrote the pack chose them.
import { consultationSealPayload as sealedPayloadOf } from '@arbiter/audit-streams';
import { canonicalJson } from '@arbiter/canonical';
import { digestBytes, factLeaf, isDigestText, verifyInclusion } from '@arbiter/merkle';
import { ArbiterError } from '../errors';
import type { LedgerClient } from '../ledger-client';
import type { Approval, ConsultationRecord, KeySet, LedgerCheckpoint, LedgerFact, LedgerKeySet, RuleVersion } from '../types';
import type { VerdictClient } from '../verdict-client';
import { consultationStreamOf } from './audit-streams';
import { verifyCheckpoint } from './checkpoint';
import { verifyConsultation } from './consultation';
import { fetchTenantKeyHistory } from './key-history';
import { ledgerFactHash } from './ledger-bundle';
import { ReportBuilder, type VerificationReport } from './report';
import { conflictingKids, extendTrust, type KeyHistory, type TenantKeyHistory, type TrustAnchors } from './trust';

export const EVIDENCE_PACK_FORMAT = 'arbiter.evidence-pack';

/** What a version 2 pack adds: the consultation as sealed in the tenant's ledger, and the proof that the ledger holds it. */
export interface EvidencePackLedger {
  /** The fact as GET /facts/{fact_id} answers it (read with a key of the consultation's tenant). */
  fact: LedgerFact;
  /** The fact's leaf in the stream's Merkle tree (its sequence − 1), and the tree's size. */
  leaf_index: number;
  tree_size: number;
  /** RFC 9162 section 2.1.3 audit path, `sha256:<hex>` each, leaf upwards. */
  inclusion_path: string[];
  /** The signed tree head of size tree_size the path leads to. */
  checkpoint: LedgerCheckpoint;
  /** GET /.well-known/ledger-keys at export. */
  keys: LedgerKeySet;
}

interface EvidencePackCommon {
  format: typeof EVIDENCE_PACK_FORMAT;
  exported_at: string;
  consultation: ConsultationRecord;
  /** The tenant's key set at export (every key it ever had: old keys stay published). */
  jwks: KeySet;
  /** GET /v1/rule-versions/<id> of every cited_rule_version_ids entry. */
  rule_versions: RuleVersion[];
  /** The verdict approvals of this consultation, oldest first. */
  approvals: Approval[];
  /** False when the service offered no approvals endpoint at export time (approvals is then empty). */
  approvals_available: boolean;
}

export interface EvidencePackV1 extends EvidencePackCommon {
  version: 1;
  /** Where it came from (informational). */
  source: { verdict_url: string; tenant_id: string };
}

export interface EvidencePackV2 extends EvidencePackCommon {
  version: 2;
  /** Where it came from (informational). */
  source: { verdict_url: string; ledger_url: string; tenant_id: string };
  ledger: EvidencePackLedger;
}

export interface EvidencePackV3 extends EvidencePackCommon {
  version: 3;
  /** Where it came from (informational). */
  source: { verdict_url: string; ledger_url: string; tenant_id: string };
  ledger: EvidencePackLedger;
  /**
   * The tenant's keys stream `arbiter.<tenant_id>.keys` from its first fact, with the checkpoint of exactly
   * those facts: how a verifier whose trust file predates a rotation reaches the newer keys. The ledger's
   * own rotations are in `ledger.keys.transitions`.
   */
  key_history: TenantKeyHistory;
}

export type EvidencePack = EvidencePackV1 | EvidencePackV2 | EvidencePackV3;

export interface VerifyEvidenceOptions {
  now?: Date | number;
  /**
   * The keys the verifier holds (a parsed trust file, parseTrustFile): every signature is checked against
   * them, extended only through history they vouch for. Without them the report's status is at best
   * `unpinned` (never valid).
   */
  trust?: TrustAnchors;
}

export interface BuildEvidencePackOptions {
  /**
   * The tenant's ledger (a key with `read` of the consultation's tenant): with it the pack is version 3
   * (the ledger evidence and the key history), without it version 1.
   */
  ledger?: LedgerClient;
  /**
   * When the consultation is not sealed yet (the verdict answers 409 `evidence_pending`): false (default)
   * throws that VerdictError; true writes a version 1 pack and calls onWarning.
   */
  fallbackToV1?: boolean;
  onWarning?: (message: string) => void;
  onProgress?: ProgressFn;
  now?: () => Date;
}

export type ProgressFn = (message: string) => void;

async function approvalsOf(
  client: VerdictClient,
  record: ConsultationRecord,
  progress: ProgressFn,
): Promise<{ approvals: Approval[]; available: boolean }> {
  const approvals: Approval[] = [];
  // The list has no consultation filter (docs/verdicts.md "Approvals"): approvals are created after their consultation,
  // so the list since the consultation's day, filtered here, holds them all.
  const since = record.requested_at.slice(0, 10);
  let cursor: string | undefined;
  let pages = 0;
  try {
    do {
      const page = await client.listApprovals({ since, limit: 1000, cursor });
      approvals.push(...page.items.filter((a) => a.consultation_id === record.id));
      cursor = page.next_cursor ?? undefined;
      if (++pages % 5 === 0) progress(`approvals: ${pages} pages read`);
    } while (cursor);
  } catch (err) {
    // An unknown route answers 404 not_found ("No route for …"): this service has no approvals yet.
    if (err instanceof ArbiterError && err.status === 404 && err.code === 'not_found') return { approvals: [], available: false };
    throw err;
  }
  approvals.sort((a, b) => a.requested_at.localeCompare(b.requested_at) || a.id.localeCompare(b.id));
  return { approvals, available: true };
}

/**
 * Reads everything a consultation's evidence needs from the verdict service (and, for version 2, the
 * ledger) into one pack.
 */
export async function buildEvidencePack(
  client: VerdictClient,
  consultationId: string,
  opts: BuildEvidencePackOptions = {},
): Promise<EvidencePack> {
  const progress = opts.onProgress ?? (() => undefined);
  progress(`consultation ${consultationId}`);
  // The record as hashed and signed: a read caller's `sensitive_values` stay out of the pack, which travels to auditors
  // where an erasure cannot reach (docs/verdicts.md "Sensitive fields").
  const { sensitive_values: _values, ...consultation } = (await client.getConsultation(consultationId)) as ConsultationRecord & {
    sensitive_values?: unknown;
  };
  // The ledger part first: an unsealed consultation fails the export before anything else is read.
  let ledger: EvidencePackLedger | undefined;
  if (opts.ledger) {
    progress('ledger evidence');
    try {
      ledger = await ledgerEvidenceOf(client, opts.ledger, consultation, progress);
    } catch (err) {
      if (!(opts.fallbackToV1 && err instanceof ArbiterError && err.service === 'verdict' && err.code === 'evidence_pending')) throw err;
      opts.onWarning?.(`consultation ${consultationId} is not sealed in the ledger yet: writing a version 1 pack, without ledger evidence`);
    }
  }
  const identity = await client.whoami();
  progress(`key set of tenant ${identity.tenant_slug}`);
  const { keySet } = await client.jwks(identity.tenant_slug);
  const ids = [...new Set(consultation.cited_rule_version_ids)];
  const rule_versions: RuleVersion[] = [];
  for (const [i, id] of ids.entries()) {
    progress(`rule version ${i + 1}/${ids.length}: ${id}`);
    rule_versions.push(await client.getRuleVersion(id));
  }
  progress('approvals');
  const { approvals, available } = await approvalsOf(client, consultation, progress);
  const common = {
    format: EVIDENCE_PACK_FORMAT,
    exported_at: (opts.now?.() ?? new Date()).toISOString(),
    consultation,
    jwks: keySet,
    rule_versions,
    approvals,
    approvals_available: available,
  } as const;
  if (ledger && opts.ledger) {
    progress(`key history of ${consultation.tenant_id}`);
    const key_history = await fetchTenantKeyHistory(opts.ledger, consultation.tenant_id);
    return {
      ...common,
      version: 3,
      source: { verdict_url: client.baseUrl, ledger_url: opts.ledger.baseUrl, tenant_id: consultation.tenant_id },
      ledger,
      key_history,
    };
  }
  return { ...common, version: 1, source: { verdict_url: client.baseUrl, tenant_id: consultation.tenant_id } };
}

/** The verdict's evidence (fact id, inclusion proof, checkpoint), the full fact and the keys from the ledger. */
async function ledgerEvidenceOf(
  client: VerdictClient,
  ledger: LedgerClient,
  record: ConsultationRecord,
  progress: ProgressFn,
): Promise<EvidencePackLedger> {
  const evidence = await client.getConsultationEvidence(record.id);
  progress(`ledger fact ${evidence.ledger.fact_id} of ${evidence.ledger.stream_id}`);
  const fact = await ledger.getFact(evidence.ledger.fact_id);
  progress('ledger keys');
  const keys = await ledger.keys();
  const { leaf_index, tree_size, inclusion_path, checkpoint } = evidence.ledger;
  return { fact, leaf_index, tree_size, inclusion_path, checkpoint, keys };
}

/** The payload the verdict service seals for a consultation: the record's fields it names, by the service's own definition. */
export function consultationSealPayload(
  record: Pick<ConsultationRecord, 'id' | 'normative_hash' | 'context_hash' | 'verdict' | 'signing_kid' | 'requested_at'>,
): Record<string, unknown> {
  return { ...sealedPayloadOf(record) };
}

/** The members of a sealed payload that differ from what the record says (absent, extra or changed). */
export function sealPayloadDifferences(
  expected: Record<string, unknown>,
  payload: unknown,
): { field: string; record: unknown; ledger: unknown }[] {
  const actual = payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : {};
  const names = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
  return names
    .filter((n) => !same(expected[n], actual[n]) || !(n in expected) || !(n in actual))
    .map((n) => ({ field: n, record: expected[n], ledger: actual[n] }));
}

const same = (a: unknown, b: unknown) => {
  try {
    return canonicalJson(a ?? null) === canonicalJson(b ?? null);
  } catch {
    return false;
  }
};

/**
 * Checks a pack fully offline: the consultation (hashes, signature, claims) and what the pack adds to it,
 * every signature against the keys the verifier trusts (opts.trust) as extended by the pack's key history.
 */
export async function verifyEvidencePack(pack: unknown, opts: VerifyEvidenceOptions = {}): Promise<VerificationReport> {
  const p = (pack ?? {}) as Partial<EvidencePack>;
  const report = new ReportBuilder(`evidence pack${p.consultation?.id ? ` of ${p.consultation.id}` : ''}`);
  if (!pack || typeof pack !== 'object' || p.format !== EVIDENCE_PACK_FORMAT || (p.version !== 1 && p.version !== 2 && p.version !== 3)) {
    return report.fail('format', `not an evidence pack (format ${EVIDENCE_PACK_FORMAT}, version 1, 2 or 3)`).build();
  }
  if (!p.consultation || !p.jwks || !Array.isArray(p.jwks.keys) || !Array.isArray(p.rule_versions) || !Array.isArray(p.approvals)) {
    return report.fail('format', 'the pack lacks consultation, jwks, rule_versions or approvals').build();
  }
  if ((p.version === 2 || p.version === 3) && (!p.ledger || typeof p.ledger !== 'object'))
    return report.fail('format', `the version ${p.version} pack has no ledger section`).build();
  if (p.version === 3 && (!p.key_history || typeof p.key_history !== 'object'))
    return report.fail('format', 'the version 3 pack has no key_history').build();
  const from = [p.source?.verdict_url ?? '(unknown)', p.version === 2 || p.version === 3 ? p.source?.ledger_url : undefined]
    .filter(Boolean)
    .join(' and ');
  report.pass('format', `evidence pack v${p.version} exported ${p.exported_at ?? '(no date)'} from ${from}`);
  const record = p.consultation;

  // 0. The keys to verify with: the verifier's own, extended by the history the pack carries.
  const keys = trustedKeysOf(report, p as EvidencePack, opts.trust);

  // 1. The consultation, against those keys only.
  report.include('consultation', await verifyConsultation(record, { jwks: keys.jwks, now: opts.now }));

  // 2. Rule versions: each cited one present and consistent with the record. They are not signed: the
  //    signed claims bind their ids (cited_rule_version_ids), and the registry never changes a version.
  const byId = new Map(p.rule_versions.map((v) => [v.id, v]));
  const cited = record.cited_rule_version_ids ?? [];
  const missing = cited.filter((id) => !byId.has(id));
  report.expect(
    'rule_versions',
    missing.length === 0,
    `all ${cited.length} cited rule versions are in the pack`,
    `cited rule versions missing from the pack: ${missing.join(', ')}`,
  );
  for (const v of p.rule_versions) {
    const problems: string[] = [];
    if (!cited.includes(v.id)) problems.push('the consultation does not cite it');
    if (v.tenant_id !== record.tenant_id) problems.push(`it belongs to tenant ${v.tenant_id}, not ${record.tenant_id}`);
    if (!(record.cited_entry_ids ?? []).includes(v.rule_id)) problems.push(`its rule ${v.rule_id} is not among the cited rules`);
    const traced = (record.precedence_trace ?? []).find((t) => t.rule_version_id === v.id);
    if (traced && traced.rule_id !== v.rule_id) problems.push(`the precedence trace names rule ${traced.rule_id} for it`);
    if (problems.length) report.fail(`rule_version.${v.id}`, problems.join('; '));
  }

  // 3. Approvals: about this consultation and this operation, for the rules that triggered it.
  if (!p.approvals_available) report.info('approvals', 'the verdict service had no approvals endpoint when the pack was exported');
  if (p.approvals.length && record.verdict !== 'approval_required') {
    report.fail('approvals', `the pack holds approvals but the verdict was ${record.verdict}, not approval_required`);
  }
  const triggers = new Set((record.triggers ?? []).map((t) => t.rule_version_id));
  for (const a of p.approvals) {
    const problems: string[] = [];
    if (a.consultation_id !== record.id) problems.push(`it is about consultation ${a.consultation_id}`);
    if (a.intended_action !== record.action)
      problems.push(`intended_action ${a.intended_action} is not the consultation's action ${record.action}`);
    if (a.intended_resource !== record.resource)
      problems.push(`intended_resource ${a.intended_resource} is not the consultation's resource ${record.resource}`);
    if (!same(a.intended_parameters ?? {}, record.parameters ?? {}))
      problems.push("intended_parameters are not the consultation's parameters");
    const foreign = (a.triggers ?? []).filter((t) => !triggers.has(t.rule_version_id));
    if (foreign.length) problems.push(`triggers ${foreign.map((t) => t.rule_version_id).join(', ')} did not trigger the consultation`);
    // Pending and expired (docs/approvals.md "Quorum, escalation and expiry") are undecided: no decider, no decision.
    const undecided = a.status === 'pending' || a.status === 'expired';
    if (!undecided && (!a.decider || !a.decision || !a.decided_at))
      problems.push(`it is ${a.status} without decider, decision and decided_at`);
    if (undecided && (a.decider || a.decision)) problems.push(`it is ${a.status} but carries a decision`);
    if ((a.status === 'approved' && a.decision !== 'approve') || (a.status === 'rejected' && a.decision !== 'reject'))
      problems.push(`status ${a.status} contradicts decision ${a.decision}`);
    if (problems.length) report.fail(`approval.${a.id}`, problems.join('; '));
    else report.pass(`approval.${a.id}`, `${a.status}${a.decider ? ` by ${a.decider} at ${a.decided_at}` : ''}`);
  }
  if (p.approvals_available && !p.approvals.length)
    report.info(
      'approvals',
      record.verdict === 'approval_required' ? 'no approval was requested for this consultation' : 'none (the verdict did not require one)',
    );

  // 4. Versions 2 and 3: the consultation as sealed in the tenant's ledger, and the proof the ledger holds it.
  if ((p.version === 2 || p.version === 3) && p.ledger) verifyLedgerEvidence(report, p.ledger, record, keys.ledger_keys);
  return report.build();
}

/**
 * The verdict and ledger keys a pack is checked with. With trust: the verifier's keys, extended by the
 * pack's history where trusted keys vouch for it, and a pack whose own key sets give a trusted kid other
 * key material fails (its keys were replaced). Without: the pack's own keys, and the report is unpinned.
 */
function trustedKeysOf(report: ReportBuilder, p: EvidencePack, trust: TrustAnchors | undefined): TrustAnchors {
  const tenant = p.consultation.tenant_id;
  const packLedgerKeys = p.version === 1 ? { keys: [] } : (p.ledger.keys ?? { keys: [] });
  const history: KeyHistory =
    p.version === 1 ? {} : { ledger_transitions: p.ledger.keys?.transitions, keys_stream: p.version === 3 ? p.key_history : undefined };
  if (!trust) {
    report.unpinned(
      'trust',
      'no trusted keys given (--trust <file>): every signature below was checked against keys the pack itself carries, which whoever wrote the pack chose',
    );
    const { trusted, report: extension } = extendTrust(
      { tenant_id: tenant, jwks: p.jwks, ledger_keys: Array.isArray(packLedgerKeys.keys) ? packLedgerKeys : { keys: [] } },
      history,
    );
    report.include('trust', extension);
    return trusted;
  }
  report.expect(
    'trust',
    trust.tenant_id === tenant,
    `keys pinned by your trust file of ${tenant}: ${trust.jwks.keys.length} verdict keys, ${trust.ledger_keys.keys.length} ledger keys`,
    `your trust file is of tenant ${trust.tenant_id}, the consultation of ${tenant}: its keys cannot vouch for this pack`,
  );
  const { trusted, report: extension } = extendTrust(trust, history);
  report.include('trust', extension);
  const checkSubstitution = (check: string, what: string, packed: unknown, held: { kid: string; x: string; y?: string }[]) => {
    const keysOfPack = Array.isArray((packed as KeySet | undefined)?.keys) ? (packed as KeySet).keys : [];
    const swapped = conflictingKids(keysOfPack, held);
    const untrusted = keysOfPack.filter((k) => !held.some((h) => h.kid === k.kid)).map((k) => k.kid);
    report.expect(
      check,
      swapped.length === 0,
      `the pack's ${what} agree with the trusted ones${untrusted.length ? ` (${untrusted.join(', ')} not trusted: ignored)` : ''}`,
      `the pack gives ${swapped.join(', ')} other public keys than the trusted ones: the pack's ${what} were replaced`,
    );
  };
  checkSubstitution('trust.jwks', 'verdict keys', p.jwks, trusted.jwks.keys);
  if (p.version !== 1) checkSubstitution('trust.ledger_keys', 'ledger keys', p.ledger.keys, trusted.ledger_keys.keys);
  return trusted;
}

/**
 * The ledger section against the record: the fact's own hash, its stream, its payload, its leaf in the
 * tree, and the inclusion proof up to a checkpoint signed by a ledger key valid when it was made.
 */
function verifyLedgerEvidence(
  report: ReportBuilder,
  ledger: EvidencePackLedger,
  record: ConsultationRecord,
  ledgerKeys: LedgerKeySet,
): void {
  const fact = (ledger.fact ?? {}) as unknown as Record<string, unknown>;
  const shapeProblems: string[] = [];
  if (!ledger.fact || typeof ledger.fact !== 'object') shapeProblems.push('fact is not an object');
  if (!Number.isSafeInteger(ledger.leaf_index) || ledger.leaf_index < 0)
    shapeProblems.push(`leaf_index ${show(ledger.leaf_index)} is not an integer ≥ 0`);
  if (!Number.isSafeInteger(ledger.tree_size) || ledger.tree_size < 1)
    shapeProblems.push(`tree_size ${show(ledger.tree_size)} is not an integer ≥ 1`);
  if (!Array.isArray(ledger.inclusion_path) || !ledger.inclusion_path.every(isDigestText))
    shapeProblems.push('inclusion_path is not an array of sha256:<64 lowercase hex>');
  if (!ledger.checkpoint || typeof ledger.checkpoint !== 'object') shapeProblems.push('checkpoint is not an object');
  if (!ledger.keys || !Array.isArray(ledger.keys.keys)) shapeProblems.push('keys has no keys array');
  if (shapeProblems.length) {
    report.fail('ledger', `the ledger section is unusable: ${shapeProblems.join('; ')}`);
    return;
  }
  report.pass('ledger', `fact ${String(fact.fact_id)}, leaf ${ledger.leaf_index} of ${ledger.tree_size} in ${String(fact.stream_id)}`);

  // The fact is what was sealed: its fact_hash recomputes from its own members (docs/ledger-formats.md "fact_hash").
  let recomputed: string | undefined;
  try {
    recomputed = ledgerFactHash(fact, fact, fact.prev_hash as string);
  } catch (err) {
    report.fail('ledger.fact_hash', `the fact's hash cannot be computed: ${(err as Error).message}`);
  }
  if (recomputed !== undefined) {
    report.expect(
      'ledger.fact_hash',
      recomputed === fact.fact_hash && isDigestText(fact.fact_hash),
      `the fact's fact_hash ${String(fact.fact_hash)} recomputes from its members`,
      `the fact's members hash to ${recomputed}, not to its fact_hash ${show(fact.fact_hash)}: the fact was changed after it was sealed`,
    );
  }

  // It is in the consultation tenant's consultations stream.
  const stream = consultationStreamOf(record.tenant_id);
  report.expect(
    'ledger.stream',
    fact.stream_id === stream && fact.tenant_id === record.tenant_id,
    `sealed in ${stream}`,
    `the fact is in stream ${show(fact.stream_id)} of tenant ${show(fact.tenant_id)}, not in ${stream} of the consultation's tenant ${record.tenant_id}`,
  );

  // Its payload is the consultation.
  const differences = sealPayloadDifferences(consultationSealPayload(record), fact.custom_payload);
  report.expect(
    'ledger.payload',
    differences.length === 0,
    'the sealed payload is the consultation (id, normative_hash, context_hash, verdict, signing_kid, decided_at = requested_at)',
    `the sealed payload differs from the consultation: ${differences.map((d) => `${d.field} (record ${show(d.record)}, ledger ${show(d.ledger)})`).join('; ')}`,
  );

  // Its leaf is where the ledger says it is: leaf_index = sequence − 1.
  report.expect(
    'ledger.leaf_index',
    fact.sequence === ledger.leaf_index + 1 && ledger.leaf_index < ledger.tree_size,
    `leaf ${ledger.leaf_index} is the fact's position ${String(fact.sequence)} in the stream, inside a tree of ${ledger.tree_size}`,
    `leaf_index ${ledger.leaf_index} does not fit the fact's sequence ${show(fact.sequence)} (leaf_index = sequence − 1) within tree_size ${ledger.tree_size}`,
  );

  // The checkpoint: of this stream, of this size, signed by a (trusted) ledger key valid when it was made.
  report.include('ledger.checkpoint', verifyCheckpoint(ledger.checkpoint, ledgerKeys, { streamId: stream, treeSize: ledger.tree_size }));

  // The inclusion proof leads from the fact's leaf to the checkpoint's root (RFC 9162 section 2.1.3.2), in
  // the tree of the size the checkpoint signs (a different tree_size beside it failed the checkpoint above).
  let included = false;
  try {
    const path = ledger.inclusion_path.map(digestBytes);
    included = verifyInclusion(
      ledger.leaf_index,
      ledger.checkpoint.tree_size,
      factLeaf(String(fact.fact_hash)),
      path,
      digestBytes(String(ledger.checkpoint.root_hash)),
    );
  } catch {
    included = false;
  }
  report.expect(
    'ledger.inclusion',
    included,
    `the ${ledger.inclusion_path.length}-hash audit path leads from the fact's leaf to the checkpoint's root ${ledger.checkpoint.root_hash}`,
    `the audit path does not lead from the leaf of fact_hash ${show(fact.fact_hash)} at index ${ledger.leaf_index} of ${show(ledger.checkpoint.tree_size)} to the checkpoint's root_hash ${show(ledger.checkpoint.root_hash)}`,
  );
}

const show = (v: unknown) => JSON.stringify(v) ?? 'absent';
