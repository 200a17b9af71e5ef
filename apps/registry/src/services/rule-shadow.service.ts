import type { AuthenticatedIdentity } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { VerdictRejectedError, VerdictUnavailableError, type ShadowDisagreements, type VerdictInternalClient } from '@arbiter/internal-api';
import { notFound } from '../domain/errors';
import type { RuleMode, RuleShadowReport } from '../models/rules';
import type { Repos } from './changes.service';
import type { ScopeAccess } from './scope-access.service';

/** At most this many versions are read to order by_version; a rule has far fewer. */
const MAX_VERSIONS = 100_000;

/** The verdict gateway cannot tell (docs/verdicts.md "Shadow rules"): 503, retry later or configure VERDICT_URL. */
export function verdictUnavailable(why: string): AppError {
  return new AppError(503, 'verdict_unavailable', `verdict_unavailable: ${why}`, undefined, { 'Retry-After': '5' });
}

/** The source of the counts: the verdict gateway's internal API, or null when VERDICT_URL is not set. */
export type ShadowSource = Pick<VerdictInternalClient, 'shadowDisagreements'> | null;

/**
 * A rule's shadow disagreements (GET /api/v1/rules/{rule_id}/shadow): the rule is found in the
 * caller's tenant and scopes (404 otherwise, as everywhere), the counts come from the verdict gateway,
 * which stores the consultations; the registry orders them by version number.
 */
export class RuleShadowService {
  constructor(
    private readonly repos: Repos,
    private readonly access: ScopeAccess,
    private readonly verdict: ShadowSource,
  ) {}

  async report(caller: AuthenticatedIdentity, ruleId: string): Promise<RuleShadowReport> {
    const [rule] = await this.repos.rules.findMany(caller.tenant_id, [ruleId]);
    if (!rule || !this.access.can(caller, rule.scope_id)) throw notFound('Rule', ruleId);
    if (!this.verdict) throw verdictUnavailable('the registry has no VERDICT_URL, so it cannot ask the verdict gateway');
    let counts: ShadowDisagreements;
    try {
      counts = await this.verdict.shadowDisagreements(caller.tenant_id, rule.id);
    } catch (err) {
      if (err instanceof VerdictUnavailableError)
        throw verdictUnavailable(`the verdict gateway cannot be asked right now (${err.message}); retry`);
      if (err instanceof VerdictRejectedError) throw verdictUnavailable(`the verdict gateway refused the question (${err.message})`);
      throw err;
    }
    const numbers = new Map((await this.repos.rules.versions(caller.tenant_id, rule.id, MAX_VERSIONS, 0)).map((v) => [v.id, v.version]));
    const number = (id: string) => numbers.get(id) ?? Number.MAX_SAFE_INTEGER;
    const byVersion = [...counts.by_version].sort(
      (a, b) => number(a.rule_version_id) - number(b.rule_version_id) || (a.rule_version_id < b.rule_version_id ? -1 : 1),
    );
    return {
      rule_id: rule.id,
      mode: (rule.current_version?.mode ?? 'enforce') as RuleMode,
      disagreements: byVersion.reduce((n, v) => n + v.disagreements, 0),
      by_version: byVersion.map((v) => ({ rule_version_id: v.rule_version_id, disagreements: v.disagreements, last_at: v.last_at })),
    };
  }
}
