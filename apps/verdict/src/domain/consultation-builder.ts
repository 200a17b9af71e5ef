// Builds the frozen consultation record of a complete evaluation, its hashes and its signed verdict
// (docs/verdicts.md "Consultation record", "Signed verdict", "Hashes and the signed verdict"). Pure apart from
// the signer handed in.
import {
  canonicalJson,
  CanonicalizationError,
  sha256Hex,
  withLeadingMembers,
  type CanonicalText,
  type KnownTexts,
} from '@arbiter/canonical';
import { AppError } from '@arbiter/http';
import type { CompleteEvaluation, Fact, Scope } from '@arbiter/policy';
import type { ConsultationRecord, LedgerCitationEntry, LimitRecordEntry, RequiredContextRound } from './consultation-record';
import type { ActiveSigner } from '../keys';

export interface DecisionInput {
  id: string;
  operation: 'check' | 'resolve';
  tenantId: string;
  callerPrincipalId: string;
  onBehalfOf: string | null;
  onBehalfOfAuthenticated: boolean;
  requestedAt: Date;
  action: string;
  resource: string;
  scope: Scope;
  parameters: Record<string, unknown>;
  context: Record<string, Fact>;
  /** Computed by contextHash() (which also validated the input). */
  contextHash: ContextHash;
  evaluation: CompleteEvaluation;
  ttlSeconds: number;
  history: RequiredContextRound[];
  correlation: Record<string, unknown> | null;
  stateHash: string;
  stateRevision: number;
  issuer: string;
  /** The one-shot approval this consultation used, if any. */
  approvalId?: string | null;
  /** The context fields whose ledger citation was verified (docs/verdicts.md "Facts the ledger vouches for"); null or absent when none. */
  ledgerCitations?: Record<string, LedgerCitationEntry> | null;
  /** The windows the consultation read (docs/verdicts.md "Windows and outcomes"); null, absent or empty when none. */
  limits?: readonly LimitRecordEntry[] | null;
}

/**
 * context_hash (docs/verdicts.md "Hashes and the signed verdict"): `sha256:` + hex SHA-256 of the UTF-8 bytes of the RFC 8785
 * canonical JSON of {action, resource, scope, parameters, context}, context being the Facts with every
 * member given (so `source` is bound). A string the record could not store verbatim (U+0000, a lone
 * surrogate) is refused before this (http/unstorable-strings.ts); the canonical pass refuses a lone
 * surrogate again, before anything is signed.
 */
export function contextHash(input: {
  action: string;
  resource: string;
  scope: Scope;
  parameters: Record<string, unknown>;
  context: Record<string, Fact>;
}): ContextHash {
  const parts = new Map<object, CanonicalText>();
  let canonical: CanonicalText;
  try {
    // The three objects are written first and kept, so that normative_hash does not serialise them again.
    for (const part of [input.context, input.parameters, input.scope]) if (!parts.has(part)) parts.set(part, canonicalJson(part));
    // Members in RFC 8785 order, so that the writer does not sort them.
    canonical = canonicalJson(
      { action: input.action, context: input.context, parameters: input.parameters, resource: input.resource, scope: input.scope },
      parts,
    );
  } catch (err) {
    if (err instanceof CanonicalizationError)
      throw new AppError(400, 'validation_failed', `The request cannot be canonicalised (RFC 8785): ${err.message}`);
    throw err;
  }
  return { digest: `sha256:${sha256Hex(canonical)}`, parts };
}

/** context_hash and the canonical JSON of its object members, by identity. */
export interface ContextHash {
  digest: string;
  parts: KnownTexts;
}

/** normative_hash (docs/verdicts.md "Hashes and the signed verdict"): the record without normative_hash and signed_verdict. */
export function normativeHash(
  record: Omit<ConsultationRecord, 'normative_hash' | 'signed_verdict'> & Partial<ConsultationRecord>,
  known: KnownTexts | null = null,
): string {
  const { normative_hash: _n, signed_verdict: _s, ...rest } = record;
  return `sha256:${sha256Hex(canonicalJson(rest, known))}`;
}

