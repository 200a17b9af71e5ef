// evaluate: one check or resolve evaluation against a compiled tenant snapshot (docs/verdicts.md,
// "The gateway's API"). Pure: the result depends only on the policy, the request and `now`.
//
// Steps: candidates by action (index), scope selector and resources; overrides; each remaining rule's
// fields read and held against its Requirements; conditions in three-valued logic (a condition on a
// missing field is unknown); then the mode decides:
//   check   strict: any non-overridden candidate (or neutralised budget, which still counts) with a missing field
//           → insufficient_context (422);
//   resolve tolerant: only missing fields of rules ranked above the best firing rule are asked for.
import { canonicalJson, sha256Hex } from '@arbiter/canonical';
import { activationOf } from '@arbiter/cel';
import { BudgetMeter, type Deadline } from './budget';
import {
  compareStatic,
  type CompiledField,
  type CompiledKeyPath,
  type CompiledOverride,
  type CompiledPolicy,
  type CompiledRule,
  type CompiledRuleSet,
  type CompiledWindow,
} from './compile';
import { exceeds } from './decimal';
import { readField, type FieldRead } from './field-path';
import { describeProblem, mergeRequirements } from './requirements';
import type {
  CompleteEvaluation,
  DecidedBy,
  EvaluationRequest,
  Fact,
  LimitTraceState,
  EvaluationResult,
  MissingField,
  MissingProblem,
  OverrideMiss,
  Requirement,
  Scope,
  ScopeMatch,
  ScopeValue,
  ShadowEntry,
  TraceEntry,
  TraceReason,
  Trigger,
} from './types';
import type { PriorMark, PriorNeed, WindowNeed, WindowPlan, WindowStates } from './window-rules';

const SCOPE_MATCHES: readonly ScopeMatch[] = ['exact', 'partial', 'tenant'];
/** The severity rank of ADVISORY (compile.ts SEVERITIES): a dominating rule from it down lets the operation go ahead. */
const ADVISORY_RANK = 2;
const hasOwn = Object.prototype.hasOwnProperty;

/** Kleene truth values of a rule's conditions. */
const FALSE = 0;
const TRUE = 1;
const UNKNOWN = 2;

/** Per-field state while a rule is evaluated. */
const OK = 0;
const ABSENT_KNOWN = 1; // check only: a field read only by `exists` rows is absent, which answers them
const MISSING = 2;

interface Gap {
  field: CompiledField;
  problem: MissingProblem;
}

/** What one evaluation has read: each scope field and each field path at most once, by slot. */
interface Reads {
  readonly req: EvaluationRequest;
  readonly check: boolean;
  readonly scope: Scope;
  /** The scope as selector value ids (SelectorTable.encode). */
  readonly scopeIds: Int32Array;
  readonly scopeSize: number;
  /** Field values by field slot; NOT_READ until first needed. */
  readonly values: unknown[];
  readonly facts: (Fact | null)[];
  /** The evaluation budget (docs/verdicts.md "Evaluation budget"), spent per candidate rule. */
  readonly meter: BudgetMeter;
}

const NOT_READ: unique symbol = Symbol('not read');

interface Candidate {
  rule: CompiledRule;
  scopeRank: number;
  reason: TraceReason;
  gaps: Gap[] | null;
  overriddenBy: string | null;
  /** Conditional overrides of the rule that did not apply, and why. */
  overrideMisses: OverrideMiss[] | null;
  /** Fields the conditions of those overrides read and the operation lacks (resolve may ask for them). */
  overrideGaps: Gap[] | null;
  /** A rule that remembers, once its conditions fired: where its window stood. */
  limitState: LimitTraceState | null;
}

const NO_SCOPE_IDS = new Int32Array(0);

/** `selecting` false: the caller selects no candidates through the selector table (windowPlan), so the scope is not encoded. */
function startReads(policy: CompiledPolicy, req: EvaluationRequest, meter: BudgetMeter, selecting = true): Reads {
  const scope: Scope = req.scope ?? {};
  let scopeSize = 0;
  for (const k in scope) if (hasOwn.call(scope, k) && scope[k] !== undefined) scopeSize++;
  const n = policy.fieldAccessors.length;
  return {
    req,
    check: req.mode === 'check',
    scope,
    scopeIds: selecting ? policy.selectors.encode(scope) : NO_SCOPE_IDS,
    scopeSize,
    values: new Array<unknown>(n).fill(NOT_READ),
    facts: new Array<Fact | null>(n),
    meter,
  };
}

