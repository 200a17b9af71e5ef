// The public form of a rule version and its content hash (docs/operations.md "Seal relay"). The verdict
// gateway answers GET /v1/rule-versions/<id> with `publicRuleVersion` of the registry's internal rule
// version, and the registry seals each new version with `ruleVersionContentHash` of that same form,
// so the hash in the ledger and the body a reader gets can never drift apart.
//
// `mode` is present only on a shadow version (docs/verdicts.md "Shadow rules"): an enforced version's
// public form, and so its content hash, is what it was before rules had a mode, so the hashes sealed
// for every earlier version still verify against today's body by the same rule (drop `status` and
// `rule_status`, canonicalise, hash), and a shadow version's hash binds its mode. The approval fields
// (approvals_required, escalate_after, escalation_deciders, approval_expires_after) follow the same
// rule: present only when set, so a version without them hashes as before and one with them binds them.
// So do the fields that remember, `limit` and `requires_prior` (docs/registry.md "Budgets, rates and
// sequences"), each copied member by member.
import { sha256Digest, type Digest } from '@arbiter/canonical';

/** A condition row (docs/verdicts.md). */
export interface PublicConditionRow {
  field: string;
  op: string;
  value?: unknown;
}

/** A version's budget or rate: `count` or `sum`, and its key paths. */
export interface PublicRuleLimit {
  count?: true;
  sum?: string;
  max: number;
  window: string;
  by: string[];
}

/** The earlier operation a version needs. */
export interface PublicRequiresPrior {
  action: string;
  within: string;
  same: string[];
}

/** GET /v1/rule-versions/<id> of the verdict gateway (docs/verdicts.md "Rule version"). */
export interface PublicRuleVersion {
  id: string;
  rule_id: string;
  tenant_id: string;
  scope_id: string;
  version: number;
  statement: string;
  severity: string;
  verdict: string | null;
  applies_to: { actions?: string[]; resources?: string[] } | null;
  conditions: PublicConditionRow[];
  condition_mode: string;
  requires: Array<{ [key: string]: unknown }>;
  deciders: string[];
  priority: number | null;
  /** Only on a shadow version (`shadow`); absent means enforced. Part of the content hash when present. */
  mode?: 'shadow';
  /** The approval fields (docs/approvals.md "Quorum, escalation and expiry"): each only when set, like `mode`. */
  approvals_required?: number;
  escalate_after?: number;
  escalation_deciders?: string[];
  approval_expires_after?: number;
  /** Only when set, like `mode` (docs/registry.md "Budgets, rates and sequences"). */
  limit?: PublicRuleLimit;
  /** Only when set, like `mode`. */
  requires_prior?: PublicRequiresPrior;
  author: string;
  author_type: string;
  created_at: string;
  created_by: string | null;
  /** `current` or `superseded`: derived, not part of the content hash. */
  status: string;
  /** The rule's status today: derived, not part of the content hash. */
  rule_status: string;
}

/** The registry's rule version (internal API or its own presenter), field by field (nothing passes through unnamed). */
export function publicRuleVersion(v: Record<string, unknown>): PublicRuleVersion {
  const out: PublicRuleVersion = {
    id: v.id as string,
    rule_id: v.rule_id as string,
    tenant_id: v.tenant_id as string,
    scope_id: v.scope_id as string,
    version: v.version as number,
    statement: v.directive as string,
    severity: v.severity as string,
    verdict: (v.verdict ?? null) as string | null,
    applies_to: (v.applies_to ?? null) as PublicRuleVersion['applies_to'],
    conditions: (v.conditions ?? []) as PublicRuleVersion['conditions'],
    condition_mode: (v.condition_mode ?? 'all') as string,
    requires: (v.requires ?? []) as PublicRuleVersion['requires'],
    deciders: (v.deciders ?? []) as string[],
    priority: (v.priority ?? null) as number | null,
    author: v.author as string,
    author_type: v.author_type as string,
    created_at: v.created_at as string,
    created_by: (v.created_by ?? null) as string | null,
    status: v.status as string,
    rule_status: (v.rule_status ?? 'active') as string,
  };
  if (v.mode === 'shadow') out.mode = 'shadow';
  if (typeof v.approvals_required === 'number') out.approvals_required = v.approvals_required;
  if (typeof v.escalate_after === 'number') out.escalate_after = v.escalate_after;
  if (Array.isArray(v.escalation_deciders) && v.escalation_deciders.length) out.escalation_deciders = v.escalation_deciders as string[];
  if (typeof v.approval_expires_after === 'number') out.approval_expires_after = v.approval_expires_after;
  if (isObject(v.limit)) out.limit = publicLimit(v.limit);
  if (isObject(v.requires_prior)) out.requires_prior = publicPrior(v.requires_prior);
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function publicLimit(l: Record<string, unknown>): PublicRuleLimit {
  return {
    ...(l.count === true ? { count: true as const } : {}),
    ...(typeof l.sum === 'string' ? { sum: l.sum } : {}),
    max: l.max as number,
    window: l.window as string,
    by: (l.by ?? []) as string[],
  };
}

function publicPrior(p: Record<string, unknown>): PublicRequiresPrior {
  return { action: p.action as string, within: p.within as string, same: (p.same ?? []) as string[] };
}

/** `sha256:<hex>` over the RFC 8785 form of the public rule version without its derived `status` and `rule_status`. */
export function ruleVersionContentHash(v: PublicRuleVersion): Digest {
  const { status: _status, rule_status: _ruleStatus, ...content } = v;
  return sha256Digest(content);
}

/** The custom_payload of a rule version's seal. */
export interface RuleVersionSealPayload {
  rule_version_id: string;
  rule_id: string;
  version: number;
  content_hash: Digest;
}

export function ruleVersionSealPayload(v: PublicRuleVersion): RuleVersionSealPayload {
  return { rule_version_id: v.id, rule_id: v.rule_id, version: v.version, content_hash: ruleVersionContentHash(v) };
}
