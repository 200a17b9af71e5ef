// Explanations on demand (docs/verdicts.md "Explanations"): what a consultation keeps so that its
// explanation can be computed later, and the inputs of explain() rebuilt from the frozen record.
// Pure: the caller fetches the rule versions.
//
// explain() reads the compiled rules of every candidate in the precedence trace (their content, the
// scope match, the overrides targeting them), the tenant's default_verdict and the context_schema
// entries of the fields those rules read, the request, the evaluation and the instant. The record holds
// the request, the evaluation and the instant; the trace names each candidate's rule version, which the
// registry never changes; and for the one scope the record was evaluated in, each candidate's
// `scope_match` is all the engine reads of its selector. What remains (overrides, default_verdict,
// catalogue entries) can change after the decision: the consultation keeps it, as its explanation
// basis, when there is any. A later change of a rule, an override or a setting therefore never changes
// the explanation of an earlier consultation.
import type { CompiledPolicy } from '@arbiter/policy';
import {
  compilePolicy,
  engineRule,
  ruleContent,
  type CompleteEvaluation,
  type Condition,
  type ContextFieldSchema,
  type EngineOverride,
  type EvaluationRequest,
  type Requirement,
  type Scope,
  type Severity,
  type TraceEntry,
} from '@arbiter/policy';
import { engineContext } from './ledger-citation';
import type { ConsultationRecord, PrecedenceTraceEntry } from './consultation-record';
import { engineOverrides, type TenantSnapshot } from './tenant-snapshot';

/** What a blocked or approval_required consultation keeps besides its record; absent members are the defaults. */
export interface ExplanationBasis {
  /** The tenant's default_verdict, when it was not `allowed`. */
  default_verdict?: string;
  /** The tenant's context_schema entries of the fields the candidate rules (and their overrides' conditions) read. */
  context_schema?: { fields: Record<string, ContextFieldSchema> };
  /** The overrides in force that targeted a candidate rule, as the engine read them. */
  overrides?: EngineOverride[];
}

/** The verdicts explain() answers for (the others have no explanation). */
export const EXPLAINED_VERDICTS: ReadonlySet<string> = new Set(['blocked', 'approval_required']);

interface SnapshotIndex {
  overridesByRule: Map<string, EngineOverride[]>;
  /** Field paths each enforced rule reads: its rows, its requires, its overrides' CEL conditions. */
  pathsByRule: Map<string, readonly string[]>;
}

const indexes = new WeakMap<TenantSnapshot, SnapshotIndex>();

/** Built once per snapshot, on the first blocked or approval_required decision it makes. */
function indexOf(snapshot: TenantSnapshot): SnapshotIndex {
  let index = indexes.get(snapshot);
  if (index) return index;
  const overridesByRule = new Map<string, EngineOverride[]>();
  for (const o of engineOverrides(snapshot.state)) {
    for (const ruleId of new Set(o.target_rule_ids)) {
      const list = overridesByRule.get(ruleId);
      if (list) list.push(o);
      else overridesByRule.set(ruleId, [o]);
    }
  }
  const pathsByRule = new Map<string, readonly string[]>();
  for (const rule of snapshot.policy.rules) {
    const paths = new Set(rule.fields.map((f) => f.accessor.path));
    for (const o of rule.overrides ?? []) for (const f of o.condition?.fields ?? []) paths.add(f.accessor.path);
    pathsByRule.set(rule.ruleId, [...paths]);
  }
  indexes.set(snapshot, (index = { overridesByRule, pathsByRule }));
  return index;
}

/**
 * The basis of an explanation decided on `snapshot` with this trace: null when the consultation needs
 * none (another verdict, or nothing beyond the record and its rule versions).
 */
export function explanationBasis(
  snapshot: TenantSnapshot,
  verdict: string,
  trace: readonly Pick<PrecedenceTraceEntry, 'rule_id'>[],
): ExplanationBasis | null {
  if (!EXPLAINED_VERDICTS.has(verdict)) return null;
  const index = indexOf(snapshot);
  const overrides = new Map<string, EngineOverride>();
  const catalogue = (snapshot.state.settings?.context_schema as { fields?: Record<string, ContextFieldSchema> } | null | undefined)?.fields;
  const fields: Record<string, ContextFieldSchema> = {};
  let anyField = false;
  for (const { rule_id } of trace) {
    for (const o of index.overridesByRule.get(rule_id) ?? []) overrides.set(o.id, o);
    if (!catalogue) continue;
    for (const path of index.pathsByRule.get(rule_id) ?? []) {
      const entry = Object.prototype.hasOwnProperty.call(catalogue, path) ? catalogue[path] : undefined;
      if (!entry) continue;
      fields[path] = entry;
      anyField = true;
    }
  }
  const basis: ExplanationBasis = {};
  const dv = snapshot.policy.defaultVerdict;
  if (dv !== 'allowed') basis.default_verdict = dv;
  if (anyField) basis.context_schema = { fields };
  if (overrides.size) basis.overrides = [...overrides.values()];
  return Object.keys(basis).length ? basis : null;
}