/** Whether the request scope contains every field of an override's applies_to_scope with the same value. */
function scopeContains(keys: readonly string[], values: readonly ScopeValue[], scope: Scope): boolean {
  for (let i = 0; i < keys.length; i++) if (!hasOwn.call(scope, keys[i]) || scope[keys[i]] !== values[i]) return false;
  return true;
}

/** A field's value for this evaluation, read once per path whatever the number of rules reading it. */
function readSlot(f: CompiledField, reads: Reads): unknown {
  let value = reads.values[f.slot];
  if (value === NOT_READ) {
    const read = readField(f.accessor, reads.req, scratchRead);
    value = reads.values[f.slot] = read.value;
    reads.facts[f.slot] = read.fact;
  }
  return value;
}

/** The rule's field at this slot when the rule puts Requirements on it, else null. */
function requirementOf(rule: CompiledRule, slot: number): CompiledField | null {
  const fields = rule.fields;
  for (let i = 0; i < fields.length; i++) if (fields[i].slot === slot && fields[i].check !== null) return fields[i];
  return null;
}

/** A context Fact named by a path strictly below `path` (`risk.score` below `risk`), or null. */
function factBelow(context: Readonly<Record<string, Fact>> | null | undefined, path: string): string | null {
  if (!context) return null;
  for (const key in context) {
    if (key.length > path.length + 1 && key.charCodeAt(path.length) === 46 /* . */ && key.startsWith(path)) return key;
  }
  return null;
}

/**
 * Whether an override's conditions hold for this operation (docs/verdicts.md "Overrides"). Fails closed: a
 * name the expression reads that the operation lacks, an evaluation error or a non-boolean result
 * mean the override does not apply; the miss is kept on the candidate for the trace.
 */
function conditionHolds(o: CompiledOverride, c: Candidate, reads: Reads): boolean {
  if (o.invalid !== null) {
    (c.overrideMisses ??= []).push({ error: o.invalid, override_id: o.id, reason: 'override_condition_error' });
    return false;
  }
  const condition = o.condition;
  if (condition === null) return true;
  const fields = condition.fields;
  const values = new Array<unknown>(fields.length);
  let missing: Gap[] | null = null;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    const value = (values[i] = readSlot(f, reads));
    if (value === undefined) {
      (missing ??= []).push({ field: f, problem: 'absent' });
      continue;
    }
    // The value is read as the rule it would lift reads it: with the rule's Requirements on the field (a source the
    // rule does not accept does not satisfy the override either).
    const own = requirementOf(c.rule, f.slot);
    const problem = own ? own.check!(value, reads.facts[f.slot]) : null;
    if (problem) {
      (missing ??= []).push({ field: own!, problem });
      continue;
    }
    // A path read whole (`has(risk.score)`, `risk["score"]` read `risk`) while a Fact names a path below it: the
    // rules read that Fact, the expression would read another value at the same path.
    const below = f.accessor.source === 'path' ? factBelow(reads.req.context, f.accessor.path) : null;
    if (below !== null) {
      (c.overrideMisses ??= []).push({
        error: `the expression reads ${f.accessor.path} whole, and the context Fact ${below} names a path below it: one value per path`,
        override_id: o.id,
        reason: 'override_condition_error',
      });
      return false;
    }
  }
  if (missing) {
    (c.overrideMisses ??= []).push({
      missing_fields: missing.map((g) => g.field.accessor.path),
      override_id: o.id,
      reason: 'override_condition_missing',
    });
    (c.overrideGaps ??= []).push(...missing);
    return false;
  }
  const outcome = condition.cel.evaluate(activationOf(condition.cel.paths, values));
  // A CEL expression can cost more than a rule's rows: the clock is read after each one.
  reads.meter.check();
  if (!outcome.ok) {
    (c.overrideMisses ??= []).push({ error: outcome.error, override_id: o.id, reason: 'override_condition_error' });
    return false;
  }
  if (!outcome.value) {
    (c.overrideMisses ??= []).push({ override_id: o.id, reason: 'override_condition_false' });
    return false;
  }
  return true;
}

/** The first override (by id) in effect for this operation, or null; misses are left on the candidate. */
function activeOverride(c: Candidate, reads: Reads, nowMs: number): string | null {
  const list = c.rule.overrides;
  if (!list) return null;
  for (const o of list) {
    if (o.untilMs !== null && nowMs >= o.untilMs) continue; // expired: no effect (docs/verdicts.md)
    if (o.fromMs !== null && nowMs < o.fromMs) continue;
    if (!scopeContains(o.scopeKeys, o.scopeValues, reads.scope)) continue;
    if (o.versions !== null && !o.versions.has(c.rule.versionId)) {
      // A grant made for another version of the rule (docs/approvals.md "Grants"): it lifts nothing now.
      (c.overrideMisses ??= []).push({ override_id: o.id, reason: 'override_rule_changed' });
      continue;
    }
    if (conditionHolds(o, c, reads)) {
      // Neutralised: the conditions that failed on other overrides no longer matter to this rule.
      c.overrideMisses = null;
      c.overrideGaps = null;
      return o.id;
    }
  }
  return null;
}