/** The claims of the signed verdict (docs/verdicts.md "Signing keys"). */
export function verdictClaims(record: ConsultationRecord, issuer: string): Record<string, unknown> {
  const iat = Math.floor(Date.parse(record.requested_at) / 1000);
  return {
    iss: issuer,
    sub: record.caller_principal_id,
    iat,
    exp: iat + record.verdict_ttl_seconds,
    jti: record.id,
    tenant_id: record.tenant_id,
    verdict: record.verdict,
    action: record.action,
    resource: record.resource,
    scope: record.scope_used,
    parameters: record.parameters,
    on_behalf_of: record.on_behalf_of,
    context_hash: record.context_hash,
    normative_hash: record.normative_hash,
    dominating_rule_id: record.dominating_rule_id,
    cited_rule_version_ids: record.cited_rule_version_ids,
    // Only on the consultation a one-shot approval allowed (docs/verdicts.md "Signed verdict").
    ...(record.approval_id ? { approval_id: record.approval_id } : {}),
  };
}

/** A consultation ready to store: the record, and the text it is stored as. */
export interface SealedConsultation {
  record: ConsultationRecord;
  /**
   * The stored JSON: normative_hash and signed_verdict first, then every other member exactly as
   * hashed (RFC 8785 text), so the record is serialised once per check, not twice.
   */
  json: string;
}

/** The record, hashed and signed: normative_hash first (it is a claim), then the JWS. */
export function buildConsultation(input: DecisionInput, signer: ActiveSigner): SealedConsultation {
  const e = input.evaluation;
  const requestedAt = input.requestedAt.toISOString();
  // Members in RFC 8785 order, so that the canonical pass below does not sort them.
  const hashed: Omit<ConsultationRecord, 'normative_hash' | 'signed_verdict'> = {
    action: input.action,
    applied_override_ids: e.applied_override_ids,
    approval_id: input.approvalId ?? undefined,
    caller_principal_id: input.callerPrincipalId,
    candidate_deciders: e.candidate_deciders,
    cited_entry_ids: e.cited_rule_ids,
    cited_rule_version_ids: e.cited_rule_version_ids,
    context_hash: input.contextHash.digest,
    context_snapshot: input.context,
    correlation: input.correlation,
    dominating_rule_id: e.dominating_rule_id,
    expired_at: new Date(input.requestedAt.getTime() + input.ttlSeconds * 1000).toISOString(),
    // No explanation: it is computed on demand, never stored (docs/verdicts.md "Explanations").
    id: input.id,
    // Only when a Fact cited the ledger: other records are unchanged.
    ledger_citations: input.ledgerCitations ?? undefined,
    // Only when a limit rule's window was read: other records are unchanged.
    limits: input.limits?.length ? [...input.limits] : undefined,
    on_behalf_of: input.onBehalfOf,
    on_behalf_of_authenticated: input.onBehalfOfAuthenticated,
    operation: input.operation,
    parameters: input.parameters,
    precedence_trace: e.precedence_trace,
    requested_at: requestedAt,
    required_context_history: input.history,
    resolved_target_ids: e.resolved_target_ids,
    resource: input.resource,
    scope_used: input.scope as ConsultationRecord['scope_used'],
    // Only when a shadow rule disagrees (docs/verdicts.md "Shadow rules"): other records are unchanged.
    shadow: e.shadow.length > 0 ? e.shadow : undefined,
    signing_epoch: signer.epoch,
    signing_kid: signer.kid,
    state_hash: input.stateHash,
    state_revision: input.stateRevision,
    tenant_id: input.tenantId,
    triggers: e.triggers,
    verdict: e.verdict,
    verdict_ttl_seconds: input.ttlSeconds,
  };
  const text = canonicalJson(hashed, input.contextHash.parts);
  const record: ConsultationRecord = { ...hashed, normative_hash: `sha256:${sha256Hex(text)}`, signed_verdict: '' };
  record.signed_verdict = signer.sign(verdictClaims(record, input.issuer));
  const json = withLeadingMembers({ normative_hash: record.normative_hash, signed_verdict: record.signed_verdict }, text);
  return { record, json };
}
