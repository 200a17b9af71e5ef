import type { Logger } from 'pino';
import type { AuthenticatedIdentity } from '@arbiter/auth';
import { explain, recordedStates, type Fact, type TraceEntry } from '@arbiter/policy';
import type { ConsultationRecord } from '../domain/consultation-record';
import type { SealedValues } from '../domain/sealed-values';
import {
  EXPLAINED_VERDICTS,
  ExplanationBasisError,
  type ExplanationBasis,
  explanationPolicy,
  explanationRequest,
  recordedEvaluation,
} from '../domain/explanation-basis';
import type { ConsultationExplanation } from '../models/verdicts';
import { readConsultation, type ConsultationsService } from './consultations.service';
import type { RuleVersionsService } from './rule-versions.service';
import { EvaluationBudget } from './evaluation-budget.service';
import type { SensitiveValuesService } from './sensitive-values.service';

/**
 * GET /<tenant_id>/v1/consultations/<id>/explanation (docs/verdicts.md "Explanations"): the explanation
 * of a stored consultation, computed from its frozen record (the request, the trace and the instant),
 * the immutable rule versions its trace names and its explanation basis. The same answer a check or
 * resolve with `"explain": true` gave, whatever changed in the registry since. Reads like the record
 * itself: `read` or `check`, own tenant only.
 */
export class ExplanationsService {
  constructor(
    private readonly consultations: Pick<ConsultationsService, 'findWithBasis'>,
    private readonly ruleVersions: RuleVersionsService,
    private readonly budget: EvaluationBudget,
    private readonly logger: Logger,
    /** Puts the record's sensitive values back for the engine (docs/verdicts.md "Sensitive fields"); an erased one is absent. */
    private readonly sensitive: SensitiveValuesService | null = null,
  ) {}

  async get(identity: AuthenticatedIdentity, tenantParam: string, id: string): Promise<ConsultationExplanation> {
    const found = await readConsultation(
      identity,
      tenantParam,
      id,
      (tid, cid) => this.consultations.findWithBasis(tid, cid),
      this.ruleVersions,
    );
    const explanation = await this.explanationOf(identity, id, found);
    // Read from the archive: said beside the answer (docs/verdicts.md "Consultations").
    return found.archived ? { ...explanation, archived: true } : explanation;
  }

  private async explanationOf(
    identity: AuthenticatedIdentity,
    id: string,
    {
      record: stored,
      explanation_basis: basis,
      sealed_values: sealed,
    }: { record: ConsultationRecord; explanation_basis: ExplanationBasis | null; sealed_values: SealedValues | null },
  ): Promise<ConsultationExplanation> {
    const tenantId = identity.tenant_id;
    // The engine reads the plain values in memory; the answer never holds them (it names fields and rule values).
    const record =
      sealed && this.sensitive
        ? {
            ...stored,
            ...(await this.sensitive
              .restore(tenantId, stored.id, sealed, stored.parameters, stored.context_snapshot as Record<string, Fact>)
              .then((p) => ({ parameters: p.parameters, context_snapshot: p.context }))),
          }
        : stored;
    if (!EXPLAINED_VERDICTS.has(record.verdict)) return { consultation_id: record.id, verdict: record.verdict, explanation: null };
    // A record made while every answer carried its explanation stored it, hashed and signed: that one.
    if (record.explanation) return { consultation_id: record.id, verdict: record.verdict, explanation: record.explanation };
    const versions = await this.ruleVersions.contentsOf(
      tenantId,
      record.precedence_trace.map((e) => e.rule_version_id),
    );
    let explanation;
    try {
      const policy = explanationPolicy(record, versions, basis);
      const deadline = this.budget.start();
      explanation = this.budget.run('explanation', tenantId, () =>
        explain(
          policy,
          explanationRequest(record),
          recordedEvaluation(record),
          new Date(record.requested_at),
          deadline,
          // The windows as the decision read them (docs/verdicts.md "Windows and outcomes").
          recordedStates(record.limits, record.precedence_trace as TraceEntry[]),
        ),
      );
    } catch (err) {
      // The registry no longer serves a version the trace names, or it no longer compiles: nothing to
      // explain from (a 500 with an error id), never a guess.
      if (err instanceof ExplanationBasisError)
        this.logger.error({ err, consultation_id: id, tenant_id: tenantId }, 'explanation basis incomplete');
      throw err;
    }
    return { consultation_id: record.id, verdict: record.verdict, explanation };
  }
}