// Scratch space reused by every evaluateRule call (evaluation is synchronous, never re-entrant).
const scratchRead: FieldRead = { value: undefined, fact: null };
const scratchStates: number[] = [];
const scratchValues: unknown[] = [];

/** Evaluates one rule's fields and conditions; sets c.reason and c.gaps. */
function evaluateRule(c: Candidate, reads: Reads): void {
  const rule = c.rule;
  const fields = rule.fields;
  const check = reads.check;
  const states = scratchStates;
  const values = scratchValues;
  let gaps: Gap[] | null = null;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    const value = readSlot(f, reads);
    values[i] = value;
    if (value === undefined) {
      if (check && f.existsOnly) {
        states[i] = ABSENT_KNOWN;
        continue;
      }
      states[i] = MISSING;
      (gaps ??= []).push({ field: f, problem: 'absent' });
      continue;
    }
    const problem = f.check ? f.check(value, reads.facts[f.slot]) : null;
    if (problem) {
      states[i] = MISSING;
      (gaps ??= []).push({ field: f, problem });
    } else {
      states[i] = OK;
    }
  }

  // Three-valued (Kleene) conjunction or disjunction; no conditions at all means the rule always applies.
  let truth = rule.conditions.length === 0 ? TRUE : rule.anyMode ? FALSE : TRUE;
  for (const { fieldIndex, condition } of rule.conditions) {
    const state = states[fieldIndex];
    let r: number;
    if (state === MISSING) r = UNKNOWN;
    else if (condition.expectPresent !== null) {
      const present = state === OK && values[fieldIndex] !== null;
      r = present === condition.expectPresent ? TRUE : FALSE;
    } else r = condition.test(values[fieldIndex]) ? TRUE : FALSE;
    if (rule.anyMode) {
      if (r === TRUE) {
        truth = TRUE;
        break;
      }
      if (r === UNKNOWN) truth = UNKNOWN;
    } else {
      if (r === FALSE) {
        truth = FALSE;
        break;
      }
      if (r === UNKNOWN) truth = UNKNOWN;
    }
  }

  if (check) {
    // Strict: every field a candidate names must be there, whatever the other fields say.
    c.gaps = gaps;
    c.reason = gaps ? 'missing_context' : truth === TRUE ? 'fires' : 'condition_false';
    return;
  }
  if (truth === FALSE) {
    c.reason = 'condition_false';
    return;
  }
  if (truth === TRUE) {
    // The conditions are settled; only the rule's `requires` can still hold it back.
    let requiresGaps: Gap[] | null = null;
    if (gaps) for (const g of gaps) if (g.field.required) (requiresGaps ??= []).push(g);
    c.gaps = requiresGaps;
    c.reason = requiresGaps ? 'missing_context' : 'fires';
    return;
  }
  c.gaps = gaps;
  c.reason = 'missing_context';
}

/**
 * A `limit` rule an override, a grant or the one-shot approval neutralises does not decide, but the operation still
 * counts in its window (docs/verdicts.md "Budgets, rates and sequences"): so it needs the fields it counts with, as
 * when it decides. Its gaps (a condition's field that could make it apply, its amount, a key field, an amount that is
 * not a number >= 0) are left on the candidate, whose reason the caller then sets to `overridden`: check answers
 * insufficient_context naming them and resolve asks for them, where an operation the rule cannot count would
 * otherwise go ahead uncounted while the neutralisation lasts (fail closed).
 */
function neutralisedBudgetGaps(c: Candidate, reads: Reads): void {
  evaluateRule(c, reads);
  if (c.reason !== 'missing_context') c.gaps = null;
}

/**
 * Members in RFC 8785 order, each present from the start (undefined when it does not apply; JSON
 * leaves those out): the consultation record's canonical serialisation then needs no sort per entry.
 */
function traceEntry(c: Candidate): TraceEntry {
  return {
    decided_by: undefined,
    limit_state: c.limitState ?? undefined,
    missing_fields: c.gaps ? c.gaps.map((g) => g.field.accessor.path) : undefined,
    overridden_by: c.overriddenBy ?? undefined,
    overrides_not_applied: c.overrideMisses ?? undefined,
    reason: c.reason,
    rule_id: c.rule.ruleId,
    rule_version_id: c.rule.versionId,
    scope_match: SCOPE_MATCHES[c.scopeRank],
    severity: c.rule.traceSeverity,
  };
}

