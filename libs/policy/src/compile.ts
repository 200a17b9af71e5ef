// compilePolicy: turns one tenant snapshot (current rule versions, overrides, settings) into the
// structure evaluate() walks. Done once per snapshot so that a check does no parsing: globs become
// matchers, dot paths are split, requirements become functions, rules are put in their static
// precedence order and filed in an action index.
import { compileCondition as compileCel, CelConditionError, type CelCondition } from '@arbiter/cel';
import { ActionIndex } from './action-index';
import { PolicyCompileError } from './errors';
import { compileAccessor, type FieldAccessor } from './field-path';
import { compileGlobList, type StringMatcher } from './glob';
import { compileCondition, type CompiledCondition } from './operators';
import { SelectorTable } from './selector-table';
import { ruleLimitProblems } from './validate';
import { precedenceRank, ruleVerdict, SEVERITIES } from './severities';
import { compileRequirement, mergeRequirements, validateRequirement, type RequirementCheck } from './requirements';
import type { Condition, EngineOverride, EngineRule, Requirement, Scope, ScopeValue, Severity, TenantPolicy, TraceSeverity } from './types';
import { isFiniteNumber, isIsoDate, isIsoDateTime, isoToMillis, isScalar } from './values';
import { isParameterPath, parameterField, WINDOW_LIMITS, windowFieldProblems, windowMs } from './window-rules';

export { SEVERITIES };

export const DEFAULT_VERDICT = 'allowed';

/** One distinct field a rule reads (through its conditions, its requires, or both). */
export interface CompiledField {
  readonly accessor: FieldAccessor;
  /** Policy-wide number of the path: evaluate() reads each path once per request, whatever the rules. */
  readonly slot: number;
  /** The rule's Requirements on the field, compiled; null when it has none. */
  readonly check: RequirementCheck | null;
  /** What the rule needs of the field, as reported to callers (type always filled in). */
  readonly requirement: Requirement;
  /** Read only by `exists` rows: in check, its absence is an answer rather than a gap. */
  readonly existsOnly: boolean;
  /** Named by the rule's `requires`. */
  readonly required: boolean;
}

export interface CompiledRuleCondition {
  readonly fieldIndex: number;
  readonly condition: CompiledCondition;
}

export interface CompiledRule {
  readonly ruleId: string;
  readonly versionId: string;
  /** Position in the static precedence order (severity, verdict, priority, recency, version id). */
  readonly ordinal: number;
  readonly severity: Severity;
  readonly severityRank: number;
  /** Severity, then the stricter verdict (severities.ts precedenceRank): the first keys of the precedence order. */
  readonly rank: number;
  readonly traceSeverity: TraceSeverity;
  /** The rule's own verdict string, or the one its severity implies. */
  readonly verdict: string;
  readonly selectorKeys: readonly string[];
  readonly selectorValues: readonly ScopeValue[];
  /** null = every resource. */
  readonly resources: StringMatcher | null;
  readonly conditions: readonly CompiledRuleCondition[];
  readonly anyMode: boolean;
  readonly fields: readonly CompiledField[];
  readonly priority: number;
  readonly createdMs: number;
  readonly deciders: readonly string[];
  readonly statement: string;
  /** Overrides targeting this rule, ordered by id; null when none. */
  readonly overrides: readonly CompiledOverride[] | null;
  /**
   * Units of the evaluation budget one evaluation of the rule spends (docs/verdicts.md "Evaluation
   * budget"): one, plus one per resource glob, condition row and field it reads, plus, for a rule that
   * remembers, one and one per key path.
   */
  readonly weight: number;
  /** The rule's limit or requires_prior, compiled; null for a rule that does not remember (the common case). */
  readonly window: CompiledWindow | null;
}

/**
 * Where a key path of `limit.by` or `requires_prior.same` reads its value (docs/verdicts.md "Budgets,
 * rates and sequences"): the calling principal, the claimed on_behalf_of, the resource (from the request
 * itself), or a field read like a condition field (`parameters.<p>` reads field `<p>`).
 */
