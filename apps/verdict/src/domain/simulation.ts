// The pure half of the simulation (docs/verdicts.md "Simulation"): proposed changes applied to a copy of
// the tenant's registry state, checked as the registry would check them, and the tally of what the
// replay found (counts, transitions, samples). No I/O.
import { conditionProblem } from '@arbiter/cel';
import { parseIsoInstant } from '@arbiter/input';
import {
  decideWithLedger,
  ruleContent,
  ruleProblems,
  selectorProblems,
  WindowLedger,
  type CompiledPolicy,
  type Deadline,
  type EvaluationRequest,
  type EvaluationResult,
  type Scope,
} from '@arbiter/policy';
import type { OverrideState, RuleState, TenantState } from '@arbiter/internal-api';
import type { SimulatedNewRule, SimulatedOverrideBody, SimulatedRuleBody, SimulationSample } from '../models/simulations';

/** One change of the request, its shape already checked (domain/simulation-request.ts); `index` is its position in `changes`. */
export type ParsedChange =
  | { kind: 'create_rule'; index: number; rule: SimulatedNewRule }
  | { kind: 'update_rule'; index: number; rule_id: string; rule: SimulatedRuleBody }
  | { kind: 'archive_rule'; index: number; rule_id: string }
  | { kind: 'create_override'; index: number; override: SimulatedOverrideBody }
  | { kind: 'archive_override'; index: number; override_id: string };

/** A change the tenant's state refuses: 400 validation_failed naming `field` (e.g. `changes[2].rule_id`). */
export class SimulationChangeError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'SimulationChangeError';
  }
}

const PRINCIPAL_ID = /^(agn|hum)-/;

/** The id a rule or override the simulation creates goes by (it has none in the registry). */
export const createdId = (index: number) => `changes[${index}]`;

/**
 * The registry's write-time checks of a rule body (the same messages as its 400 "Invalid rule: …"):
 * libs/policy's ruleProblems, and decider principals that must be principals of the tenant.
 */
function checkRule(state: TenantState, rule: SimulatedRuleBody, field: string): void {
  const problems = ruleProblems(rule);
  const known = new Set(state.principals.map((p) => p.id));
  for (const field of ['deciders', 'escalation_deciders'] as const)
    for (const d of new Set(rule[field] ?? []))
      if (PRINCIPAL_ID.test(d) && !known.has(d)) problems.push(`${field}: ${d} is not a principal of this tenant`);
  if (problems.length) throw new SimulationChangeError(field, `Invalid rule: ${problems.join('; ')}`);
}

function checkOverride(state: TenantState, rules: readonly RuleState[], o: SimulatedOverrideBody, field: string, now: Date): RuleState[] {
  const byId = new Map(rules.map((r) => [r.rule_id, r]));
  const targets = o.target_ids.map((id, j) => {
    const rule = byId.get(id);
    if (!rule) throw new SimulationChangeError(`${field}.target_ids[${j}]`, `${id} is not an active rule of this tenant`);
    return rule;
  });
  if (o.type === 'temporary' && !o.expires_at)
    throw new SimulationChangeError(`${field}.expires_at`, 'a temporary override needs expires_at');
  if (o.type === 'conditional' && !o.conditions?.trim())
    throw new SimulationChangeError(`${field}.conditions`, 'a conditional override needs conditions (a CEL expression)');
  if (o.conditions !== undefined && o.conditions !== null) {
    // The library the engine evaluates it with: an expression that cannot compile is refused, as the registry does.
    const problem = conditionProblem(o.conditions);
    if (problem) throw new SimulationChangeError(`${field}.conditions`, problem);
  }
  if (o.expires_at !== undefined && o.expires_at !== null) {
    const at = parseIsoInstant(o.expires_at);
    if (at === null) throw new SimulationChangeError(`${field}.expires_at`, 'expires_at must be an ISO 8601 timestamp');
    if (at <= now.getTime()) throw new SimulationChangeError(`${field}.expires_at`, 'expires_at must be in the future');
  }
  if (o.applies_to_scope) {
    const problems = selectorProblems(o.applies_to_scope, state.settings?.scope_schema as never, 'applies_to_scope');
    if (problems.length) throw new SimulationChangeError(`${field}.applies_to_scope`, problems.join('; '));
  }
  return targets;
}

/**
 * The tenant's state with the changes applied in order, as the registry would apply them at `now`:
 * a created rule gets the id `changes[<i>]` (also its version id), an update makes a new version of the
 * rule created at `now` (the recency tie-break), archiving a rule or an override takes it out of the
 * state. Each change is checked against the state left by the changes before it. The input is not
 * modified. Throws SimulationChangeError naming the field of the first change the state refuses.
 */