/**
 * The precedence order of docs/verdicts.md "Precedence", negative when `a` ranks first: severity and
 * verdict (rank), scope match, then the static keys (priority, recency, rule_version_id). selectCandidates()
 * sorts by the same keys (packed); shadow rules are held against the dominating rule with this function.
 */
function comparePrecedence(a: Candidate, b: Candidate): number {
  if (a.rule.rank !== b.rule.rank) return a.rule.rank - b.rule.rank;
  if (a.scopeRank !== b.scopeRank) return a.scopeRank - b.scopeRank;
  return compareStatic(a.rule, b.rule);
}

/** The precedence key on which `a` (ranked first) beats `b`. */
function decidedBy(a: Candidate, b: Candidate): DecidedBy {
  if (a.rule.severityRank !== b.rule.severityRank) return 'severity';
  if (a.rule.rank !== b.rule.rank) return 'verdict';
  if (a.scopeRank !== b.scopeRank) return 'scope_match';
  if (a.rule.priority !== b.rule.priority) return 'priority';
  if (a.rule.createdMs !== b.rule.createdMs) return 'recency';
  return 'rule_version_id';
}

/** One reported entry per field, merged over the rules that need it, in precedence order of first need. */
function reportGaps(candidates: readonly Candidate[], gapsOf: (c: Candidate) => readonly Gap[] | null = (c) => c.gaps): MissingField[] {
  const byField = new Map<string, { reqs: Requirement[]; asks: { ruleId: string; problem: MissingProblem; req: Requirement }[] }>();
  for (const c of candidates) {
    const gaps = gapsOf(c);
    if (!gaps) continue;
    for (const g of gaps) {
      const path = g.field.accessor.path;
      let entry = byField.get(path);
      if (!entry) byField.set(path, (entry = { reqs: [], asks: [] }));
      entry.reqs.push(g.field.requirement);
      entry.asks.push({ ruleId: c.rule.ruleId, problem: g.problem, req: g.field.requirement });
    }
  }
  const out: MissingField[] = [];
  for (const [field, { reqs, asks }] of byField) {
    const merged = mergeRequirements(field, reqs);
    const problems = [...new Set(asks.map((a) => a.problem))];
    const ruleIds = [...new Set(asks.map((a) => a.ruleId))];
    const why = (a: { req: Requirement }): string => (a.req.reason ? ` (${a.req.reason})` : '');
    const reason =
      problems.length === 1
        ? `${describeProblem(problems[0], merged)}; required by ${asks.map((a) => `${a.ruleId}${why(a)}`).join(', ')}`
        : asks.map((a) => `${a.ruleId}${why(a)}: ${describeProblem(a.problem, a.req)}`).join('; ');
    // The Requirement fields (docs/verdicts.md "Requirement") first, only those that apply, then the engine's additions.
    const m = { field, reason, type: merged.type } as MissingField;
    if (merged.allowed_values) m.allowed_values = merged.allowed_values;
    if (merged.min !== undefined) m.min = merged.min;
    if (merged.max !== undefined) m.max = merged.max;
    if (merged.format) m.format = merged.format;
    if (merged.source_requirement === 'verified') m.source_requirement = 'verified';
    if (merged.acceptable_sources) m.acceptable_sources = merged.acceptable_sources;
    if (merged.confidence_threshold !== undefined) m.confidence_threshold = merged.confidence_threshold;
    m.rule_ids = ruleIds;
    m.problems = problems;
    out.push(m);
  }
  return out;
}

/**
 * The resolved target of a request: `tgt-` and the first 32 hex digits of SHA-256 over the UTF-8 bytes
 * of `resource`. Deterministic, so every consultation about one resource names the same target.
 */
export function resolvedTargetId(resource: string): string {
  let id = targetIds.get(resource);
  if (id === undefined) {
    // A bounded memo: agents act on the same resources again and again, and a hash costs about 3 µs.
    if (targetIds.size >= 4096) targetIds.clear();
    id = `tgt-${sha256Hex(resource).slice(0, 32)}`;
    targetIds.set(resource, id);
  }
  return id;
}
const targetIds = new Map<string, string>();