export interface CompiledKeyPath {
  /** As the rule writes it: the member name in the key. */
  readonly path: string;
  readonly source: 'principal' | 'on_behalf_of' | 'resource' | 'field';
  /** source field: the field (one of the rule's fields for a rule's own key). */
  readonly field: CompiledField | null;
}

/** A rule's `limit` or `requires_prior`, ready to evaluate. */
export interface CompiledWindow {
  /** true: a limit (count or sum over a window); false: a requires_prior. */
  readonly limit: boolean;
  /** `limit.by` or `requires_prior.same`, in the rule's order. */
  readonly keys: readonly CompiledKeyPath[];
  /** The `sum` field (one of the rule's fields, type number, min 0); null for `count` and for requires_prior. */
  readonly sum: CompiledField | null;
  /** limit.max; 0 for requires_prior. */
  readonly max: number;
  /** limit.window or requires_prior.within as written, and in milliseconds. */
  readonly window: string;
  readonly windowMs: number;
  /** requires_prior.action; '' for a limit. */
  readonly action: string;
}

/** A rule that remembers, with what windowPlan() needs to select it without the action index. */
export interface WindowRule {
  readonly rule: CompiledRule;
  /** The rule's action globs; null = every action. */
  readonly actions: StringMatcher | null;
}

/** The `same` paths of requires_prior rules naming one action: an operation of that action leaves a mark per entry. */
export interface CompiledMarker {
  readonly keys: readonly CompiledKeyPath[];
}

export interface CompiledOverride {
  readonly id: string;
  readonly type: string;
  readonly scopeKeys: readonly string[];
  readonly scopeValues: readonly ScopeValue[];
  /** Epoch ms; null = no bound. */
  readonly fromMs: number | null;
  readonly untilMs: number | null;
  /** The CEL conditions, compiled; null = unconditional. */
  readonly condition: CompiledOverrideCondition | null;
  /** Why the override can never apply (a conditional override without valid conditions); null = it can. */
  readonly invalid: string | null;
  /** An approval grant's rule versions: it neutralises a target only at one of them. null = any version. */
  readonly versions: ReadonlySet<string> | null;
}

export interface CompiledOverrideCondition {
  readonly cel: CelCondition;
  /** The fields the expression reads, one per `cel.paths` entry, sharing the rules' field slots. */
  readonly fields: readonly CompiledField[];
}

/** Rules in static precedence order with their indexes: what candidate selection walks. */
export interface CompiledRuleSet {
  /** Rules in static precedence order; `rules[i].ordinal === i`. */
  readonly rules: readonly CompiledRule[];
  readonly actionIndex: ActionIndex;
  /** The rules' scope selectors, by ordinal. */
  readonly selectors: SelectorTable;
}

/** A tenant snapshot ready for evaluate(). Immutable; share it between concurrent evaluations. */
export interface CompiledPolicy extends CompiledRuleSet {
  readonly defaultVerdict: string;
  /**
   * The shadow rules (docs/verdicts.md "Shadow rules"), kept apart from the enforced ones so that they
   * can never take part in a decision; null when there are none (evaluate() then does no shadow work).
   */
  readonly shadow: CompiledRuleSet | null;
  /** Every field path a rule reads (enforced or shadow), by slot. */
  readonly fieldAccessors: readonly FieldAccessor[];
  readonly overrideCount: number;
  /**
   * Whether a rule (enforced or shadow) has a limit or a requires_prior. When false (the common case)
   * windowPlan() returns an empty plan at once and the gateway does no window work.
   */
  readonly hasWindows: boolean;
  /**
   * Whether a rule or an override reads a field whose first segment is `parameters` (`parameters.amount`). Rules
   * name a parameter by its path alone, so such a field is most likely misnamed, and a parameter member named
   * `parameters` would stand in for the parameter it meant (docs/verdicts.md "Parameters and context"): the gateway
   * refuses a check carrying one while this holds.
   */
  readonly readsParametersMember: boolean;
  /** The rules that remember: enforced ones in precedence order, then shadow ones. */
  readonly windowRules: readonly WindowRule[];
  /** By exact action name: the distinct `same` lists of the requires_prior rules naming it. */
  readonly markers: ReadonlyMap<string, readonly CompiledMarker[]>;
}

