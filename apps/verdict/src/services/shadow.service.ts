import type { TenantId } from '@arbiter/auth';
import type { ConsultationRepository } from '../repositories/consultations.repository';
import type { ShadowDisagreements } from '../models/shadow';

/**
 * Disagreements of shadow rules (docs/verdicts.md "Shadow rules"), counted from the rows the
 * consultation insert writes beside each record that names them, for the registry's
 * GET /v1/rules/{rule_id}/shadow. A rule the gateway never saw disagree answers zero.
 */
export class ShadowService {
  constructor(private readonly consultations: ConsultationRepository) {}

  async disagreements(tenantId: TenantId, ruleId: string): Promise<ShadowDisagreements> {
    const counts = await this.consultations.shadowCounts(tenantId, ruleId);
    return {
      tenant_id: tenantId,
      rule_id: ruleId,
      disagreements: counts.reduce((n, c) => n + c.disagreements, 0),
      by_version: counts.map((c) => ({
        rule_version_id: c.rule_version_id,
        disagreements: c.disagreements,
        last_at: c.last_at.toISOString(),
      })),
    };
  }
}