function complete(policy: CompiledPolicy, candidates: readonly Candidate[], req: EvaluationRequest): CompleteEvaluation {
  const trace = candidates.map(traceEntry);
  let dominator = -1;
  let runnerUp = -1;
  for (let i = 0; i < candidates.length; i++) {
    if (candidates[i].reason !== 'fires') continue;
    if (dominator < 0) dominator = i;
    else {
      runnerUp = i;
      break;
    }
  }
  const cited = candidates.filter((c) => c.reason === 'fires' || c.reason === 'overridden');
  const overrideIds: string[] = [];
  for (const c of candidates) if (c.overriddenBy && !overrideIds.includes(c.overriddenBy)) overrideIds.push(c.overriddenBy);
  // Approval triggers (docs/verdicts.md "Approval", `triggers`; docs/approvals.md): every approval-requiring rule
  // that fired, with the dominator first when it asks for approval through a tenant verdict string.
  const d = dominator < 0 ? null : candidates[dominator];
  const triggers: Trigger[] = [];
  const deciders: string[] = [];
  if (d) {
    trace[dominator].decided_by = runnerUp < 0 ? 'only_candidate' : decidedBy(d, candidates[runnerUp]);
    if (d.rule.severity === 'REQUIRES_APPROVAL' || d.rule.verdict === 'approval_required') {
      for (const c of candidates) {
        if (c.reason !== 'fires' || (c !== d && c.rule.severity !== 'REQUIRES_APPROVAL')) continue;
        triggers.push({ rule_id: c.rule.ruleId, rule_version_id: c.rule.versionId, reason: c.rule.statement || 'fires' });
        for (const x of c.rule.deciders) if (!deciders.includes(x)) deciders.push(x);
      }
    }
  }
  // One literal (no spreads): this object is built on every evaluation.
  return {
    status: 'complete',
    verdict: d ? d.rule.verdict : policy.defaultVerdict,
    dominating_rule_id: d ? d.rule.ruleId : null,
    dominating_rule_version_id: d ? d.rule.versionId : null,
    cited_rule_ids: cited.map((c) => c.rule.ruleId),
    cited_rule_version_ids: cited.map((c) => c.rule.versionId),
    precedence_trace: trace,
    triggers,
    candidate_deciders: deciders,
    resolved_target_ids: [resolvedTargetId(req.resource)],
    applied_override_ids: overrideIds,
    shadow: [],
  };
}

function candidate(rule: CompiledRule, scopeRank: number): Candidate {
  return {
    rule,
    scopeRank,
    reason: 'condition_false',
    gaps: null,
    overriddenBy: null,
    overrideMisses: null,
    overrideGaps: null,
    limitState: null,
  };
}

/**
 * The rules whose action globs and scope selector match, in precedence order: severity and verdict (rank),
 * then scope_match, then the static ordinal. Sorted as packed integers (ordinal * 4 + scope rank) with the
 * typed-array numeric sort, then regrouped by scope rank inside each rank: no comparator calls.
 */
function selectCandidates(
  policy: CompiledRuleSet,
  action: string,
  scopeIds: Int32Array,
  scopeSize: number,
  meter: BudgetMeter,
): Candidate[] {
  const hits = policy.actionIndex.lookup(action, meter);
  const packed = new Int32Array(hits.length);
  let m = 0;
  for (const ordinal of hits) {
    const scopeRank = policy.selectors.match(ordinal, scopeIds, scopeSize);
    if (scopeRank >= 0) packed[m++] = ordinal * 4 + scopeRank;
  }
  const sorted = packed.subarray(0, m).sort();
  const out: Candidate[] = [];
  let start = 0;
  while (start < m) {
    const rank = policy.rules[sorted[start] >> 2].rank;
    let end = start + 1;
    while (end < m && policy.rules[sorted[end] >> 2].rank === rank) end++;
    for (let scopeRank = 0; scopeRank < 3; scopeRank++) {
      for (let i = start; i < end; i++) if ((sorted[i] & 3) === scopeRank) out.push(candidate(policy.rules[sorted[i] >> 2], scopeRank));
    }
    start = end;
  }
  return out;
}

/**
 * A decided verdict approval (docs/approvals.md "Verdict approvals") that authorises this one operation (docs/verdicts.md "Overrides"): the rule
 * versions it names are neutralised as by an override whose id is the approval's. A rule changed since the
 * approval (another current version) is not. The caller has checked that the approval was approved for
 * exactly this operation and context, by this caller, and is still unconsumed.
 */
export interface OneShotApproval {
  approvalId: string;
  ruleVersionIds: ReadonlySet<string>;
}

/**
 * Evaluates one request. `now` (a Date or epoch milliseconds) decides which overrides are in effect.
 * Never throws on request data: values of unexpected types make conditions false or fields missing.
 * Past `deadline` (docs/verdicts.md "Evaluation budget") it throws EvaluationBudgetExceededError
 * instead of answering; it reads the clock every few candidate rules and once at the end.
 *
 * `states` are the windows of windowPlan()'s rules (docs/verdicts.md "Budgets, rates and sequences"): a
 * rule with a limit or a requires_prior whose conditions fire then fires on its window (full, prior
 * missing) or not (room left, prior found). A rule whose state is missing or `unavailable`, or every such
 * rule when `states` is null, fires with limit_state limit_unavailable (fail closed).
 */
