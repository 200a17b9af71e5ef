import type { Logger } from 'pino';
import type { AuthenticatedIdentity } from '@arbiter/auth';
import { AppError, type ServiceMetrics } from '@arbiter/http';
import { newTimeOrderedId, retentionMs } from '@arbiter/db';
import { buildConsultation, type DecisionInput, type SealedConsultation } from '../domain/consultation-builder';
import type { ConsultationRecord } from '../domain/consultation-record';
import { explanationBasis } from '../domain/explanation-basis';
import type { TenantSnapshot } from '../domain/tenant-snapshot';
import { signingKeyUnavailable, type VerdictKeys } from '../keys';
import type { ConsultationRepository } from '../repositories/consultations.repository';
import type { SealedValues } from '../domain/sealed-values';

/** A complete evaluation on its way to a record: the builder's input, before the ids and the snapshot's fields are filled in. */
export interface Decision extends Pick<
  DecisionInput,
  | 'operation'
  | 'requestedAt'
  | 'action'
  | 'resource'
  | 'scope'
  | 'parameters'
  | 'context'
  | 'contextHash'
  | 'evaluation'
  | 'ttlSeconds'
  | 'history'
  | 'correlation'
  | 'ledgerCitations'
> {
  identity: AuthenticatedIdentity;
  snapshot: TenantSnapshot;
  onBehalfOf: string | undefined;
  /** Set when a one-shot approval was consumed for this consultation (its id is then fixed). */
  oneShot?: { approvalId: string; consultationId: string };
  /** The consultation's id when it was fixed before the decision (windows were consumed in its name); absent: a new one. */
  consultationId?: string;
  /** The windows the consultation read (docs/verdicts.md "Windows and outcomes"); absent or empty when none. */
  limits?: DecisionInput['limits'];
  /** Its sensitive values, stored beside the record (docs/verdicts.md "Sensitive fields"); absent or null when none. */
  sealedValues?: SealedValues | null;
}

export interface ConsultationRecorderDeps {
  keys: VerdictKeys;
  consultations: ConsultationRepository;
  logger: Logger;
  issuer: string;
  metrics?: ServiceMetrics;
}

const KNOWN_VERDICTS = new Set(['allowed', 'blocked', 'approval_required', 'observe']);

/**
 * The recording of a consultation (docs/verdicts.md "Consultation record", "Signed verdict"): a complete
 * evaluation of check or resolve becomes the frozen record, hashed and signed with the tenant's current
 * key, committed through the group commit with its explanation basis (docs/verdicts.md "Explanations"),
 * and counted (verdicts_total, verdict_shadow_disagreements_total). The answer waits for the commit.
 */
export class ConsultationRecorder {
  private readonly verdicts;
  private readonly shadowDisagreements;

  constructor(private readonly deps: ConsultationRecorderDeps) {
    this.verdicts = deps.metrics?.counter<'operation' | 'verdict'>('verdicts_total', {
      help: 'Signed verdicts by operation and verdict (tenant-defined verdicts count as other)',
      labelNames: ['operation', 'verdict'],
    });
    // One series per shadow rule that ever disagreed (docs/operations.md "Metrics" notes the cardinality).
    this.shadowDisagreements = deps.metrics?.counter<'rule_id' | 'would_be'>('verdict_shadow_disagreements_total', {
      help: 'Signed verdicts a shadow rule would have decided otherwise, by shadow rule and the verdict it would have given',
      labelNames: ['rule_id', 'would_be'],
    });
  }

  /** Signs the verdict and commits its consultation; 500 signing_key_unavailable when the key cannot sign (nothing is written). */
  async record(d: Decision): Promise<ConsultationRecord> {
    const onBehalfOf = d.onBehalfOf ?? null;
    const principal = onBehalfOf ? d.snapshot.principals.get(onBehalfOf) : undefined;
    // on_behalf_of is authenticated when it names an active human principal of the caller's tenant
    // (docs/verdicts.md "Delegation"): the claim is checked against the registry, not proven by the human.
    const authenticated = principal !== undefined && principal.kind === 'human' && principal.active;
    const signer = await this.deps.keys.signerFor(d.snapshot.tenantId);
    let sealed: SealedConsultation;
    try {
      sealed = buildConsultation(
        {
          id: d.consultationId ?? d.oneShot?.consultationId ?? newTimeOrderedId('cns-', d.requestedAt),
          approvalId: d.oneShot?.approvalId ?? null,
          operation: d.operation,
          tenantId: d.snapshot.tenantId,
          callerPrincipalId: d.identity.principal.id,
          onBehalfOf,
          onBehalfOfAuthenticated: authenticated,
          requestedAt: d.requestedAt,
          action: d.action,
          resource: d.resource,
          scope: d.scope,
          parameters: d.parameters,
          context: d.context,
          contextHash: d.contextHash,
          ledgerCitations: d.ledgerCitations,
          limits: d.limits,
          evaluation: d.evaluation,
          ttlSeconds: d.ttlSeconds,
          history: d.history,
          correlation: d.correlation,
          stateHash: d.snapshot.stateHash,
          stateRevision: d.snapshot.revision,
          issuer: this.deps.issuer,
        },
        signer,
      );
    } catch (err) {
      if (err instanceof AppError) throw err;
      this.deps.logger.error({ err, tenant_id: d.snapshot.tenantId }, 'cannot sign the verdict');
      throw signingKeyUnavailable('signing failed');
    }
    // What a later GET .../explanation needs beyond the record (docs/verdicts.md "Explanations"), its sealed sensitive
    // values, and how long the tenant keeps it as its settings say now (docs/operations.md "Retention").
    await this.deps.consultations.save(
      sealed,
      explanationBasis(d.snapshot, sealed.record.verdict, sealed.record.precedence_trace),
      d.sealedValues ?? null,
      retentionMs(d.snapshot.state.settings, 'consultations'),
    );
    const { record } = sealed;
    this.verdicts?.inc({ operation: d.operation, verdict: KNOWN_VERDICTS.has(record.verdict) ? record.verdict : 'other' });
    if (record.shadow) for (const s of record.shadow) this.shadowDisagreements?.inc({ rule_id: s.rule_id, would_be: s.would_be });
    return record;
  }
}
