import type { Logger } from 'pino';
import type { AuthenticatedIdentity } from '@arbiter/auth';
import { explain, recordedStates, type TraceEntry } from '@arbiter/policy';
import type { ConsultationRecord } from '../domain/consultation-record';
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

/**
 * GET /<tenant_id>/v1/consultations/<id>/explanation (docs/verdicts.md "Explanations"): the explanation
 * of a stored consultation, computed from its frozen record (the request, the trace and the instant),
 * the immutable rule versions its trace names and its explanation basis. The same answer a check or
 * resolve with `"explain": true` gave, whatever changed in the registry since. Reads like the record
 * itself: `read` or `check`, own tenant only.
 */
export class ExplanationsService {
  constructor(
    private readonly consultations: Pick<ConsultationsService, 'findWithBasisAnyTenant'>,
    private readonly ruleVersions: RuleVersionsService,
    private readonly budget: EvaluationBudget,
    private readonly logger: Logger,
  ) {}

  async get(identity: AuthenticatedIdentity, tenantParam: string, id: string): Promise<ConsultationExplanation> {
    const found = await readConsultation(identity, tenantParam, id, (cid) => this.consultations.findWithBasisAnyTenant(cid));
    const explanation = await this.explanationOf(identity, id, found);
    // Read from the archive: said beside the answer (docs/verdicts.md "Consultations").
    return found.archived ? { ...explanation, archived: true } : explanation;
  }

  private async explanationOf(
    identity: AuthenticatedIdentity,
    id: string,
    { record, explanation_basis: basis }: { record: ConsultationRecord; explanation_basis: ExplanationBasis | null },
  ): Promise<ConsultationExplanation> {
    const tenantId = identity.tenant_id;
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
