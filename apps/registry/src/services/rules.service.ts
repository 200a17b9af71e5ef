import type { AuthenticatedIdentity, TenantId } from '@arbiter/auth';
import { newId, type NewSealRow } from '@arbiter/db';
import { auditStreamId } from '@arbiter/audit-streams';
import { publicRuleVersion, ruleVersionSealPayload } from '@arbiter/internal-api';
import { badRequest, conflict, notFound, unprocessable } from '../domain/errors';
import type { Rule, RuleBody, RuleVersion } from '../models/rules';
import type { Page } from '../models/identity';
import type { RuleVersionRow, VersionContent } from '../repositories/rules.repository';
import type { IdentityRepository } from '../repositories/identity.repository';
import { ruleContent, ruleProblems } from '@arbiter/policy';
import { decodeCursor, encodeCursor, parseLimit } from '@arbiter/http';
import { presentRule, presentRuleVersion } from '../presenters/registry';
import { readPage, toPage, type PageQuery } from '../domain/pagination';
import { authorOf, type ScopeAccess } from './scope-access.service';
import type { ChangeWriter, Repos } from './changes.service';

const PRINCIPAL_ID = /^(agn|hum)-/;

/**
 * The seal of a new rule version: its content hash is taken over the public form GET
 * /v1/rule-versions/<id> answers (libs/internal-api's presenter over this registry's own), as stored.
 */
function ruleVersionSeal(v: RuleVersionRow): NewSealRow {
  const payload = ruleVersionSealPayload(publicRuleVersion({ ...presentRuleVersion(v, v.id), rule_status: 'active' }));
  return { tenant_id: v.tenant_id, stream_id: auditStreamId(v.tenant_id, 'rules'), client_ref: v.id, payload };
}

/** Rules: every PUT makes a new immutable version (`rv-`); archive retires the rule (docs/registry.md "Rules and versions", docs/verdicts.md). */
export class RulesService {
  constructor(
    private readonly repos: Repos,
    private readonly identity: IdentityRepository,
    private readonly writer: ChangeWriter,
    private readonly access: ScopeAccess,
    /** LEDGER_SEALING: each new version writes its seal_outbox row (docs/operations.md "Seal relay"). */
    private readonly sealing = true,
    /** TENANT_RULES_MAX_BYTES. */
    private readonly maxTenantBytes = 8 * 1024 * 1024,
  ) {}

  /**
   * Checked in the write's transaction, after the new version, under the tenant's write lock: a change that takes the
   * tenant's active rules past TENANT_RULES_MAX_BYTES is refused (422) and rolled back. Archiving always goes through.
   */
  private async withinTenantBound(r: Repos, tenantId: TenantId): Promise<void> {
    const bytes = await r.rules.activeBytes(tenantId);
    if (bytes > this.maxTenantBytes) {
      throw unprocessable(
        `The tenant's active rules would hold ${bytes} bytes, more than the ${this.maxTenantBytes} a tenant's rules may hold together ` +
          '(TENANT_RULES_MAX_BYTES); archive rules or make this one smaller',
      );
    }
  }