export function evaluate(
  policy: CompiledPolicy,
  req: EvaluationRequest,
  now: Date | number,
  approval: OneShotApproval | null = null,
  deadline: Deadline | null = null,
  states: WindowStates | null = null,
): EvaluationResult {
  const meter = new BudgetMeter(deadline);
  const result = evaluateWithin(policy, req, now, approval, meter, states);
  meter.check();
  return result;
}

function evaluateWithin(
  policy: CompiledPolicy,
  req: EvaluationRequest,
  now: Date | number,
  approval: OneShotApproval | null,
  meter: BudgetMeter,
  states: WindowStates | null,
): EvaluationResult {
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const reads = startReads(policy, req, meter);
  const candidates = selectCandidates(policy, req.action, reads.scopeIds, reads.scopeSize, meter);
  for (const c of candidates) {
    meter.spend(c.rule.weight);
    // Rules that govern the action in this scope but not this resource are listed, as not_applicable.
    if (c.rule.resources && !c.rule.resources(req.resource)) {
      c.reason = 'not_applicable';
      continue;
    }
    const override =
      approval !== null && approval.ruleVersionIds.has(c.rule.versionId) ? approval.approvalId : activeOverride(c, reads, nowMs);
    if (override) {
      if (c.rule.window?.limit) neutralisedBudgetGaps(c, reads);
      c.reason = 'overridden';
      c.overriddenBy = override;
      continue;
    }
    evaluateRule(c, reads);
    if (c.rule.window !== null && c.reason === 'fires') consultWindow(c, c.rule.window, reads, states);
  }

  if (req.mode === 'check') {
    if (candidates.some((c) => c.gaps)) {
      return {
        status: 'insufficient_context',
        missing_fields: reportGaps(candidates),
        precedence_trace: candidates.map(traceEntry),
      };
    }
    return finish(policy, candidates, reads, nowMs, approval, states);
  }

  // resolve: a rule ranked below the best firing rule cannot change the verdict, so its gaps are not
  // asked. The fields a conditional override of that rule or of a rule above it reads are asked too:
  // the override could neutralise the rule and so change the verdict (docs/verdicts.md "Overrides").
  // Below an ADVISORY rule that fires (the operation goes ahead), a rule that remembers is asked too:
  // its window must count the operation (docs/verdicts.md "Budgets, rates and sequences").
  const firstFiring = candidates.findIndex((c) => c.reason === 'fires');
  const deciding =
    firstFiring < 0
      ? candidates
      : candidates.filter(
          (c, i) => i <= firstFiring || (c.rule.window !== null && candidates[firstFiring].rule.severityRank >= ADVISORY_RANK),
        );
  const asked = (c: Candidate): Gap[] | null => {
    const overrideGaps = c.reason === 'fires' || c.reason === 'missing_context' ? c.overrideGaps : null;
    if (!c.gaps) return overrideGaps;
    return overrideGaps ? [...c.gaps, ...overrideGaps] : c.gaps;
  };
  const open = deciding.filter((c) => asked(c) !== null);
  if (open.length === 0) return finish(policy, candidates, reads, nowMs, approval, states);
  const provisional: Record<string, unknown> = {};
  if (req.context) {
    for (const k of Object.keys(req.context)) {
      const value = req.context[k]?.value;
      if (value !== undefined) provisional[k] = value;
    }
  }
  return {
    status: 'incomplete',
    required_context: reportGaps(open, asked),
    provisional_context: provisional,
    precedence_trace: candidates.map(traceEntry),
  };
}

/**
 * Whether some enforced rule governs `action`: an action glob of it matches, or it names no actions
 * (overview resolve's test, docs/verdicts.md "resolve"). The action index's lookup, within `deadline`.
 */
export function actionGoverned(policy: CompiledPolicy, action: string, deadline: Deadline | null = null): boolean {
  const meter = new BudgetMeter(deadline);
  const governed = policy.actionIndex.lookup(action, meter).length > 0;
  meter.check();
  return governed;
}

/** The complete evaluation, with the shadow rules' disagreements when the policy has shadow rules. */
function finish(
  policy: CompiledPolicy,
  candidates: readonly Candidate[],
  reads: Reads,
  nowMs: number,
  approval: OneShotApproval | null,
  states: WindowStates | null,
): CompleteEvaluation {
  const result = complete(policy, candidates, reads.req);
  if (policy.shadow !== null) {
    let dominator: Candidate | null = null;
    for (const c of candidates) {
      if (c.reason === 'fires') {
        dominator = c;
        break;
      }
    }
    result.shadow = shadowDisagreements(policy.shadow, dominator, result.verdict, reads, nowMs, approval, states);
  }
  return result;
}