/** Numbers names in order of first sight (field paths), for array-indexed reads. */
class SlotTable<T> {
  readonly items: T[] = [];
  private readonly index = new Map<string, number>();
  constructor(private readonly make: (name: string) => T) {}
  slot(name: string): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.items.length;
      this.items.push(this.make(name));
      this.index.set(name, i);
    }
    return i;
  }
}

/** An RFC 3339 timestamp (or a bare ISO date, as midnight UTC) to epoch ms; anything else is refused. */
function parseInstant(value: unknown, what: string, code: 'invalid_rule' | 'invalid_override', subject: string): number {
  const ms = isoToMillis(value);
  if (Number.isNaN(ms)) throw new PolicyCompileError(code, `${what} is not an ISO 8601 timestamp`, subject);
  return ms;
}

function compileScope(
  scope: unknown,
  what: string,
  code: 'invalid_rule' | 'invalid_override',
  subject: string,
): { keys: string[]; values: ScopeValue[] } {
  if (scope === undefined || scope === null) return { keys: [], values: [] };
  if (typeof scope !== 'object' || Array.isArray(scope)) throw new PolicyCompileError(code, `${what} must be an object`, subject);
  const keys: string[] = [];
  const values: ScopeValue[] = [];
  for (const [k, v] of Object.entries(scope as Scope)) {
    if (v === undefined) continue;
    if (!isScalar(v)) throw new PolicyCompileError(code, `${what}.${k} must be a string, number or boolean`, subject);
    keys.push(k);
    values.push(v);
  }
  return { keys, values };
}

/** The type to report for a field no Requirement types: the tenant catalogue, else what the first condition implies. */
function inferType(field: string, conditions: readonly Condition[], policy: TenantPolicy): Partial<Requirement> {
  const known = policy.context_schema?.fields?.[field];
  if (known?.type) {
    const out: Partial<Requirement> = { type: known.type };
    if (known.allowed_values) out.allowed_values = [...known.allowed_values];
    if (known.format) out.format = known.format;
    return out;
  }
  const c = conditions.find((x) => x.field === field && x.op !== 'exists');
  if (!c) return { type: 'any' };
  const sample = c.op === 'in' || c.op === 'not_in' ? (Array.isArray(c.value) ? c.value[0] : undefined) : c.value;
  switch (c.op) {
    case 'starts_with':
      return { type: 'string' };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (isFiniteNumber(sample)) return { type: 'number' };
      if (isIsoDate(sample) || isIsoDateTime(sample)) return { type: 'date' };
      return { type: 'any' };
    case 'contains':
      return { type: typeof sample === 'string' ? 'any' : 'array' };
    default:
      if (typeof sample === 'string' || typeof sample === 'boolean') return { type: typeof sample };
      if (isFiniteNumber(sample)) return { type: 'number' };
      if (Array.isArray(sample)) return { type: 'array' };
      if (sample !== null && typeof sample === 'object') return { type: 'object' };
      return { type: 'any' };
  }
}

/** CompiledRule while the compiler still sorts the rules. */
type MutableRule = { -readonly [K in keyof CompiledRule]: CompiledRule[K] };