  async create(caller: AuthenticatedIdentity, scopeId: string, body: RuleBody): Promise<Rule> {
    const scope = await this.access.scope(caller, scopeId);
    const content = await this.content(caller, body);
    return this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
      const row = await r.rules.create(
        caller.tenant_id,
        { id: newId('rul-'), scope_id: scope.id, created_by: caller.principal.id },
        newId('rv-'),
        content,
      );
      await this.withinTenantBound(r, caller.tenant_id);
      const rule = presentRule(row);
      if (this.sealing) await r.seals.add(caller.tenant_id, ruleVersionSeal(row.current_version!));
      emit({ type: 'rule.created', scope_id: scope.id, scope_ids: [scope.id], entity_type: 'rule', entity_id: row.id, data: rule });
      return rule;
    });
  }

  /** PUT replaces the rule's content with the body as a new version; omitted optional fields take their defaults. */
  async update(caller: AuthenticatedIdentity, scopeId: string, id: string, body: RuleBody): Promise<Rule> {
    const scope = await this.access.scope(caller, scopeId);
    const content = await this.content(caller, body);
    return this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
      const existing = await r.rules.find(caller.tenant_id, scope.id, id);
      if (!existing) throw notFound('Rule', id);
      if (existing.status === 'archived') throw conflict(`Rule ${id} is archived and cannot be updated`);
      const row = await r.rules.addVersion(caller.tenant_id, existing, newId('rv-'), content, caller.principal.id);
      await this.withinTenantBound(r, caller.tenant_id);
      const rule = presentRule(row);
      if (this.sealing) await r.seals.add(caller.tenant_id, ruleVersionSeal(row.current_version!));
      emit({
        type: 'rule.updated',
        scope_id: scope.id,
        scope_ids: [scope.id],
        entity_type: 'rule',
        entity_id: id,
        data: { ...rule, previous_version_id: existing.current_version_id },
      });
      return rule;
    });
  }

  /** Archiving an archived rule changes nothing and answers it as it is. */
  async archive(caller: AuthenticatedIdentity, scopeId: string, id: string): Promise<Rule> {
    const scope = await this.access.scope(caller, scopeId);
    return this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
      if (!(await r.rules.find(caller.tenant_id, scope.id, id))) throw notFound('Rule', id);
      const changed = await r.rules.archive(caller.tenant_id, id, new Date(), caller.principal.id);
      const rule = presentRule((await r.rules.find(caller.tenant_id, scope.id, id))!);
      if (changed)
        emit({ type: 'rule.archived', scope_id: scope.id, scope_ids: [scope.id], entity_type: 'rule', entity_id: id, data: rule });
      return rule;
    });
  }

  async get(caller: AuthenticatedIdentity, scopeId: string, id: string): Promise<Rule> {
    const scope = await this.access.scope(caller, scopeId);
    const row = await this.repos.rules.find(caller.tenant_id, scope.id, id);
    if (!row) throw notFound('Rule', id);
    return presentRule(row);
  }

  async list(
    caller: AuthenticatedIdentity,
    scopeId: string,
    q: PageQuery & { status?: 'active' | 'archived' | 'all' },
  ): Promise<Page<Rule>> {
    const scope = await this.access.scope(caller, scopeId);
    const { limit, after } = readPage(q);
    return toPage(await this.repos.rules.list(caller.tenant_id, scope.id, q.status ?? 'active', limit, after), limit, presentRule);
  }

  /** Every version, oldest first; the cursor is the last version number shown. */
  async versions(caller: AuthenticatedIdentity, scopeId: string, id: string, q: PageQuery): Promise<Page<RuleVersion>> {
    const scope = await this.access.scope(caller, scopeId);
    const rule = await this.repos.rules.find(caller.tenant_id, scope.id, id);
    if (!rule) throw notFound('Rule', id);
    const limit = parseLimit(q.limit, () => badRequest('limit must be an integer from 1 to 1000'));
    const pos = decodeCursor<{ v: number }>(q.cursor, () => badRequest('cursor is not valid'));
    if (pos && !Number.isInteger(pos.v)) throw badRequest('cursor is not valid');
    const rows = await this.repos.rules.versions(caller.tenant_id, id, limit, pos?.v ?? 0);
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    return {
      items: shown.map((v) => presentRuleVersion(v, rule.current_version_id)),
      next_cursor: more ? encodeCursor({ v: shown[shown.length - 1].version }) : null,
    };
  }

  /** The machine-readable content of a version, validated (docs/verdicts.md). */
  private async content(caller: AuthenticatedIdentity, body: RuleBody): Promise<VersionContent> {
    const problems = ruleProblems(body);
    for (const field of ['deciders', 'escalation_deciders'] as const) {
      const principals = [...new Set(body[field] ?? [])].filter((d) => PRINCIPAL_ID.test(d));
      if (!principals.length) continue;
      const known = new Set((await this.identity.findPrincipals(caller.tenant_id, principals)).map((p) => p.id));
      for (const p of principals) if (!known.has(p)) problems.push(`${field}: ${p} is not a principal of this tenant`);
    }
    if (problems.length) throw badRequest(`Invalid rule: ${problems.join('; ')}`);
    return { ...ruleContent(body), ...authorOf(caller, body) };
  }
}