/**
 * docs/verdicts.md "Shadow rules": the shadow rules that fire, would outrank the dominating rule (any
 * firing rule outranks the tenant default) and would give another verdict, in precedence order. A
 * shadow rule is evaluated exactly as it would be enforced (resources, overrides, fields, conditions)
 * but on its own candidates: it never enters the trace, the citations or the triggers, and one that
 * lacks context is left out rather than asking for it (in resolve, that includes the fields a
 * conditional override of it reads, which would make the enforced evaluation incomplete). So a rule
 * reported here with `would_be` X gives verdict X once enforced, on the same request.
 */
function shadowDisagreements(
  set: CompiledRuleSet,
  dominator: Candidate | null,
  verdict: string,
  reads: Reads,
  nowMs: number,
  approval: OneShotApproval | null,
  states: WindowStates | null,
): ShadowEntry[] {
  const req = reads.req;
  const out: ShadowEntry[] = [];
  for (const c of selectCandidates(set, req.action, set.selectors.encode(reads.scope), reads.scopeSize, reads.meter)) {
    // Candidates come in precedence order: once one does not outrank the dominator, none after it does.
    if (dominator !== null && comparePrecedence(c, dominator) >= 0) break;
    reads.meter.spend(c.rule.weight);
    if (c.rule.verdict === verdict) continue;
    if (c.rule.resources && !c.rule.resources(req.resource)) continue;
    if (approval !== null && approval.ruleVersionIds.has(c.rule.versionId)) continue;
    if (activeOverride(c, reads, nowMs) !== null) continue;
    evaluateRule(c, reads);
    if (c.rule.window !== null && c.reason === 'fires') consultWindow(c, c.rule.window, reads, states);
    if (c.reason !== 'fires' || (!reads.check && c.overrideGaps !== null)) continue;
    out.push({ rule_id: c.rule.ruleId, rule_version_id: c.rule.versionId, would_be: c.rule.verdict });
  }
  return out;
}

// ---- Rules that remember (docs/verdicts.md "Budgets, rates and sequences") ----

/** The amount an operation adds to a limit's window: 1 for count, the `sum` field's value (checked: a number >= 0). */
function windowAmount(w: CompiledWindow, reads: Reads): number {
  return w.sum === null ? 1 : (reads.values[w.sum.slot] as number);
}

/** A key path's value for this operation; undefined when a field is absent or not a key value. */
function keyValue(k: CompiledKeyPath, reads: Reads): unknown {
  switch (k.source) {
    case 'principal':
      return reads.req.principal ?? null;
    case 'on_behalf_of':
      return reads.req.on_behalf_of ?? null;
    case 'resource':
      return reads.req.resource;
    case 'field': {
      const f = k.field as CompiledField;
      const value = readSlot(f, reads);
      if (value === undefined) return undefined;
      return f.check !== null && f.check(value, reads.facts[f.slot]) !== null ? undefined : value;
    }
  }
}

/** The key of a window or a mark: RFC 8785 canonical JSON of each path and its value; null when one is missing. */
function windowKey(keys: readonly CompiledKeyPath[], reads: Reads): string | null {
  const members: Record<string, unknown> = {};
  for (const k of keys) {
    const v = keyValue(k, reads);
    if (v === undefined) return null;
    members[k.path] = reads.req.windowKeyValue ? reads.req.windowKeyValue(k.path, v) : v;
  }
  return canonicalJson(members);
}

/**
 * A remembering rule whose conditions fired consults its window: a limit fires when the operation's
 * amount would take the window past max (`fits` means the store's conditional take decides: the rule
 * does not fire here), a requires_prior fires unless the earlier operation was found; no state, or an
 * unavailable one, fires (fail closed).
 */
function consultWindow(c: Candidate, w: CompiledWindow, reads: Reads, states: WindowStates | null): void {
  if (w.limit) {
    const s = states === null ? undefined : states.limits.get(c.rule.ruleId);
    if (s === 'fits') c.limitState = 'within';
    else if (typeof s === 'object' && s !== null && Number.isFinite(s.used) && s.used >= 0) {
      c.limitState = exceeds(s.used, windowAmount(w, reads), w.max) ? 'exceeded' : 'within';
    } else c.limitState = 'limit_unavailable';
  } else {
    const s = states === null ? undefined : states.priors.get(c.rule.ruleId);
    c.limitState = s === true ? 'prior_found' : s === false ? 'prior_missing' : 'limit_unavailable';
  }
  if (c.limitState === 'within' || c.limitState === 'prior_found') c.reason = 'condition_false';
}