function compileRule(rule: EngineRule, policy: TenantPolicy, fieldSlots: SlotTable<FieldAccessor>): MutableRule {
  if (!rule || typeof rule.rule_id !== 'string' || rule.rule_id === '') {
    throw new PolicyCompileError('invalid_rule', 'a rule has no rule_id');
  }
  const id = rule.rule_id;
  const bad = (why: string): never => {
    throw new PolicyCompileError('invalid_rule', why, id);
  };
  if (typeof rule.rule_version_id !== 'string' || rule.rule_version_id === '') bad('rule_version_id is missing');
  const sev = SEVERITIES[rule.severity];
  if (!sev || !Object.prototype.hasOwnProperty.call(SEVERITIES, rule.severity)) bad(`unknown severity ${String(rule.severity)}`);
  if (rule.verdict !== undefined && rule.verdict !== null && (typeof rule.verdict !== 'string' || rule.verdict === '')) {
    bad('verdict must be a non-empty string');
  }
  if (rule.priority !== undefined && rule.priority !== null && !isFiniteNumber(rule.priority)) bad('priority must be a number');
  // A stored verdict less restrictive than the severity's (refused at write since) answers the severity's.
  const verdict = ruleVerdict(rule.severity, rule.verdict);
  if (rule.mode !== undefined && rule.mode !== 'enforce' && rule.mode !== 'shadow') bad('mode must be enforce or shadow');
  if (rule.condition_mode !== undefined && rule.condition_mode !== 'all' && rule.condition_mode !== 'any') {
    bad('condition_mode must be all or any');
  }
  const appliesTo = rule.applies_to;
  if (appliesTo !== undefined && appliesTo !== null) {
    if (typeof appliesTo !== 'object' || Array.isArray(appliesTo)) bad('applies_to must be an object');
    for (const k of ['actions', 'resources'] as const) {
      const globs = appliesTo[k];
      if (globs !== undefined && globs !== null && (!Array.isArray(globs) || globs.some((g) => typeof g !== 'string'))) {
        bad(`applies_to.${k} must be an array of strings`);
      }
    }
  }
  const createdMs = parseInstant(rule.version_created_at, 'version_created_at', 'invalid_rule', id);
  const selector = compileScope(rule.selector, 'selector', 'invalid_rule', id);

  const conditions = rule.conditions ?? [];
  const requires = rule.requires ?? [];
  if (!Array.isArray(conditions)) bad('conditions must be an array');
  if (!Array.isArray(requires)) bad('requires must be an array');
  // What the registry refuses to store is not evaluated either (a rule stored before a limit existed).
  const overLimit = ruleLimitProblems(rule);
  if (overLimit.length > 0) bad(`over the rule limits (docs/verdicts.md "Rule limits"): ${overLimit.join('; ')}`);
  for (const r of requires) validateRequirement(r, id);
  const windowProblems = windowFieldProblems(rule);
  if (windowProblems.length > 0) bad(windowProblems.join('; '));
  const spec = windowSpecOf(rule);

  const compiledConditions = conditions.map((c) => compileCondition(c, id));

  // Distinct fields in order of first mention: conditions first, then requires.
  const order: string[] = [];
  const valueOp = new Set<string>();
  for (const c of conditions) {
    if (!order.includes(c.field)) order.push(c.field);
    if (c.op !== 'exists') valueOp.add(c.field);
  }
  for (const r of requires) if (!order.includes(r.field)) order.push(r.field);
  const requiredNames = new Set(requires.map((r) => r.field));
  // A remembering rule's amount and parameter key paths are fields like the others (a gap when missing),
  // needed as `requires` fields are: whenever the conditions fire.
  const windowNeeds = spec ? windowFieldRequirements(spec) : [];
  for (const r of windowNeeds) {
    if (!order.includes(r.field)) order.push(r.field);
    requiredNames.add(r.field);
  }
  const keyNames = new Set(windowNeeds.filter((r) => r.type === 'any').map((r) => r.field));

  const fields: CompiledField[] = order.map((name) => {
    const merged = mergeRequirements(
      name,
      [...requires, ...windowNeeds].filter((r) => r.field === name),
    );
    const requirement: Requirement = { ...merged };
    if (merged.type === 'any') {
      const inferred = inferType(name, conditions, policy);
      requirement.type = inferred.type ?? 'any';
      if (!requirement.allowed_values && inferred.allowed_values) requirement.allowed_values = inferred.allowed_values;
      if (!requirement.format && inferred.format) requirement.format = inferred.format;
    }
    const slot = fieldSlots.slot(name);
    return {
      accessor: fieldSlots.items[slot],
      slot,
      check: keyNames.has(name) ? keyValueCheck(compileRequirement(merged)) : compileRequirement(merged),
      requirement,
      existsOnly: !valueOp.has(name) && !requiredNames.has(name),
      required: requiredNames.has(name),
    };
  });

  // Every compiled rule comes from this one literal (ordinal set after sorting), so all share one
  // hidden class and the evaluator's property loads stay monomorphic.
  return {
    ruleId: id,
    versionId: rule.rule_version_id,
    ordinal: -1,
    severity: rule.severity,
    severityRank: sev.rank,
    rank: precedenceRank(rule.severity, verdict),
    traceSeverity: sev.trace,
    verdict,
    selectorKeys: selector.keys,
    selectorValues: selector.values,
    resources: compileGlobList(rule.applies_to?.resources),
    conditions: compiledConditions.map((condition, i) => ({ fieldIndex: order.indexOf(conditions[i].field), condition })),
    anyMode: rule.condition_mode === 'any',
    fields,
    priority: rule.priority ?? 0,
    createdMs,
    deciders: rule.deciders ? [...rule.deciders] : [],
    statement: typeof rule.statement === 'string' ? rule.statement : '',
    overrides: null,
    weight: 1 + (rule.applies_to?.resources?.length ?? 0) + conditions.length + fields.length + (spec ? 1 + spec.keys.length : 0),
    window: spec ? compileWindow(spec, (name) => fields[order.indexOf(name)]) : null,
  };
}