export function applyChanges(state: TenantState, changes: readonly ParsedChange[], now: Date): TenantState {
  let rules: RuleState[] = [...state.rules];
  let overrides: OverrideState[] = [...state.overrides];
  const scopes = new Map(state.scopes.map((s) => [s.id, s]));
  const at = now.toISOString();
  for (const change of changes) {
    const base = `changes[${change.index}]`;
    switch (change.kind) {
      case 'create_rule': {
        if (!scopes.has(change.rule.scope_id))
          throw new SimulationChangeError(`${base}.rule.scope_id`, `${change.rule.scope_id} is not a scope of this tenant`);
        checkRule(state, change.rule, `${base}.rule`);
        const id = createdId(change.index);
        rules.push({
          rule_id: id,
          rule_version_id: id,
          scope_id: change.rule.scope_id,
          version: 1,
          version_created_at: at,
          ...ruleContent(change.rule),
        });
        break;
      }
      case 'update_rule': {
        const i = rules.findIndex((r) => r.rule_id === change.rule_id);
        if (i < 0) throw new SimulationChangeError(`${base}.rule_id`, `${change.rule_id} is not an active rule of this tenant`);
        checkRule(state, change.rule, `${base}.rule`);
        const old = rules[i];
        rules = rules.slice();
        rules[i] = {
          rule_id: old.rule_id,
          rule_version_id: createdId(change.index),
          scope_id: old.scope_id,
          version: old.version + 1,
          version_created_at: at,
          ...ruleContent(change.rule),
        };
        break;
      }
      case 'archive_rule': {
        if (!rules.some((r) => r.rule_id === change.rule_id))
          throw new SimulationChangeError(`${base}.rule_id`, `${change.rule_id} is not an active rule of this tenant`);
        rules = rules.filter((r) => r.rule_id !== change.rule_id);
        break;
      }
      case 'create_override': {
        const o = change.override;
        const targets = checkOverride(state, rules, o, `${base}.override`, now);
        const id = createdId(change.index);
        overrides.push({
          id,
          override_type: o.type,
          target_type: 'rule',
          target_ids: [...new Set(o.target_ids)],
          // Made in the scope of its first target, as the registry makes an override in its target's scope.
          scope_id: targets[0].scope_id,
          scope_ids: [...new Set(targets.map((t) => t.scope_id))],
          applies_to_scope: (o.applies_to_scope ?? null) as Scope | null as OverrideState['applies_to_scope'],
          conditions: o.conditions ?? null,
          expires_at: o.expires_at ? new Date(o.expires_at).toISOString() : null,
          approval_id: null,
        });
        break;
      }
      case 'archive_override': {
        if (!overrides.some((o) => o.id === change.override_id))
          throw new SimulationChangeError(`${base}.override_id`, `${change.override_id} is not an override in effect in this tenant`);
        overrides = overrides.filter((o) => o.id !== change.override_id);
        break;
      }
    }
  }
  return { ...state, rules, overrides };
}

/**
 * The state whose policy the replay evaluates as "after". Shadow rules never decide, never cite and
 * never make context insufficient (docs/verdicts.md "Shadow rules"), so for what a simulation reports
 * (verdicts and dominating rules) a shadow rule is the same as no rule: it is left out.
 */
export function enforcedState(state: TenantState): TenantState {
  const rules = state.rules.filter((r) => r.mode !== 'shadow');
  return rules.length === state.rules.length ? state : { ...state, rules };
}

/** The change that last touched a rule or override (for a compile error of the changed state), or null. */
export function changeTouching(changes: readonly ParsedChange[], id: string | null): ParsedChange | null {
  if (id === null) return null;
  for (let i = changes.length - 1; i >= 0; i--) {
    const c = changes[i];
    if (createdId(c.index) === id) return c;
    if ((c.kind === 'update_rule' || c.kind === 'archive_rule') && c.rule_id === id) return c;
    if (c.kind === 'create_override' && c.override.target_ids.includes(id)) return c;
  }
  return null;
}

/** What a replay answered: the verdict, or `insufficient_context` when it lacks a field a rule needs. */
export interface ReplayOutcome {
  verdict: string;
  dominating_rule_id: string | null;
}

export const INSUFFICIENT_CONTEXT: ReplayOutcome = Object.freeze({ verdict: 'insufficient_context', dominating_rule_id: null });