/**
 * What an evaluation of `req` needs from the window store and leaves if it goes ahead (docs/verdicts.md
 * "Budgets, rates and sequences"): the windows of the limit rules and the earlier operations of the
 * requires_prior rules (enforced or shadow) whose action, scope, resources and conditions match and that no
 * override, grant or one-shot approval neutralises; the windows of the limit rules such a neutralisation
 * lifted for this operation, `forced` (the rule does not decide, but the operation still counts; the evaluation
 * asks for a field it lacks, so a complete one has them all); and one mark per requires_prior rule naming
 * this action whose `same` values the operation has. Looks at the remembering rules only; an empty plan at
 * once when the policy has none.
 */
export function windowPlan(
  policy: CompiledPolicy,
  req: EvaluationRequest,
  now: Date | number,
  approval: OneShotApproval | null = null,
  deadline: Deadline | null = null,
): WindowPlan {
  if (!policy.hasWindows) return { limits: [], priors: [], marks: [] };
  const nowMs = typeof now === 'number' ? now : now.getTime();
  const meter = new BudgetMeter(deadline);
  const reads = startReads(policy, req, meter, false);
  const limits: WindowNeed[] = [];
  const priors: PriorNeed[] = [];
  for (const { rule, actions } of policy.windowRules) {
    meter.spend(rule.weight);
    if (actions !== null && !actions(req.action)) continue;
    if (!scopeContains(rule.selectorKeys, rule.selectorValues, reads.scope)) continue;
    if (rule.resources && !rule.resources(req.resource)) continue;
    const w = rule.window as CompiledWindow;
    const c = candidate(rule, 0);
    // Neutralised by the one-shot approval, a grant or an override: a requires_prior rule needs nothing, a
    // limit's window still counts the operation (forced).
    const lifted = (approval !== null && approval.ruleVersionIds.has(rule.versionId)) || activeOverride(c, reads, nowMs) !== null;
    if (lifted && !w.limit) continue;
    evaluateRule(c, reads);
    if (c.reason !== 'fires') continue;
    const key = windowKey(w.keys, reads);
    if (key === null) continue; // unreachable: the key fields are required, so the rule had a gap
    if (w.limit) {
      const need: WindowNeed = {
        rule_id: rule.ruleId,
        rule_version_id: rule.versionId,
        key,
        window: w.window,
        window_ms: w.windowMs,
        amount: windowAmount(w, reads),
        max: w.max,
      };
      if (lifted) need.forced = true;
      limits.push(need);
    } else {
      priors.push({
        rule_id: rule.ruleId,
        rule_version_id: rule.versionId,
        action: w.action,
        key,
        within: w.window,
        within_ms: w.windowMs,
      });
    }
  }
  const marks: PriorMark[] = [];
  for (const marker of policy.markers.get(req.action) ?? []) {
    const key = windowKey(marker.keys, reads);
    if (key !== null && !marks.some((m) => m.key === key)) marks.push({ action: req.action, key });
  }
  meter.check();
  return { limits, priors, marks };
}

/**
 * Whether a complete answer lets the operation go ahead, and so consumes its windows (docs/verdicts.md
 * "Budgets, rates and sequences"): neither `blocked` nor `approval_required`, and the dominating rule, if
 * any, is not of severity MANDATORY or REQUIRES_APPROVAL. Everything else consumes, the tenant default
 * and a tenant verdict string of an ADVISORY or ALLOW rule included (fail closed: when in doubt, count).
 */
export function proceeds(result: CompleteEvaluation): boolean {
  if (result.verdict === 'blocked' || result.verdict === 'approval_required') return false;
  if (result.dominating_rule_id === null) return true;
  for (const e of result.precedence_trace) {
    if (e.reason === 'fires' && e.rule_id === result.dominating_rule_id) return e.severity !== 'block' && e.severity !== 'approval';
  }
  return true;
}

/**
 * Whether an answer that goes ahead also leaves its marks for the `requires_prior` rules (docs/verdicts.md "Which
 * answers count"): only when it proceeds with `allowed` or `observe`, the two verdicts the contract names as going
 * ahead. A verdict string of the tenant (its default) or of an ADVISORY or ALLOW rule counts in a budget, since
 * counting too much only holds back more, but it never vouches for a step a later rule requires: an enforcement point
 * may well not carry out a `denied` (fail closed: when in doubt, no mark).
 */
export function leavesMarks(result: CompleteEvaluation): boolean {
  return (result.verdict === 'allowed' || result.verdict === 'observe') && proceeds(result);
}