/** A rule's limit or requires_prior in one shape (the rule has passed windowFieldProblems). */
interface WindowSpec {
  limit: boolean;
  keys: readonly string[];
  /** The `sum` path's field (`parameters.` removed), or null. */
  sumField: string | null;
  max: number;
  window: string;
  action: string;
}

function windowSpecOf(rule: EngineRule): WindowSpec | null {
  if (rule.limit) {
    const l = rule.limit;
    return { limit: true, keys: l.by ?? [], sumField: l.sum ? parameterField(l.sum) : null, max: l.max, window: l.window, action: '' };
  }
  if (rule.requires_prior) {
    const p = rule.requires_prior;
    return { limit: false, keys: p.same ?? [], sumField: null, max: 0, window: p.within, action: p.action };
  }
  return null;
}

/** What a remembering rule needs of the fields it reads: its amount a number >= 0, its parameter key paths present. */
function windowFieldRequirements(spec: WindowSpec): Requirement[] {
  const out: Requirement[] = [];
  if (spec.sumField !== null) out.push({ field: spec.sumField, reason: "the amount the rule's limit adds up", type: 'number', min: 0 });
  for (const path of spec.keys) {
    if (!isParameterPath(path)) continue;
    const what = spec.limit ? "a key of the rule's limit" : 'matched against the earlier operation';
    const reason = `${what}: a string of at most ${WINDOW_LIMITS.keyValueLength} characters, a number, a boolean or null`;
    out.push({ field: parameterField(path), reason, type: 'any' });
  }
  return out;
}

/**
 * A value a window key may hold: a JSON scalar or null (a key names something; an object or a list does
 * not), a string of at most WINDOW_LIMITS.keyValueLength characters (each event of the window keeps it).
 */