/** A check-mode evaluation's outcome (a check never answers `incomplete`; it is counted as insufficient_context all the same). */
export function outcomeOf(result: EvaluationResult): ReplayOutcome {
  return result.status === 'complete' ? { verdict: result.verdict, dominating_rule_id: result.dominating_rule_id } : INSUFFICIENT_CONTEXT;
}

/** The fields of a replayed consultation a sample shows. */
export interface ReplayedConsultation {
  id: string;
  requested_at: Date;
  action: string;
  resource: string;
}

export interface SimulationTallyResult {
  evaluated: number;
  changed: number;
  transitions: Record<string, number>;
  samples: SimulationSample[];
}

/**
 * Counts replays as they stream by: every one evaluated, those whose verdict changed, the transitions
 * between verdicts (changed pairs only) and the `sampleLimit` newest changed ones. Replays stream newest
 * first (`newest_first`: the first changed ones are kept) or, when windows are replayed, oldest first
 * (`oldest_first`: the last ones are kept, in a ring, and answered newest first all the same). Memory: the
 * samples and one counter per distinct transition, whatever the number of consultations.
 */
export class SimulationTally {
  private evaluated = 0;
  private changed = 0;
  private readonly transitions = new Map<string, number>();
  private readonly samples: SimulationSample[] = [];
  /** oldest_first: where the next sample goes once the ring is full. */
  private next = 0;

  constructor(
    private readonly sampleLimit: number,
    private readonly order: 'newest_first' | 'oldest_first' = 'newest_first',
  ) {}

  add(c: ReplayedConsultation, before: ReplayOutcome, after: ReplayOutcome): void {
    this.evaluated++;
    if (before.verdict === after.verdict) return;
    this.changed++;
    const key = `${before.verdict}->${after.verdict}`;
    this.transitions.set(key, (this.transitions.get(key) ?? 0) + 1);
    if (this.sampleLimit === 0) return;
    if (this.order === 'oldest_first' || this.samples.length < this.sampleLimit) {
      const sample: SimulationSample = {
        consultation_id: c.id,
        requested_at: c.requested_at.toISOString(),
        action: c.action,
        resource: c.resource,
        before: before.verdict,
        after: after.verdict,
        dominating_rule_before: before.dominating_rule_id,
        dominating_rule_after: after.dominating_rule_id,
      };
      if (this.samples.length < this.sampleLimit) this.samples.push(sample);
      else this.samples[this.next] = sample;
      this.next = (this.next + 1) % this.sampleLimit;
    }
  }

  result(): SimulationTallyResult {
    const transitions: Record<string, number> = {};
    for (const key of [...this.transitions.keys()].sort()) transitions[key] = this.transitions.get(key)!;
    const samples =
      this.order === 'newest_first'
        ? this.samples.slice()
        : [...this.samples.slice(this.next), ...this.samples.slice(0, this.next)].reverse();
    return { evaluated: this.evaluated, changed: this.changed, transitions, samples };
  }
}

/** What a windowed replay needs of a stored consultation besides its request. */
export interface WindowedConsultation {
  id: string;
  requested_at: Date;
  /** When its operation was reported not executed (`executed: false`), or null. */
  not_executed_at: Date | null;
}

/**
 * One policy's replay with windows (docs/verdicts.md "Simulation"): consultations come oldest first, each
 * decided with what the ledger holds at its `requested_at` (the rules at the simulation's instant), and
 * what the policy would have let through consumes, as at the gateway. A consultation reported not
 * executed gives back what it took once the replay reaches the time of the report. The current and the
 * proposed policy each have their own.
 */
export class WindowReplay {
  private readonly ledger = new WindowLedger();
  /** Give-backs not yet due: [at ms, consultation id], ascending. */
  private readonly due: [number, string][] = [];

  constructor(private readonly policy: CompiledPolicy) {}

  decide(c: WindowedConsultation, request: EvaluationRequest, now: Date, deadline: Deadline | null): EvaluationResult {
    const at = c.requested_at.getTime();
    while (this.due.length && this.due[0][0] <= at) {
      const [when, id] = this.due.shift()!;
      this.ledger.giveBack(id, when);
    }
    const { result } = decideWithLedger(this.policy, request, now, at, this.ledger, c.id, deadline);
    if (c.not_executed_at) {
      const when = Math.max(c.not_executed_at.getTime(), at);
      let i = this.due.length;
      while (i > 0 && this.due[i - 1][0] > when) i--;
      this.due.splice(i, 0, [when, c.id]);
    }
    return result;
  }
}
