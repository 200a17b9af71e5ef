// An evidence pack: one self-contained JSON file with everything an auditor needs to check a decision
// on a machine with no access to Arbiter — the consultation record, the tenant's verdict key set, the
// rule versions it cites and the approvals of the consultation. verifyEvidencePack uses nothing else.
import { canonicalJson } from '@arbiter/canonical';
import { ArbiterError } from '../errors';
import type { Approval, ConsultationRecord, KeySet, RuleVersion } from '../types';
import type { VerdictClient } from '../verdict-client';
import { verifyConsultation } from './consultation';
import { ReportBuilder, type VerificationReport } from './report';

export const EVIDENCE_PACK_FORMAT = 'arbiter.evidence-pack';

export interface EvidencePack {
  format: typeof EVIDENCE_PACK_FORMAT;
  version: 1;
  exported_at: string;
  /** Where it came from (informational). */
  source: { verdict_url: string; tenant_id: string };
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

export type ProgressFn = (message: string) => void;

async function approvalsOf(client: VerdictClient, record: ConsultationRecord, progress: ProgressFn): Promise<{ approvals: Approval[]; available: boolean }> {
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

/** Reads everything a consultation's evidence needs from the verdict service into one pack. */
export async function buildEvidencePack(client: VerdictClient, consultationId: string, opts: { onProgress?: ProgressFn; now?: () => Date } = {}): Promise<EvidencePack> {
  const progress = opts.onProgress ?? (() => undefined);
  progress(`consultation ${consultationId}`);
  const consultation = await client.getConsultation(consultationId);
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
  return {
    format: EVIDENCE_PACK_FORMAT,
    version: 1,
    exported_at: (opts.now?.() ?? new Date()).toISOString(),
    source: { verdict_url: client.baseUrl, tenant_id: consultation.tenant_id },
    consultation,
    jwks: keySet,
    rule_versions,
    approvals,
    approvals_available: available,
  };
}

const same = (a: unknown, b: unknown) => {
  try {
    return canonicalJson(a ?? null) === canonicalJson(b ?? null);
  } catch {
    return false;
  }
};

/** Checks a pack fully offline: the consultation (hashes, signature, claims) and what the pack adds to it. */
export async function verifyEvidencePack(pack: unknown, opts: { now?: Date | number } = {}): Promise<VerificationReport> {
  const p = (pack ?? {}) as Partial<EvidencePack>;
  const report = new ReportBuilder(`evidence pack${p.consultation?.id ? ` of ${p.consultation.id}` : ''}`);
  if (!pack || typeof pack !== 'object' || p.format !== EVIDENCE_PACK_FORMAT || p.version !== 1) {
    return report.fail('format', `not an evidence pack (format ${EVIDENCE_PACK_FORMAT}, version 1)`).build();
  }
  if (!p.consultation || !p.jwks || !Array.isArray(p.rule_versions) || !Array.isArray(p.approvals)) {
    return report.fail('format', 'the pack lacks consultation, jwks, rule_versions or approvals').build();
  }
  report.pass('format', `evidence pack v1 exported ${p.exported_at ?? '(no date)'} from ${p.source?.verdict_url ?? '(unknown)'}`);
  const record = p.consultation;

  // 1. The consultation, against the key set in the pack only.
  report.include('consultation', await verifyConsultation(record, { jwks: p.jwks, now: opts.now }));

  // 2. Rule versions: each cited one present and consistent with the record. They are not signed: the
  //    signed claims bind their ids (cited_rule_version_ids), and the registry never changes a version.
  const byId = new Map(p.rule_versions.map((v) => [v.id, v]));
  const cited = record.cited_rule_version_ids ?? [];
  const missing = cited.filter((id) => !byId.has(id));
  report.expect('rule_versions', missing.length === 0, `all ${cited.length} cited rule versions are in the pack`, `cited rule versions missing from the pack: ${missing.join(', ')}`);
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
    if (a.intended_action !== record.action) problems.push(`intended_action ${a.intended_action} is not the consultation's action ${record.action}`);
    if (a.intended_resource !== record.resource) problems.push(`intended_resource ${a.intended_resource} is not the consultation's resource ${record.resource}`);
    if (!same(a.intended_parameters ?? {}, record.parameters ?? {})) problems.push('intended_parameters are not the consultation\'s parameters');
    const foreign = (a.triggers ?? []).filter((t) => !triggers.has(t.rule_version_id));
    if (foreign.length) problems.push(`triggers ${foreign.map((t) => t.rule_version_id).join(', ')} did not trigger the consultation`);
    if (a.status !== 'pending' && (!a.decider || !a.decision || !a.decided_at)) problems.push(`it is ${a.status} without decider, decision and decided_at`);
    if (a.status === 'pending' && (a.decider || a.decision)) problems.push('it is pending but carries a decision');
    if ((a.status === 'approved' && a.decision !== 'approve') || (a.status === 'rejected' && a.decision !== 'reject')) problems.push(`status ${a.status} contradicts decision ${a.decision}`);
    if (problems.length) report.fail(`approval.${a.id}`, problems.join('; '));
    else report.pass(`approval.${a.id}`, `${a.status}${a.decider ? ` by ${a.decider} at ${a.decided_at}` : ''}`);
  }
  if (p.approvals_available && !p.approvals.length) report.info('approvals', record.verdict === 'approval_required' ? 'no approval was requested for this consultation' : 'none (the verdict did not require one)');
  return report.build();
}