export function isKeyValue(v: unknown): boolean {
  if (typeof v === 'string') return v.length <= WINDOW_LIMITS.keyValueLength;
  return v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

function keyValueCheck(base: RequirementCheck | null): RequirementCheck {
  return (v, fact) => (base !== null ? base(v, fact) : null) ?? (isKeyValue(v) ? null : 'wrong_type');
}

function keyPath(path: string, fieldOf: (name: string) => CompiledField): CompiledKeyPath {
  if (path === 'principal' || path === 'on_behalf_of' || path === 'resource') return { path, source: path, field: null };
  return { path, source: 'field', field: fieldOf(parameterField(path)) };
}

function compileWindow(spec: WindowSpec, fieldOf: (name: string) => CompiledField): CompiledWindow {
  return {
    limit: spec.limit,
    keys: spec.keys.map((p) => keyPath(p, fieldOf)),
    sum: spec.sumField === null ? null : fieldOf(spec.sumField),
    max: spec.max,
    window: spec.window,
    windowMs: windowMs(spec.window) as number,
    action: spec.action,
  };
}

/**
 * The marks operations leave (docs/verdicts.md "Budgets, rates and sequences"): by action, each distinct
 * `same` list of the requires_prior rules (enforced or shadow) naming it, with fields of their own slots.
 */
function compileMarkers(rules: readonly EngineRule[], fieldSlots: SlotTable<FieldAccessor>): Map<string, CompiledMarker[]> {
  const out = new Map<string, CompiledMarker[]>();
  const seen = new Set<string>();
  for (const r of rules) {
    const p = r.requires_prior;
    if (!p) continue;
    const same = p.same ?? [];
    const id = JSON.stringify([p.action, same]);
    if (seen.has(id)) continue;
    seen.add(id);
    const marker: CompiledMarker = {
      keys: same.map((path) =>
        keyPath(path, (name) => {
          const slot = fieldSlots.slot(name);
          return {
            accessor: fieldSlots.items[slot],
            slot,
            check: keyValueCheck(null),
            requirement: { field: name, type: 'any' },
            existsOnly: false,
            required: false,
          };
        }),
      ),
    };
    const list = out.get(p.action);
    if (list) list.push(marker);
    else out.set(p.action, [marker]);
  }
  return out;
}

/**
 * The static part of the precedence order (docs/verdicts.md): severity and verdict (rank), then higher
 * priority, then newer version, then the greater rule_version_id (code-unit order), which makes the order
 * total. scope_match, the third key, depends on the request and is applied by evaluate().
 */
export function compareStatic(a: CompiledRule, b: CompiledRule): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.createdMs !== b.createdMs) return b.createdMs - a.createdMs;
  return a.versionId === b.versionId ? 0 : a.versionId < b.versionId ? 1 : -1;
}

/**
 * The conditions of an override (docs/verdicts.md "Overrides"), compiled once per snapshot. A conditional
 * override without conditions, or conditions that do not compile, make the override inert (it never
 * applies) rather than failing the whole snapshot: one bad row must not take a tenant's checks down,
 * and the registry refuses such rows when they are written anyway.
 */
function compileOverrideCondition(
  o: EngineOverride,
  policy: TenantPolicy,
  fieldSlots: SlotTable<FieldAccessor>,
): { condition: CompiledOverrideCondition | null; invalid: string | null } {
  const source = o.conditions;
  const none = source === undefined || source === null || (typeof source === 'string' && source.trim() === '');
  if (none)
    return { condition: null, invalid: o.type === 'conditional' ? 'a conditional override without conditions never applies' : null };
  let cel: CelCondition;
  try {
    cel = compileCel(source);
  } catch (err) {
    if (err instanceof CelConditionError) return { condition: null, invalid: err.message };
    throw err;
  }
  const fields = cel.paths.map((path): CompiledField => {
    const slot = fieldSlots.slot(path);
    const known = policy.context_schema?.fields?.[path];
    const requirement: Requirement = { field: path, reason: `read by the conditions of override ${o.id}`, type: known?.type ?? 'any' };
    if (known?.allowed_values) requirement.allowed_values = [...known.allowed_values];
    if (known?.format) requirement.format = known.format;
    return { accessor: fieldSlots.items[slot], slot, check: null, requirement, existsOnly: false, required: false };
  });
  return { condition: { cel, fields }, invalid: null };
}

function compileOverride(
  o: EngineOverride,
  policy: TenantPolicy,
  fieldSlots: SlotTable<FieldAccessor>,
): { targets: readonly string[]; compiled: CompiledOverride } {
  if (!o || typeof o.id !== 'string' || o.id === '') throw new PolicyCompileError('invalid_override', 'an override has no id');
  if (!Array.isArray(o.target_rule_ids)) {
    throw new PolicyCompileError('invalid_override', 'target_rule_ids must be an array', o.id);
  }
  const scope = compileScope(o.applies_to_scope, 'applies_to_scope', 'invalid_override', o.id);
  const has = (v: unknown): boolean => v !== undefined && v !== null;
  const { condition, invalid } = compileOverrideCondition(o, policy, fieldSlots);
  return {
    targets: o.target_rule_ids,
    compiled: {
      id: o.id,
      type: o.type,
      scopeKeys: scope.keys,
      scopeValues: scope.values,
      fromMs: has(o.created_at) ? parseInstant(o.created_at, 'created_at', 'invalid_override', o.id) : null,
      untilMs: has(o.expires_at) ? parseInstant(o.expires_at, 'expires_at', 'invalid_override', o.id) : null,
      condition,
      invalid,
      versions: Array.isArray(o.target_rule_version_ids) && o.target_rule_version_ids.length ? new Set(o.target_rule_version_ids) : null,
    },
  };
}

