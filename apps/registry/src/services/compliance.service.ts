import type { Pool } from 'pg';
import type { AuthenticatedIdentity } from '@arbiter/auth';
import type { CheckBody, CheckResult, Conflict, OverriddenConflict } from '../models/search';
import type { ScopeSelector } from '../models/common';
import type { AppliesTo, Severity } from '../models/rules';
import { distinctWords, relevance } from '../domain/relevance';
import { checkDeadline, deadlineIn, EvaluationBudgetExceededError, scopeContains, SEVERITIES, type Deadline } from '@arbiter/policy';
import { AppError } from '@arbiter/http';
import type { ScopeAccess } from './scope-access.service';
import type { Repos } from './changes.service';
import type { ScopesService } from './scopes.service';

/**
 * The english lexemes each active invariant and rule of a scope shares with the intended action
 * (stemmed, stop words dropped): the text part of relevance (domain/relevance.ts).
 */
const SHARED_TERMS_SQL = `
WITH lx AS (SELECT coalesce(array_agg(lexeme), '{}'::text[]) AS terms FROM unnest(to_tsvector('english', $3)))
SELECT i.id AS entry_id, ARRAY(SELECT unnest(tsvector_to_array(i.search)) INTERSECT SELECT unnest(lx.terms)) AS shared
  FROM invariants i, lx
 WHERE i.tenant_id = $1 AND i.scope_id = $2 AND i.status = 'active'
UNION ALL
SELECT r.id, ARRAY(SELECT unnest(tsvector_to_array(v.search)) INTERSECT SELECT unnest(lx.terms))
  FROM rules r JOIN rule_versions v ON v.id = r.current_version_id, lx
 WHERE r.tenant_id = $1 AND r.scope_id = $2 AND r.status = 'active'`;

/**
 * The compliance check (docs/registry.md "Compliance check: how relevance is decided"): which active invariants and rules of the scope an intended action
 * runs into (conflicts), and which of those an override in effect suspends (overridden). Rules of
 * severity ALLOW permit rather than conflict and are never listed. How relevance is decided:
 * domain/relevance.ts and docs/registry.md.
 */
export class ComplianceService {
  constructor(
    private readonly pool: Pool,
    private readonly repos: Repos,
    private readonly access: ScopeAccess,
    private readonly scopes: ScopesService,
    /** COMPLIANCE_BUDGET_MS: how long the matching of one check may hold the event loop. */
    private readonly budgetMs = 1_000,
  ) {}

  async check(caller: AuthenticatedIdentity, body: CheckBody): Promise<CheckResult> {
    const scope = await this.access.scope(caller, body.scope_id);
    if (body.scope) await this.scopes.checkSelector(caller.tenant_id, body.scope, 'scope');
    const text = body.intended_action.replace(/\u0000/g, ' ');
    const now = new Date();
    const [shared, invariants, rules, overrides] = await Promise.all([
      this.pool.query<{ entry_id: string; shared: string[] }>(SHARED_TERMS_SQL, [caller.tenant_id, scope.id, text]),
      this.repos.entries.activeInvariants(caller.tenant_id, scope.id),
      this.repos.rules.active(caller.tenant_id, scope.id),
      this.repos.overrides.effective(caller.tenant_id, now, scope.id),
    ]);
    const sharedOf = new Map(shared.rows.map((r) => [r.entry_id, r.shared]));
    const op = { text, action: body.action, resource: body.resource, words: distinctWords(text) };
    // The operation happens in this scope, so the scope's own selector fields cannot be overridden.
    const opScope: ScopeSelector = { ...(body.scope ?? {}), ...(scope.selector as ScopeSelector) };
    // The entries are matched synchronously: past the budget the check answers 503 rather than hold
    // every other request (docs/registry.md "Compliance check: how relevance is decided").
    const deadline = deadlineIn(this.budgetMs);
    try {
      return { scope_id: scope.id, ...this.match(invariants, rules, overrides, sharedOf, op, opScope, deadline) };
    } catch (err) {
      if (!(err instanceof EvaluationBudgetExceededError)) throw err;
      throw new AppError(
        503,
        'evaluation_budget_exceeded',
        `evaluation_budget_exceeded: matching this scope's rules took more than ${this.budgetMs} ms (COMPLIANCE_BUDGET_MS)`,
      );
    }
  }

  private match(
    invariants: Awaited<ReturnType<Repos['entries']['activeInvariants']>>,
    rules: Awaited<ReturnType<Repos['rules']['active']>>,
    overrides: Awaited<ReturnType<Repos['overrides']['effective']>>,
    sharedOf: ReadonlyMap<string, string[]>,
    op: Parameters<typeof relevance>[1],
    opScope: ScopeSelector,
    deadline: Deadline,
  ): Omit<CheckResult, 'scope_id'> {
    const found: Conflict[] = [];
    for (const inv of invariants) {
      const rel = relevance({ sharedTerms: sharedOf.get(inv.id) ?? [], appliesTo: null }, op);
      if (!rel) continue;
      found.push({
        entry_id: inv.id,
        entry_type: 'invariant',
        severity: 'MANDATORY',
        requires_approval: inv.requires_approval,
        text: inv.constraint,
        rule_version_id: null,
        ...rel,
      });
    }
    for (const rule of rules) {
      checkDeadline(deadline);
      const v = rule.current_version;
      if (!v || v.severity === 'ALLOW') continue;
      const rel = relevance({ sharedTerms: sharedOf.get(rule.id) ?? [], appliesTo: (v.applies_to ?? null) as AppliesTo | null }, op);
      if (!rel) continue;
      const severity = v.severity as Severity;
      found.push({
        entry_id: rule.id,
        entry_type: 'rule',
        severity,
        requires_approval: severity === 'REQUIRES_APPROVAL',
        text: v.directive,
        rule_version_id: v.id,
        ...rel,
      });
    }
    found.sort(
      (a, b) =>
        SEVERITIES[a.severity].rank - SEVERITIES[b.severity].rank ||
        b.matched_terms.length - a.matched_terms.length ||
        a.entry_id.localeCompare(b.entry_id),
    );

    const conflicts: Conflict[] = [];
    const overridden: OverriddenConflict[] = [];
    for (const c of found) {
      // An override with conditions suspends only operations for which they hold; the compliance check
      // has no operation context to evaluate them, so it does not count them (fail closed: a conflict).
      const by = overrides.filter(
        (o) =>
          o.target_ids.includes(c.entry_id) &&
          // A grant bound to rule versions lifts nothing once its rule changed (docs/approvals.md "Grants").
          (o.target_version_ids.length === 0 || (c.rule_version_id !== null && o.target_version_ids.includes(c.rule_version_id))) &&
          !o.conditions?.trim() &&
          scopeContains(opScope, o.applies_to_scope as ScopeSelector | null),
      );
      if (by.length) overridden.push({ ...c, override_ids: by.map((o) => o.id) });
      else conflicts.push(c);
    }
    checkDeadline(deadline);
    return { conflicts, overridden };
  }
}
