// Response bodies of complete evaluations: the fields docs/verdicts.md "check" lists per verdict, and those of the
// overview resolve variant.
import { ledgerCitationMeets } from '../domain/ledger-citation';
import type { Explanation, MissingField } from '@arbiter/policy';
import type { ConsultationRecord } from '../domain/consultation-record';
import type { CheckResponse, CompleteResolveResponse, OverviewCompleteResponse, Requirement } from '../models/verdicts';

export function approvalsEndpoint(tenantId: string): string {
  return `/${tenantId}/v1/approvals`;
}

/**
 * The check response (200, complete; docs/verdicts.md "check"). allowed: the whole evidence; blocked: dominating_rule_id;
 * approval_required: the approval hint. Other verdicts (observe, tenant-defined)
 * get the whole evidence, as allowed does.
 */
export function presentCheck(record: ConsultationRecord, explanation: Explanation | null = null): CheckResponse {
  return withLimits(record, presentVerdict(record, explanation));
}

function presentVerdict(record: ConsultationRecord, explanation: Explanation | null): CheckResponse {
  const base = { operation_status: 'complete' as const, verdict: record.verdict, cited_rule_ids: record.cited_entry_ids };
  switch (record.verdict) {
    case 'blocked':
      return withExplanation<CheckResponse>(
        { ...base, dominating_rule_id: record.dominating_rule_id, consultation_id: record.id, signed_verdict: record.signed_verdict },
        explanation,
      );
    case 'approval_required':
      return withExplanation<CheckResponse>(
        {
          ...base,
          consultation_id: record.id,
          signed_verdict: record.signed_verdict,
          approval: { endpoint: approvalsEndpoint(record.tenant_id), example_body: { consultation_id: record.id, requester_notes: '' } },
        },
        explanation,
      );
    default:
      return {
        ...base,
        cited_rule_version_ids: record.cited_rule_version_ids,
        dominating_rule_id: record.dominating_rule_id,
        precedence_trace: record.precedence_trace,
        resolved_target_ids: record.resolved_target_ids,
        consultation_id: record.id,
        signed_verdict: record.signed_verdict,
        context_hash: record.context_hash,
      };
  }
}

/** The record's `limits` (docs/verdicts.md "Windows and outcomes"), every verdict, when it has them. */
function withLimits<T extends CheckResponse | OverviewCompleteResponse>(record: ConsultationRecord, body: T): T {
  if (record.limits) body.limits = record.limits;
  return body;
}

/** The explanation the request asked for (docs/verdicts.md "Explanations"), when there is one. */
function withExplanation<T extends CheckResponse | OverviewCompleteResponse>(body: T, explanation: Explanation | null): T {
  if (explanation) body.explanation = explanation;
  return body;
}

export function presentResolveComplete(record: ConsultationRecord, explanation: Explanation | null = null): CompleteResolveResponse {
  return { ...presentCheck(record, explanation), required_context_history: record.required_context_history };
}

export function presentOverviewComplete(record: ConsultationRecord, explanation: Explanation | null = null): OverviewCompleteResponse {
  const out: OverviewCompleteResponse = {
    operation_status: 'complete',
    verdict: record.verdict,
    cited_rules: record.cited_entry_ids,
    cited_rule_versions: record.cited_rule_version_ids,
    dominating_rule_id: record.dominating_rule_id,
    consultation_id: record.id,
    normative_hash: record.normative_hash,
  };
  if (record.verdict === 'approval_required') {
    out.approver = {
      candidate_deciders: record.candidate_deciders,
      triggers: record.triggers,
      endpoint: approvalsEndpoint(record.tenant_id),
    };
  }
  return withLimits(record, withExplanation(out, explanation));
}

/** Engine missing fields as Requirements (docs/verdicts.md "Requirement"; the engine already orders their members). */
export function presentRequirements(fields: readonly MissingField[]): Requirement[] {
  // A Requirement a ledger citation would meet says so (docs/verdicts.md "Facts the ledger vouches for").
  return fields.map((f) => (ledgerCitationMeets(f) ? { ...f, ledger_citation: 'accepted' } : f)) as unknown as Requirement[];
}
