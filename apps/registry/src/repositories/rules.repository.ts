import type { TenantId } from '@arbiter/auth';
import { Prisma, type Rule as RuleRowBase, type RuleVersion as RuleVersionRow } from '../generated/prisma/client';
import { afterFilter, PAGE_ORDER, type After, type Db } from './db';

export type { RuleVersionRow };
export type RuleRow = RuleRowBase & { current_version: RuleVersionRow | null };

/** The content of one immutable version, as stored. */
export interface VersionContent {
  directive: string;
  severity: string;
  verdict: string | null;
  applies_to: object | null;
  conditions: object[];
  condition_mode: string;
  requires: object[];
  deciders: string[];
  priority: number | null;
  mode: string;
  approvals_required: number | null;
  escalate_after: number | null;
  escalation_deciders: string[];
  approval_expires_after: number | null;
  limit: object | null;
  requires_prior: object | null;
  author: string;
  author_type: string;
}

const withCurrent = { current_version: true } as const;
const VERSION_WITH_RULE = { rule: { select: { current_version_id: true, status: true } } } as const;

/** A nullable jsonb column: SQL NULL for null (not the JSON value `null`). */
const jsonOrNull = (v: object | null) => (v === null ? Prisma.DbNull : (v as Prisma.InputJsonValue));

function versionData(content: VersionContent) {
  return {
    ...content,
    applies_to: jsonOrNull(content.applies_to),
    conditions: content.conditions as Prisma.InputJsonValue,
    requires: content.requires as Prisma.InputJsonValue,
    limit: jsonOrNull(content.limit),
    requires_prior: jsonOrNull(content.requires_prior),
  };
}

/** Rules and their immutable versions (`rv-`); every query takes the tenant id. */
export class RulesRepository {
  constructor(private readonly db: Db) {}

  /** The bytes of the tenant's active rules' current versions, each written as JSON (docs/registry.md "Limits"). */
  async activeBytes(tenantId: TenantId): Promise<number> {
    const [{ bytes }] = await this.db.$queryRawUnsafe<Array<{ bytes: bigint }>>(
      `SELECT COALESCE(sum(octet_length(row_to_json(v)::text)), 0)::bigint AS bytes
         FROM "rules" r JOIN "rule_versions" v ON v."id" = r."current_version_id"
        WHERE r."tenant_id" = $1 AND r."status" = 'active'`,
      tenantId,
    );
    return Number(bytes);
  }

  /** Must run in a transaction: the rule row, its first version, then the pointer to it. */
  async create(
    tenantId: TenantId,
    rule: { id: string; scope_id: string; created_by: string | null },
    versionId: string,
    content: VersionContent,
  ): Promise<RuleRow> {
    const now = new Date();
    await this.db.rule.create({ data: { ...rule, tenant_id: tenantId, version: 1, created_at: now, updated_at: now } });
    await this.db.ruleVersion.create({
      data: {
        id: versionId,
        tenant_id: tenantId,
        scope_id: rule.scope_id,
        rule_id: rule.id,
        version: 1,
        created_by: rule.created_by,
        created_at: now,
        ...versionData(content),
      },
    });
    return this.db.rule.update({
      where: { id: rule.id, tenant_id: tenantId },
      data: { current_version_id: versionId },
      include: withCurrent,
    });
  }

  /** Must run in a transaction that holds the tenant's write lock, so version numbers do not race. */
  async addVersion(tenantId: TenantId, rule: RuleRowBase, versionId: string, content: VersionContent, by: string | null): Promise<RuleRow> {
    const now = new Date();
    const version = rule.version + 1;
    await this.db.ruleVersion.create({
      data: {
        id: versionId,
        tenant_id: tenantId,
        scope_id: rule.scope_id,
        rule_id: rule.id,
        version,
        created_by: by,
        created_at: now,
        ...versionData(content),
      },
    });
    return this.db.rule.update({
      where: { id: rule.id, tenant_id: tenantId },
      data: { version, current_version_id: versionId, updated_at: now },
      include: withCurrent,
    });
  }

  /** Archives an active rule; answers how many rows changed (0 when already archived). */
  async archive(tenantId: TenantId, id: string, at: Date, by: string | null): Promise<number> {
    const res = await this.db.rule.updateMany({
      where: { tenant_id: tenantId, id, status: 'active' },
      data: { status: 'archived', archived_at: at, archived_by: by, updated_at: at },
    });
    return res.count;
  }

  find(tenantId: TenantId, scopeId: string, id: string): Promise<RuleRow | null> {
    return this.db.rule.findFirst({ where: { tenant_id: tenantId, scope_id: scopeId, id }, include: withCurrent });
  }

  findMany(tenantId: TenantId, ids: string[]): Promise<RuleRow[]> {
    return ids.length
      ? this.db.rule.findMany({ where: { tenant_id: tenantId, id: { in: ids } }, include: withCurrent })
      : Promise.resolve([]);
  }

  list(tenantId: TenantId, scopeId: string, status: 'active' | 'archived' | 'all', limit: number, after?: After): Promise<RuleRow[]> {
    return this.db.rule.findMany({
      where: { tenant_id: tenantId, scope_id: scopeId, ...(status === 'all' ? {} : { status }), ...afterFilter(after) },
      orderBy: PAGE_ORDER,
      take: limit + 1,
      include: withCurrent,
    });
  }

  /** Active rules with their current version, of one scope or the whole tenant, sorted by id. */
  active(tenantId: TenantId, scopeId?: string): Promise<RuleRow[]> {
    return this.db.rule.findMany({
      where: { tenant_id: tenantId, status: 'active', ...(scopeId ? { scope_id: scopeId } : {}) },
      orderBy: { id: 'asc' },
      include: withCurrent,
    });
  }

  versions(tenantId: TenantId, ruleId: string, limit: number, afterVersion: number) {
    return this.db.ruleVersion.findMany({
      where: { tenant_id: tenantId, rule_id: ruleId, version: { gt: afterVersion } },
      orderBy: { version: 'asc' },
      take: limit + 1,
    });
  }

  /** A version with its rule's current pointer (to tell current from superseded). */
  findVersion(tenantId: TenantId, id: string) {
    return this.db.ruleVersion.findFirst({ where: { id, tenant_id: tenantId }, include: VERSION_WITH_RULE });
  }

  /**
   * Across tenants: a version by id alone, for the verdict gateway's internal lookup without a tenant
   * (GET /internal/v1/rule-versions/{id}; a verdict's consultation names versions by id).
   */
  findVersionAnyTenant(id: string) {
    return this.db.ruleVersion.findFirst({ where: { id }, include: VERSION_WITH_RULE });
  }
}