/**
 * What makes a tenant's settings uncompilable, or null: the registry refuses such settings when they are written
 * (the same function), so a snapshot the gateway builds never fails on them.
 */
export function tenantPolicyProblem(settings: TenantPolicy): string | null {
  const dv = settings.default_verdict;
  if (dv !== undefined && dv !== null && (typeof dv !== 'string' || dv === '')) return 'default_verdict must be a non-empty string';
  return null;
}

/**
 * Compiles one tenant snapshot. Throws PolicyCompileError (fail closed) on a rule or override that
 * cannot be evaluated as written, or on two rules with the same rule_id or rule_version_id.
 */
export function compilePolicy(
  rules: readonly EngineRule[],
  overrides: readonly EngineOverride[] = [],
  settings: TenantPolicy = {},
): CompiledPolicy {
  const problem = tenantPolicyProblem(settings);
  if (problem) throw new PolicyCompileError('invalid_policy', problem);
  const dv = settings.default_verdict;
  const ruleIds = new Set<string>();
  const versionIds = new Set<string>();
  const fieldSlots = new SlotTable(compileAccessor);
  const enforced: MutableRule[] = [];
  const shadow: MutableRule[] = [];
  const compiled = rules.map((r) => {
    const c = compileRule(r, settings, fieldSlots);
    if (ruleIds.has(c.ruleId)) throw new PolicyCompileError('duplicate_rule', 'rule_id appears twice', c.ruleId);
    if (versionIds.has(c.versionId)) {
      throw new PolicyCompileError('duplicate_rule', `rule_version_id ${c.versionId} appears twice`, c.ruleId);
    }
    ruleIds.add(c.ruleId);
    versionIds.add(c.versionId);
    (r.mode === 'shadow' ? shadow : enforced).push(c);
    return c;
  });
  const actionsOf = new Map(rules.map((r) => [r.rule_id, r.applies_to?.actions]));
  const main = ruleSet(enforced, actionsOf);

  const overridesByRule = new Map<string, CompiledOverride[]>();
  for (const o of overrides) {
    const { targets, compiled: co } = compileOverride(o, settings, fieldSlots);
    for (const t of new Set(targets)) {
      const list = overridesByRule.get(t);
      if (list) list.push(co);
      else overridesByRule.set(t, [co]);
    }
  }
  for (const c of compiled) {
    const list = overridesByRule.get(c.ruleId);
    if (list) c.overrides = list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  const shadowSet = shadow.length === 0 ? null : ruleSet(shadow, actionsOf);
  const windowRules: WindowRule[] = [...main.rules, ...(shadowSet?.rules ?? [])]
    .filter((c) => c.window !== null)
    .map((rule) => ({ rule, actions: compileGlobList(actionsOf.get(rule.ruleId)) }));
  const markers = compileMarkers(rules, fieldSlots);
  return {
    defaultVerdict: dv ?? DEFAULT_VERDICT,
    rules: main.rules,
    actionIndex: main.actionIndex,
    selectors: main.selectors,
    shadow: shadowSet,
    fieldAccessors: fieldSlots.items,
    overrideCount: overrides.length,
    hasWindows: windowRules.length > 0,
    readsParametersMember: fieldSlots.items.some((a) => a.source === 'path' && a.segments[0] === 'parameters'),
    windowRules,
    markers,
  };
}

/** Sorts rules into their static precedence order, numbers them, and indexes their actions and selectors. */
function ruleSet(rules: MutableRule[], actionsOf: ReadonlyMap<string, readonly string[] | null | undefined>): CompiledRuleSet {
  rules.sort(compareStatic);
  rules.forEach((c, ordinal) => (c.ordinal = ordinal));
  const actionIndex = new ActionIndex();
  for (const c of rules) actionIndex.add(c.ordinal, actionsOf.get(c.ruleId));
  return { rules, actionIndex, selectors: new SelectorTable(rules) };
}