/** The immutable content of a rule version the rebuilt policy compiles (the registry's internal rule version). */
export interface RuleVersionContent {
  id: string;
  rule_id: string;
  created_at: string;
  directive: string;
  severity: string;
  verdict?: string | null;
  applies_to?: { actions?: readonly string[] | null; resources?: readonly string[] | null } | null;
  conditions?: readonly { field: string; op: string; value?: unknown }[] | null;
  condition_mode?: 'all' | 'any' | null;
  requires?: readonly unknown[] | null;
  deciders?: readonly string[] | null;
  priority?: number | null;
  limit?: { count?: true | null; sum?: string | null; max: number; window: string; by?: readonly string[] | null } | null;
  requires_prior?: { action: string; within: string; same?: readonly string[] | null } | null;
}

/** The record's trace names a rule version the registry does not hold for the tenant. */
export class ExplanationBasisError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExplanationBasisError';
  }
}

/**
 * A selector that matches `scope` as the trace says the candidate's did: `exact` names every field,
 * `partial` one of several, `tenant` none. For this one scope the engine reads nothing else of a
 * selector (candidacy and the scope_match precedence key), and the scope never changes in an explanation.
 */
function selectorFor(match: string, scope: Scope): Scope {
  if (match === 'tenant') return {};
  if (match === 'exact') return scope;
  const keys = Object.keys(scope).sort();
  if (match !== 'partial' || keys.length < 2)
    throw new ExplanationBasisError(`scope_match ${match} cannot hold for a scope of ${keys.length} fields`);
  return { [keys[0]]: scope[keys[0]] };
}

/**
 * The policy explain() saw, rebuilt: the trace's candidates at their recorded versions, each placed
 * so that it matches the recorded scope as it did, with the basis's overrides and settings.
 */
export function explanationPolicy(
  record: ConsultationRecord,
  versions: ReadonlyMap<string, RuleVersionContent>,
  basis: ExplanationBasis | null,
): CompiledPolicy {
  const scope = record.scope_used as Scope;
  const rules = record.precedence_trace.map((entry) => {
    const v = versions.get(entry.rule_version_id);
    if (!v || v.rule_id !== entry.rule_id)
      throw new ExplanationBasisError(`rule version ${entry.rule_version_id} of ${entry.rule_id} is not available`);
    // Enforced by definition: shadow rules never enter the trace.
    const content = ruleContent<Severity, Condition, Requirement>({
      directive: v.directive,
      severity: v.severity as Severity,
      verdict: v.verdict,
      applies_to: v.applies_to,
      conditions: v.conditions as readonly Condition[] | null | undefined,
      condition_mode: v.condition_mode,
      requires: v.requires as readonly Requirement[] | null | undefined,
      deciders: v.deciders,
      priority: v.priority,
      mode: 'enforce',
      limit: v.limit,
      requires_prior: v.requires_prior,
    });
    return engineRule(content, {
      rule_id: v.rule_id,
      rule_version_id: v.id,
      selector: selectorFor(entry.scope_match, scope),
      version_created_at: v.created_at,
    });
  });
  return compilePolicy(rules, basis?.overrides ?? [], {
    default_verdict: basis?.default_verdict ?? null,
    context_schema: basis?.context_schema ?? null,
  });
}

/** The request as evaluated: check reads its parameters and Facts, resolve its accumulated Facts; verified ledger citations as ledger Facts. */
export function explanationRequest(record: ConsultationRecord): EvaluationRequest {
  const context = engineContext(record.context_snapshot as never, record.ledger_citations);
  const common = {
    action: record.action,
    resource: record.resource,
    scope: record.scope_used as Scope,
    context,
    principal: record.caller_principal_id,
    on_behalf_of: record.on_behalf_of,
  };
  return record.operation === 'check' ? { mode: 'check', ...common, parameters: record.parameters } : { mode: 'resolve', ...common };
}

/** The complete evaluation the record froze. */
export function recordedEvaluation(record: ConsultationRecord): CompleteEvaluation {
  const dominating = record.precedence_trace.find((e) => e.rule_id === record.dominating_rule_id && e.decided_by !== undefined);
  return {
    status: 'complete',
    verdict: record.verdict,
    dominating_rule_id: record.dominating_rule_id,
    dominating_rule_version_id: dominating?.rule_version_id ?? null,
    cited_rule_ids: record.cited_entry_ids,
    cited_rule_version_ids: record.cited_rule_version_ids,
    precedence_trace: record.precedence_trace as TraceEntry[],
    triggers: record.triggers,
    candidate_deciders: record.candidate_deciders,
    resolved_target_ids: record.resolved_target_ids,
    applied_override_ids: record.applied_override_ids,
    shadow: record.shadow ?? [],
  };
}
