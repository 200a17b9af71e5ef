// Counterfactual explanations (docs/verdicts.md "Explanations"): for a blocked or approval_required
// evaluation, the alternative minimal sets of changes to the operation's fields that would make it
// `allowed`. Pure, like the evaluator, and derived from the same compiled rules.
//
// The search: every candidate rule whose verdict is not `allowed` must end up not firing. A firing
// `all` rule stops when one of its rows is false, an `any` rule when every row that holds is false;
// each row is inverted exactly (gt ↔ lte, eq ↔ neq, in ↔ not_in, exists true ↔ false), and a change
// on one field is the intersection of every row asked of it. A change can wake a rule that did not
// fire (`amount lt 0` once `amount gt 10000` is inverted), so the search looks again at every rule
// after each step, until none can fire for any value the changes allow. Each alternative is then
// checked by evaluate() with a witness value in place ("never guessed"), and only minimal ones kept.
//
// A rule that remembers (docs/verdicts.md "Budgets, rates and sequences") has one more row once its
// conditions fire: its window. A `sum` budget with a known `used` is the row `<amount field> gt max -
// used`, inverted like any row (`amount lte 1200`); a count budget, a missing prior and an unavailable
// state are rows no change of the parameters can make false (not_invertible, with the reason). The key
// fields of such a rule are never changed (another key is another window, whose state is unknown).
import { BudgetMeter, type Deadline } from './budget';
import type { CompiledField, CompiledPolicy, CompiledRule, CompiledRuleCondition, CompiledWindow } from './compile';
import { decimalOf, exceeds, minus, toNumber } from './decimal';
import { evaluate } from './evaluate';
import { atom, atomHolds, boundsImply, coveredBy, finiteMembers, isOrdered, type Atom } from './explain-domain';
import { compileAccessor, readField, type FieldAccessor } from './field-path';
import { compileCondition, type CompiledCondition } from './operators';
import { mergeRequirements } from './requirements';
import { acceptedSource } from './sources';
import type { CompleteEvaluation, Condition, ConditionOp, EvaluationRequest, EvaluationResult, Fact, Requirement } from './types';
import { isFiniteNumber, isIsoDate, isIsoDateTime, isoToMillis, jsonEqual } from './values';
import type { WindowStates } from './window-rules';

/** One change of an alternative: the field's new value must satisfy `op value` (a condition row). */
export interface ExplanationChange {
  /** The dot path, as the rules spell it. */
  field: string;
  op: ConditionOp;
  value: unknown;
}

/** A Requirement on a changed field that a plain parameter cannot meet: the new value must come as a Fact that does. */
export interface ExplanationRequirement {
  acceptable_sources?: string[];
  confidence_threshold?: number;
  field: string;
  rule_id: string;
  source_requirement?: 'verified';
}

/** One way to `allowed`: every change together (members in RFC 8785 order). */
export interface ExplanationAlternative {
  changes: ExplanationChange[];
  /** Present when a change needs a Fact meeting a rule's provenance Requirement. */
  requirements?: ExplanationRequirement[];
}

/**
 * A row of a firing rule that no change of the operation's fields can make false. A rule's window is such
 * a row when it is a count budget (`field` limit.count, `op` limit), a missing prior (`field` and `op`
 * requires_prior) or a state that could not be read (`field` limit or requires_prior): `reason` then says why.
 */
export interface NotInvertible {
  field: string;
  op: ConditionOp | 'limit' | 'requires_prior';
  /** Only on a window row: `window full: 50 of 50 in 1h`, `needs a prior <action> on the same <paths> within <within>`. */
  reason?: string;
  rule_id: string;
}

/** A remembering rule's window as an extra row: a `sum` budget's amount row, or a row no change can move. */
type WindowRow =
  | { readonly kind: 'sum'; readonly row: CompiledRuleCondition }
  | {
      readonly kind: 'fixed';
      readonly holds: boolean;
      readonly field: string;
      readonly op: 'limit' | 'requires_prior';
      readonly reason: string;
    };

/** Index of the window row among a rule's rows (the conditions are 0 .. n-1). */
const WINDOW_ROW = -1;

const keyList = (w: CompiledWindow): string => (w.keys.length ? w.keys.map((k) => k.path).join(', ') : 'anything (no paths)');

/** The window row of a rule with a limit or requires_prior, from its state (null states: the rule could not read it). */
function windowRow(rule: CompiledRule, w: CompiledWindow, states: WindowStates | null): WindowRow {
  const unavailable = (): WindowRow => ({
    kind: 'fixed',
    holds: true,
    field: w.limit ? 'limit' : 'requires_prior',
    op: w.limit ? 'limit' : 'requires_prior',
    reason: 'the window store could not be read or written (limit_unavailable)',
  });
  if (!w.limit) {
    const s = states?.priors.get(rule.ruleId);
    if (s === true) return { kind: 'fixed', holds: false, field: 'requires_prior', op: 'requires_prior', reason: '' };
    if (s !== false) return unavailable();
    const reason = `needs a prior ${w.action} on the same ${keyList(w)} within ${w.window}`;
    return { kind: 'fixed', holds: true, field: 'requires_prior', op: 'requires_prior', reason };
  }
  const s = states?.limits.get(rule.ruleId);
  if (s === 'fits') return { kind: 'fixed', holds: false, field: 'limit', op: 'limit', reason: '' };
  if (typeof s !== 'object' || s === null || !Number.isFinite(s.used) || s.used < 0) return unavailable();
  if (w.sum === null) {
    const reason = `window full: ${s.used} of ${w.max} in ${w.window}`;
    return { kind: 'fixed', holds: exceeds(s.used, 1, w.max), field: 'limit.count', op: 'limit', reason };
  }
  const room = toNumber(minus(decimalOf(w.max), decimalOf(s.used)));
  const fieldIndex = rule.fields.indexOf(w.sum);
  return {
    kind: 'sum',
    row: { fieldIndex, condition: compileCondition({ field: w.sum.accessor.path, op: 'gt', value: room }, rule.ruleId) },
  };
}

/** docs/verdicts.md "Explanations" (members in RFC 8785 order: the record is hashed as built). */
export interface Explanation {
  /** approval_required only: who can decide (the evaluation's candidate_deciders). */
  deciders?: string[];
  not_invertible: NotInvertible[];
  /** Alternative minimal sets of changes, fewest fields first; empty when none was found. */
  to_allow: ExplanationAlternative[];
}

/** At most this many alternatives are returned. */
export const MAX_ALTERNATIVES = 8;
/** Search states visited and alternatives verified with evaluate(): bounds the work per check. */
const MAX_STATES = 256;
const MAX_VERIFICATIONS = 24;

const VERDICTS_EXPLAINED = new Set(['blocked', 'approval_required']);
const ALLOWED = 'allowed';

/** The exact negation of a row within the row's own type, or null when there is none (contains, starts_with). */
function inverse(c: Condition): { op: ConditionOp; value: unknown } | null {
  switch (c.op) {
    case 'gt':
      return { op: 'lte', value: c.value };
    case 'gte':
      return { op: 'lt', value: c.value };
    case 'lt':
      return { op: 'gte', value: c.value };
    case 'lte':
      return { op: 'gt', value: c.value };
    case 'eq':
      return { op: 'neq', value: c.value };
    case 'neq':
      return { op: 'eq', value: c.value };
    case 'in':
      return { op: 'not_in', value: c.value };
    case 'not_in':
      return { op: 'in', value: c.value };
    case 'exists':
      return { op: 'exists', value: c.value === false };
    default:
      return null;
  }
}

/** Everything the search needs to know about one field path. */
interface FieldInfo {
  readonly path: string;
  readonly accessor: FieldAccessor;
  /** The value the evaluation read (undefined: absent) and the Fact it came from. */
  readonly current: unknown;
  readonly fact: Fact | null;
  /** Requirements of the candidate rules on the field: their value bounds become constraints of a change. */
  readonly requirementAtoms: readonly Atom[];
  /** The Requirements' other value checks (type, format): a new value must pass them. */
  readonly accept: (v: unknown) => boolean;
  /** Values worth trying for those checks (allowed_values, format samples). */
  readonly samples: readonly unknown[];
  /** Provenance Requirements (source_requirement, acceptable_sources, confidence_threshold), one per rule. */
  readonly provenance: readonly ExplanationRequirement[];
  readonly merged: Requirement | null;
}

type Domains = ReadonlyMap<string, { atoms: readonly Atom[]; witness: unknown }>;
const EMPTY_DOMAINS: Domains = new Map();

const FORMAT_SAMPLES: readonly unknown[] = [
  'DE',
  'EUR',
  '00000000-0000-4000-8000-000000000000',
  'someone@example.com',
  '2026-01-01',
  '2026-01-01T00:00:00Z',
];

const rulesById = new WeakMap<CompiledPolicy, Map<string, CompiledRule>>();
function ruleIndex(policy: CompiledPolicy): Map<string, CompiledRule> {
  let m = rulesById.get(policy);
  if (!m) rulesById.set(policy, (m = new Map(policy.rules.map((r) => [r.ruleId, r]))));
  return m;
}

/** A Fact meeting a (merged) provenance Requirement, for checking a value against the rest of it. */
function conformingFact(value: unknown, r: Requirement | null, existing: Fact | null): Fact {
  const sources = r?.acceptable_sources;
  // An empty (or unmeetable) acceptable_sources refuses every value: a source no entry names keeps it so.
  const source = sources ? (acceptedSource(sources, existing) ?? { source: '' }) : { source: existing?.source ?? 'explanation' };
  const fact: Fact = { value, ...source, verification_status: 'verified' };
  if (r?.confidence_threshold !== undefined) fact.confidence = 1;
  return fact;
}

class Search {
  private readonly fields = new Map<string, FieldInfo>();
  /** Candidates that take part in the next evaluation: not excluded by resource, not neutralised for good. */
  private readonly active: CompiledRule[] = [];
  /** The firing rules that decide against `allowed` now: ranked above every firing rule whose verdict is allowed. */
  private readonly firing: CompiledRule[] = [];
  /** Rules some override of which has CEL conditions, and the fields those read. */
  private readonly celPaths = new Map<CompiledRule, ReadonlySet<string>>();
  /** Every field an override's CEL conditions read, over all candidate rules. */
  private readonly celFields = new Set<string>();
  /** Rules neutralised now by an override (one of them conditional). */
  private readonly overridden = new Set<CompiledRule>();
  // Memos: a row's truth for the value read now, a row against a change, a row as a constraint, and
  // the ways to stop a rule none of whose fields changed.
  private readonly holdsNow = new Map<CompiledCondition, boolean>();
  private readonly holdsUnder = new WeakMap<object, Map<string, boolean>>();
  private readonly rowAtoms = new Map<CompiledCondition, Atom>();
  private readonly staticWays = new Map<CompiledRule, { field: CompiledField; i: number }[][] | null>();
  /** The window rows of the remembering candidate rules. */
  private readonly windowRows = new Map<CompiledRule, WindowRow>();
  /** The key fields of those rules: never changed. */
  private readonly keyFields = new Set<string>();
  /** The amount fields of their sum budgets: `gte 0` goes without saying there (an amount is never negative). */
  readonly amountFields = new Set<string>();
  private states = 0;
  private verifications = 0;
  readonly found: Domains[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly policy: CompiledPolicy,
    private readonly request: EvaluationRequest,
    private readonly now: Date | number,
    result: CompleteEvaluation,
    private readonly meter: BudgetMeter,
    private readonly windowStates: WindowStates | null,
  ) {
    const index = ruleIndex(policy);
    let allowedFires = false;
    for (const e of result.precedence_trace) {
      const rule = index.get(e.rule_id);
      if (!rule || e.reason === 'not_applicable') continue;
      if (rule.window !== null) {
        this.windowRows.set(rule, windowRow(rule, rule.window, windowStates));
        for (const k of rule.window.keys) if (k.field !== null) this.keyFields.add(k.field.accessor.path);
        if (rule.window.sum !== null) this.amountFields.add(rule.window.sum.accessor.path);
      }
      const paths = new Set((rule.overrides ?? []).flatMap((o) => (o.condition ? o.condition.fields.map((f) => f.accessor.path) : [])));
      if (paths.size) this.celPaths.set(rule, paths);
      for (const p of paths) this.celFields.add(p);
      if (e.reason === 'overridden') {
        // Neutralised for good unless an override's CEL conditions read the operation's fields.
        if (!paths.size) continue;
        this.overridden.add(rule);
      }
      this.active.push(rule);
      if (rule.verdict === ALLOWED) {
        if (e.reason === 'fires') allowedFires = true;
      } else if (e.reason === 'fires' && !allowedFires) this.firing.push(rule);
    }
  }

  field(f: CompiledField | string): FieldInfo {
    const path = typeof f === 'string' ? f : f.accessor.path;
    let info = this.fields.get(path);
    if (info) return info;
    const accessor = typeof f === 'string' ? compileAccessor(f) : f.accessor;
    const read = readField(accessor, this.request, { value: undefined, fact: null });
    const compiled: { rule: CompiledRule; field: CompiledField }[] = [];
    // A neutralised rule asks nothing of the field (should a change lift its override, verification tells).
    for (const rule of this.active) {
      if (this.overridden.has(rule)) continue;
      for (const x of rule.fields) if (x.accessor.path === path) compiled.push({ rule, field: x });
    }
    const requirementAtoms: Atom[] = [];
    const samples: unknown[] = [];
    const provenance: ExplanationRequirement[] = [];
    const reqs: Requirement[] = [];
    for (const { rule, field } of compiled) {
      if (!field.required) continue;
      const r = field.requirement;
      reqs.push(r);
      if (isFiniteNumber(r.min)) requirementAtoms.push(atom(path, 'gte', r.min));
      if (isFiniteNumber(r.max)) requirementAtoms.push(atom(path, 'lte', r.max));
      if (r.allowed_values) {
        requirementAtoms.push(atom(path, 'in', [...r.allowed_values]));
        samples.push(...r.allowed_values);
      }
      if (r.format) samples.push(...FORMAT_SAMPLES);
      if (r.source_requirement === 'verified' || r.acceptable_sources || r.confidence_threshold !== undefined) {
        const p: ExplanationRequirement = { field: path, rule_id: rule.ruleId };
        if (r.acceptable_sources) p.acceptable_sources = [...r.acceptable_sources];
        if (r.confidence_threshold !== undefined) p.confidence_threshold = r.confidence_threshold;
        if (r.source_requirement === 'verified') p.source_requirement = 'verified';
        provenance.push(p);
      }
    }
    const merged = reqs.length ? mergeRequirements(path, reqs) : null;
    const checks = compiled.filter((x) => x.field.check !== null);
    // With the best Fact a caller could give: an empty acceptable_sources refuses every value.
    const accept = (v: unknown): boolean =>
      checks.every(({ field }) => field.check!(v, conformingFact(v, field.requirement, null)) === null);
    info = { path, accessor, current: read.value, fact: read.fact, requirementAtoms, accept, samples, provenance, merged };
    this.fields.set(path, info);
    return info;
  }

  /** Row `i` of a rule: a condition, or (WINDOW_ROW) a sum budget's amount row. */
  private rowOf(rule: CompiledRule, i: number): CompiledRuleCondition {
    if (i !== WINDOW_ROW) return rule.conditions[i];
    const w = this.windowRows.get(rule);
    if (w?.kind !== 'sum') throw new Error('no amount row');
    return w.row;
  }

  /** Whether a row can hold: with the value read now (false/true/unknown), or for some value of a change. */
  private canHold(rule: CompiledRule, i: number, domains: Domains): boolean {
    const { fieldIndex, condition } = this.rowOf(rule, i);
    const f = rule.fields[fieldIndex];
    const d = domains.get(f.accessor.path);
    if (d) {
      // Memoised per change and row: the search asks the same question of one change many times.
      let answers = this.holdsUnder.get(d);
      if (!answers) this.holdsUnder.set(d, (answers = new Map()));
      const row = this.rowAtom(rule, i);
      let answer = answers.get(row.key);
      if (answer === undefined) answers.set(row.key, (answer = mayHold(this.field(f), d.atoms, row)));
      return answer;
    }
    let now = this.holdsNow.get(condition);
    if (now === undefined) this.holdsNow.set(condition, (now = this.holdsForCurrent(f, condition)));
    return now;
  }

  private holdsForCurrent(f: CompiledField, condition: CompiledCondition): boolean {
    const value = this.field(f).current;
    if (condition.expectPresent !== null) {
      // check answers an absent `exists` row; resolve does not know it yet.
      if (value === undefined && this.request.mode !== 'check') return true;
      return (value !== undefined && value !== null) === condition.expectPresent;
    }
    if (value === undefined) return true; // resolve: unknown
    return condition.test(value);
  }

  private rowAtom(rule: CompiledRule, i: number): Atom {
    const { fieldIndex, condition } = this.rowOf(rule, i);
    let a = this.rowAtoms.get(condition);
    if (!a) this.rowAtoms.set(condition, (a = atom(rule.fields[fieldIndex].accessor.path, condition.op, condition.value)));
    return a;
  }

  /** A rule that fires whatever the operation's fields say: no rows, or rows on the request itself that hold. */
  private unstoppable(rule: CompiledRule): boolean {
    const fixed = (i: number) => rule.fields[rule.conditions[i].fieldIndex].accessor.source !== 'path';
    const n = rule.conditions.length;
    if (n === 0) return true;
    if (rule.anyMode) {
      for (let i = 0; i < n; i++) if (fixed(i) && this.canHold(rule, i, EMPTY_DOMAINS)) return true;
      return false;
    }
    for (let i = 0; i < n; i++) if (!fixed(i)) return false;
    return true;
  }

  /** Whether the rule's rows, or the CEL conditions of its overrides, read one of `paths`. */
  private reads(rule: CompiledRule, paths: Iterable<string>): boolean {
    const cel = this.celPaths.get(rule);
    const w = this.windowRows.get(rule);
    const amount = w?.kind === 'sum' ? rule.fields[w.row.fieldIndex].accessor.path : null;
    for (const p of paths) {
      if (cel?.has(p) || p === amount) return true;
      for (const c of rule.conditions) if (rule.fields[c.fieldIndex].accessor.path === p) return true;
    }
    return false;
  }

  /**
   * The ways to keep `rule` from firing (each a list of rows to invert), or null when it cannot fire
   * anyway. A remembering rule fires when its conditions and its window row hold: inverting the window
   * row (a sum budget's amount) is one more way.
   */
  private waysToStop(rule: CompiledRule, domains: Domains): { field: CompiledField; i: number }[][] | null {
    const w = this.windowRows.get(rule);
    if (w === undefined) return this.conditionWaysToStop(rule, domains);
    if (w.kind === 'fixed') return w.holds ? this.conditionWaysToStop(rule, domains) : null;
    if (!this.canHold(rule, WINDOW_ROW, domains)) return null;
    const ways = this.conditionWaysToStop(rule, domains);
    if (ways === null) return null;
    const field = rule.fields[w.row.fieldIndex];
    return this.invertible(field, w.row.condition) ? [...ways, [{ field, i: WINDOW_ROW }]] : ways;
  }

  private conditionWaysToStop(rule: CompiledRule, domains: Domains): { field: CompiledField; i: number }[][] | null {
    const n = rule.conditions.length;
    if (n === 0) return [];
    const holding: number[] = [];
    for (let i = 0; i < n; i++) {
      if (this.canHold(rule, i, domains)) holding.push(i);
      else if (!rule.anyMode) return null;
    }
    if (rule.anyMode && holding.length === 0) return null;
    const row = (i: number) => ({ field: rule.fields[rule.conditions[i].fieldIndex], i });
    const invertible = (i: number) => this.invertible(row(i).field, rule.conditions[i].condition);
    if (rule.anyMode) return holding.every(invertible) ? [holding.map(row)] : [];
    return holding.filter(invertible).map((i) => [row(i)]);
  }

  /**
   * Whether a change of the row's field can be proposed: a row on the operation's own fields (not action,
   * resource or scope) with an exact negation, on a field no override's CEL conditions read. A change to
   * such a field could switch an override on or off, and with it bring back a rule and the context that
   * rule requires; explanations do not reason about CEL, so they leave those fields alone.
   */
  private invertible(field: CompiledField, condition: Condition | CompiledCondition): boolean {
    const path = field.accessor.path;
    return (
      field.accessor.source === 'path' && inverse(condition as Condition) !== null && !this.celFields.has(path) && !this.keyFields.has(path)
    );
  }

  private extend(domains: Domains, rows: { field: CompiledField; i: number }[], rule: CompiledRule): Domains | null {
    const next = new Map(domains);
    for (const { field, i } of rows) {
      const info = this.field(field);
      const { condition } = this.rowOf(rule, i);
      const inv = inverse({ field: info.path, op: condition.op, value: condition.value })!;
      const a = atom(info.path, inv.op, inv.value);
      const prev = next.get(info.path)?.atoms ?? info.requirementAtoms;
      if (prev.some((x) => x.key === a.key)) continue;
      const atoms = [...prev, a];
      const w = witness(info, atoms);
      if (w === NONE) return null;
      next.set(info.path, { atoms, witness: w });
    }
    return next;
  }

  /** Whether a row holds for every value a change allows (a finite domain), or for the value read now. */
  private surelyHolds(rule: CompiledRule, i: number, domains: Domains): boolean {
    const { fieldIndex, condition } = rule.conditions[i];
    const f = rule.fields[fieldIndex];
    const d = domains.get(f.accessor.path);
    if (d) {
      const members = finiteMembers(d.atoms);
      if (members === null) {
        // An open domain (bounds, exclusions) has no list of members, but some rows fail only on a few
        // values: `exists true` on null, `neq`/`not_in` on the values they name. Such a row holds for
        // every member exactly when the domain leaves those values out. Nothing else is sure.
        const admits = (v: unknown) => d.atoms.every((a) => atomHolds(a, v));
        if (condition.expectPresent === true) return !admits(null);
        if (condition.op === 'neq') return !admits(condition.value);
        if (condition.op === 'not_in' && Array.isArray(condition.value)) return !condition.value.some(admits);
        if (isOrdered(condition.op)) return boundsImply(d.atoms, condition.op, condition.value);
        return false;
      }
      const row = atom(f.accessor.path, condition.op, condition.value);
      return members.every((v) => atomHolds(row, v));
    }
    const value = this.field(f).current;
    if (condition.expectPresent !== null) {
      if (value === undefined && this.request.mode !== 'check') return false;
      return (value !== undefined && value !== null) === condition.expectPresent;
    }
    return value !== undefined && condition.test(value);
  }

  /** Whether a rule fires whatever value the changes take (and no conditional override can start or stop neutralising it). */
  private surelyFires(rule: CompiledRule, domains: Domains): boolean {
    // A window can always fill up: a remembering rule is never sure to fire (which only asks for more changes).
    if (this.overridden.has(rule) || this.readsChanged(rule, domains) || this.windowRows.has(rule)) return false;
    const n = rule.conditions.length;
    if (n === 0) return true;
    if (!rule.anyMode) {
      for (let i = 0; i < n; i++) if (!this.surelyHolds(rule, i, domains)) return false;
      return true;
    }
    // An `any` rule: one row sure to hold, or the rows on one changed field holding together for every value it may take.
    const onChanged = new Map<string, Atom[]>();
    for (let i = 0; i < n; i++) {
      if (this.surelyHolds(rule, i, domains)) return true;
      const path = rule.fields[rule.conditions[i].fieldIndex].accessor.path;
      if (domains.has(path)) onChanged.set(path, [...(onChanged.get(path) ?? []), this.rowAtom(rule, i)]);
    }
    for (const [path, rows] of onChanged) if (rows.length > 1 && coveredBy(domains.get(path)!.atoms, rows)) return true;
    return false;
  }

  private readsChanged(rule: CompiledRule, domains: Domains): boolean {
    const paths = this.celPaths.get(rule);
    if (!paths) return false;
    for (const p of paths) if (domains.has(p)) return true;
    return false;
  }

  /**
   * Walks the candidates in precedence order: the first that fires decides. A rule whose verdict is
   * allowed and that surely fires ends the walk; every other rule above it that may fire must be
   * stopped. A state where one of them cannot be stopped is dropped at once (unless an allowed rule
   * above it may come to fire surely); otherwise the search branches on the rule with the fewest ways
   * to stop it (fail first), one branch per way.
   */
  run(domains: Domains = new Map()): void {
    if (this.states++ >= MAX_STATES || this.verifications >= MAX_VERIFICATIONS) return;
    const changed = [...domains.keys()];
    let best: { rule: CompiledRule; ways: { field: CompiledField; i: number }[][] } | null = null;
    // A rule that cannot be stopped ends the state, unless an allowed rule above it may yet surely fire.
    let allowedAbove = false;
    let stuck = false;
    for (const rule of this.active) {
      this.meter.spend(1);
      const touched = this.reads(rule, changed);
      if (rule.verdict === ALLOWED) {
        if (this.surelyFires(rule, domains)) break;
        allowedAbove = true;
        continue;
      }
      // Neutralised, and no change touches what its override reads: it stays neutralised.
      if (this.overridden.has(rule) && !this.readsChanged(rule, domains)) continue;
      let ways = touched ? undefined : this.staticWays.get(rule);
      if (ways === undefined) {
        ways = this.waysToStop(rule, domains);
        if (!touched) this.staticWays.set(rule, ways);
      }
      if (ways === null) continue;
      if (ways.length === 0) {
        if (!allowedAbove && this.unstoppable(rule)) return;
        stuck = true;
      } else if (!best || ways.length < best.ways.length) best = { rule, ways };
    }
    // A rule that cannot be stopped yet, and no change left to try: nothing to offer from here.
    if (!best) return stuck ? undefined : this.leaf(domains);
    for (const rows of best.ways) {
      const next = this.extend(domains, rows, best.rule);
      if (next) this.run(next);
    }
  }

  /** The walk of run() without branching: whether no rule but an allowed one can decide under these changes. */
  private settles(domains: Domains): boolean {
    for (const rule of this.active) {
      this.meter.spend(1);
      if (rule.verdict === ALLOWED) {
        if (this.surelyFires(rule, domains)) return true;
        continue;
      }
      if (this.overridden.has(rule) && !this.readsChanged(rule, domains)) continue;
      if (this.waysToStop(rule, domains) !== null) return false;
    }
    return true;
  }

  private leaf(found: Domains): void {
    // A change may have made an allowed rule fire above a rule another change stopped: drop the
    // changes that are not needed any more, one field at a time.
    let domains = found;
    for (const path of [...found.keys()]) {
      if (domains.size < 2) break;
      const fewer = new Map(domains);
      fewer.delete(path);
      if (this.settles(fewer)) domains = fewer;
    }
    const key = [...domains.entries()]
      .map(
        ([f, d]) =>
          `${f}=${d.atoms
            .map((a) => a.key)
            .sort()
            .join('&')}`,
      )
      .sort()
      .join('|');
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.verifications++;
    const changed = applyWitnesses(
      this.request,
      [...domains].map(([path, d]) => ({ info: this.field(path), value: d.witness })),
    );
    if (!changed) return;
    const r = evaluate(this.policy, changed, this.now, null, this.meter.deadline, this.windowStates);
    if (r.status === 'complete' && r.verdict === ALLOWED) this.found.push(domains);
  }

  notInvertible(): NotInvertible[] {
    const out: NotInvertible[] = [];
    for (const rule of this.firing) {
      for (let i = 0; i < rule.conditions.length; i++) {
        const { fieldIndex, condition } = rule.conditions[i];
        const f = rule.fields[fieldIndex];
        if (this.invertible(f, condition)) continue;
        if (!this.canHold(rule, i, new Map())) continue;
        if (!out.some((x) => x.rule_id === rule.ruleId && x.field === f.accessor.path && x.op === condition.op)) {
          out.push({ field: f.accessor.path, op: condition.op, rule_id: rule.ruleId });
        }
      }
      const w = this.windowRows.get(rule);
      if (w?.kind === 'fixed' && w.holds) out.push({ field: w.field, op: w.op, reason: w.reason, rule_id: rule.ruleId });
      if (w?.kind === 'sum' && !this.invertible(rule.fields[w.row.fieldIndex], w.row.condition)) {
        out.push({ field: rule.fields[w.row.fieldIndex].accessor.path, op: 'gt', rule_id: rule.ruleId });
      }
    }
    return out;
  }
}

const NONE: unique symbol = Symbol('none');

/** Every character an ISO 8601 date or date-time the engine compares can hold. */
const ISO_CHARACTERS = /^[0-9Tt :.Zz+-]*$/;

/**
 * Whether some value of the change's domain makes `row` hold. The search tries chosen values, and inside
 * an ordered date domain it tries dates only: a string test (contains, starts_with) may hold for a date
 * it did not try (`starts_with "2026-01"` inside `lt 2026-03-01`). There the answer is yes, so that an
 * alternative never leaves room for a rule it could wake (an explanation may miss an alternative; it is
 * never wrong).
 */
function mayHold(info: FieldInfo, atoms: readonly Atom[], row: Atom): boolean {
  if (witness(info, [...atoms, row]) !== NONE) return true;
  // Inside a date domain every value is an ISO 8601 string: only a needle made of its characters can match one.
  if (
    (row.cond.op !== 'contains' && row.cond.op !== 'starts_with') ||
    typeof row.cond.value !== 'string' ||
    !ISO_CHARACTERS.test(row.cond.value)
  )
    return false;
  const finite = atoms.some((a) => a.cond.op === 'eq' || a.cond.op === 'in' || (a.cond.op === 'exists' && a.cond.value === false));
  return !finite && atoms.some((a) => isOrdered(a.cond.op) && (isIsoDate(a.cond.value) || isIsoDateTime(a.cond.value)));
}

/** A value satisfying every constraint and the field's Requirements, preferring one close to the current value; NONE when there is none. */
function witness(info: FieldInfo, atoms: readonly Atom[]): unknown {
  for (const v of candidates(info, atoms)) if (v !== undefined && info.accept(v) && atoms.every((a) => atomHolds(a, v))) return v;
  return NONE;
}

const DAY = 86_400_000;

function* candidates(info: FieldInfo, atoms: readonly Atom[]): Generator<unknown> {
  // A finite domain (eq, in, exists false): its members are the only candidates.
  const eq = atoms.find((a) => a.cond.op === 'eq');
  if (eq) return yield eq.cond.value;
  const inList = atoms.find((a) => a.cond.op === 'in');
  if (inList) return yield* inList.cond.value as unknown[];
  if (atoms.some((a) => a.cond.op === 'exists' && a.cond.value === false)) return yield null;
  const k =
    atoms
      .filter((a) => a.cond.op === 'neq' || a.cond.op === 'not_in')
      .reduce((n, a) => n + (Array.isArray(a.cond.value) ? a.cond.value.length : 1), 0) + 2;
  const current = info.current;
  const numeric = atoms.filter((a) => isOrdered(a.cond.op) && isFiniteNumber(a.cond.value));
  const dated = atoms.filter((a) => isOrdered(a.cond.op) && (isIsoDate(a.cond.value) || isIsoDateTime(a.cond.value)));
  if (numeric.length) {
    const points = around(
      numeric.map((a) => a.cond.value as number),
      1,
      k,
    );
    const hint = isFiniteNumber(current) ? current : 0;
    yield* points.sort((x, y) => Math.abs(x - hint) - Math.abs(y - hint));
    return;
  }
  if (dated.length) {
    const bounds = dated.map((a) => isoToMillis(a.cond.value));
    const dateOnly = dated.every((a) => isIsoDate(a.cond.value));
    const points = [...around(bounds, DAY, k), ...around(bounds, 1000, 2), ...around(bounds, 1, 2)];
    const hint = typeof current === 'string' && !Number.isNaN(isoToMillis(current)) ? isoToMillis(current) : bounds[0];
    for (const ms of points.sort((x, y) => Math.abs(x - hint) - Math.abs(y - hint))) {
      const iso = new Date(ms).toISOString();
      if (dateOnly && ms % DAY === 0) yield iso.slice(0, 10);
      yield iso.replace('.000Z', 'Z');
      yield iso;
    }
    return;
  }
  // Only exclusions (neq, not_in) and exists true, and rows tested against the domain (contains, starts_with).
  for (const a of atoms) {
    if (a.cond.op === 'contains') yield* typeof a.cond.value === 'string' ? [a.cond.value, [a.cond.value]] : [[a.cond.value]];
    if (a.cond.op === 'starts_with' && typeof a.cond.value === 'string') yield* [a.cond.value, `${a.cond.value}x`];
  }
  yield* info.samples;
  const excluded = atoms.flatMap((a) => (a.cond.op === 'neq' ? [a.cond.value] : a.cond.op === 'not_in' ? (a.cond.value as unknown[]) : []));
  const kinds = [current, ...excluded].map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v));
  for (const kind of [...new Set([...kinds, 'string', 'number', 'boolean'])]) yield* typed(kind, k);
  yield null;
}

/** The bounds themselves, `k` steps of `step` on both sides of each, and points between each pair. */
function around(bounds: readonly number[], step: number, k: number): number[] {
  const out: number[] = [];
  for (const b of bounds) {
    out.push(b);
    const base = step === 1 && !Number.isInteger(b) ? Math.floor(b) : b;
    for (let i = 1; i <= k; i++) out.push(base + i * step, (step === 1 && !Number.isInteger(b) ? Math.ceil(b) : b) - i * step);
  }
  for (let i = 0; i < bounds.length; i++) {
    for (let j = i + 1; j < bounds.length; j++) {
      const lo = Math.min(bounds[i], bounds[j]);
      const hi = Math.max(bounds[i], bounds[j]);
      for (let s = 1; s <= k; s++) out.push(lo + ((hi - lo) * s) / (k + 1));
    }
  }
  return [...new Set(out)].filter(Number.isFinite);
}

function* typed(kind: string, k: number): Generator<unknown> {
  switch (kind) {
    case 'string':
      yield 'x';
      for (let i = 1; i <= k; i++) yield `x${i}`;
      return;
    case 'number':
      for (let i = 0; i <= k; i++) yield i;
      yield -1;
      return;
    case 'boolean':
      yield false;
      yield true;
      return;
    case 'array':
      yield [];
      return;
    case 'object':
      yield {};
      return;
  }
}

/** Sets a value at a dot path of `parameters`, copying the objects on the way; null when the path cannot be written. */
function setPath(root: unknown, segments: readonly string[], value: unknown): Record<string, unknown> | null {
  const write = (node: unknown, i: number): unknown => {
    if (i === segments.length) return value;
    const seg = segments[i];
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(seg) || Number(seg) > node.length) return NONE;
      const copy = [...node];
      const inner = write(copy[Number(seg)], i + 1);
      if (inner === NONE) return NONE;
      copy[Number(seg)] = inner;
      return copy;
    }
    if (node !== undefined && (node === null || typeof node !== 'object')) return NONE;
    const copy: Record<string, unknown> = { ...(node as Record<string, unknown> | undefined) };
    const own = node !== undefined && Object.prototype.hasOwnProperty.call(node, seg) ? (node as Record<string, unknown>)[seg] : undefined;
    const inner = write(own, i + 1);
    if (inner === NONE) return NONE;
    Object.defineProperty(copy, seg, { value: inner, enumerable: true, writable: true, configurable: true });
    return copy;
  };
  const out = write(root ?? {}, 0);
  return out === NONE ? null : (out as Record<string, unknown>);
}

/**
 * The request with each change applied where the evaluation reads the field: a check's parameter, or
 * the context Fact when one supplied it (a Fact wins over a parameter). A field held to a provenance
 * Requirement gets a Fact meeting it. Null when a parameter path cannot be written.
 */
function applyWitnesses(req: EvaluationRequest, changes: readonly { info: FieldInfo; value: unknown }[]): EvaluationRequest | null {
  let parameters = req.parameters ?? null;
  let context: Record<string, Fact> | null = null;
  for (const { info, value } of changes) {
    const needsFact = info.provenance.length > 0;
    if (req.mode === 'check' && !needsFact && info.fact === null) {
      const next = setPath(parameters, info.accessor.segments, value);
      if (!next) return null;
      parameters = next;
      continue;
    }
    context ??= { ...req.context };
    const fact = needsFact ? conformingFact(value, info.merged, info.fact) : { ...(info.fact ?? { source: 'explanation' }), value };
    Object.defineProperty(context, info.path, { value: fact, enumerable: true, writable: true, configurable: true });
  }
  return { ...req, parameters, context: context ?? req.context };
}

const OP_ORDER: readonly ConditionOp[] = ['eq', 'in', 'gt', 'gte', 'lt', 'lte', 'neq', 'not_in', 'exists', 'contains', 'starts_with'];

/** The changes of one field, without the constraints others imply (lte 5000 makes lte 10000 redundant). */
function simplify(path: string, atoms: readonly Atom[]): ExplanationChange[] {
  const change = (op: ConditionOp, value: unknown): ExplanationChange => ({ field: path, op, value });
  const eq = atoms.find((a) => a.cond.op === 'eq');
  if (eq) return [change('eq', eq.cond.value)];
  const inList = atoms.find((a) => a.cond.op === 'in');
  if (inList) {
    const members = (inList.cond.value as unknown[]).filter(
      (v, i, xs) => atoms.every((a) => atomHolds(a, v)) && xs.findIndex((x) => jsonEqual(x, v)) === i,
    );
    return [members.length === 1 ? change('eq', members[0]) : change('in', members)];
  }
  if (atoms.some((a) => a.cond.op === 'exists' && a.cond.value === false)) return [change('exists', false)];
  const out: ExplanationChange[] = [];
  for (const dir of ['lower', 'upper'] as const) {
    const ops = dir === 'lower' ? ['gt', 'gte'] : ['lt', 'lte'];
    let best: Atom | null = null;
    let bestAt = 0;
    for (const a of atoms) {
      if (!ops.includes(a.cond.op)) continue;
      const at = isFiniteNumber(a.cond.value) ? a.cond.value : isoToMillis(a.cond.value);
      const tighter =
        best === null ||
        (dir === 'lower' ? at > bestAt || (at === bestAt && a.cond.op === 'gt') : at < bestAt || (at === bestAt && a.cond.op === 'lt'));
      if (tighter) {
        best = a;
        bestAt = at;
      }
    }
    if (best) out.push(change(best.cond.op, best.cond.value));
  }
  // Exclusions that a bound already rules out say nothing.
  const bounds = out.map((c) => atom(path, c.op, c.value));
  const excluded: unknown[] = [];
  for (const a of atoms) {
    const values = a.cond.op === 'neq' ? [a.cond.value] : a.cond.op === 'not_in' ? (a.cond.value as unknown[]) : [];
    for (const v of values) if (bounds.every((b) => atomHolds(b, v)) && !excluded.some((x) => jsonEqual(x, v))) excluded.push(v);
  }
  if (excluded.length === 1) out.push(change('neq', excluded[0]));
  else if (excluded.length > 1) out.push(change('not_in', excluded));
  // exists true says something unless the other changes already refuse null.
  if (atoms.some((a) => a.cond.op === 'exists') && out.every((c) => atomHolds(atom(path, c.op, c.value), null)))
    out.push(change('exists', true));
  return out.sort((a, b) => OP_ORDER.indexOf(a.op) - OP_ORDER.indexOf(b.op));
}

/** The bound every budget amount has (Atom key of `gte 0`). */
const IMPLIED_AMOUNT_BOUND = `gte:${JSON.stringify(0)}`;

const changeKey = (c: ExplanationChange): string => `${c.field}\u0000${c.op}\u0000${JSON.stringify(c.value)}`;

/**
 * The explanation of a complete `blocked` or `approval_required` evaluation (docs/verdicts.md
 * "Explanations"); null for any other result. `request`, `now` and `policy` must be those the result
 * was evaluated with, and `states` the window states it was evaluated with (docs/verdicts.md "Budgets, rates
 * and sequences"; null when the policy has no rule that remembers). Bounded: at most MAX_STATES search states and MAX_VERIFICATIONS evaluations,
 * and by `deadline` (docs/verdicts.md "Evaluation budget"): past it, EvaluationBudgetExceededError.
 */
export function explain(
  policy: CompiledPolicy,
  request: EvaluationRequest,
  result: EvaluationResult,
  now: Date | number,
  deadline: Deadline | null = null,
  states: WindowStates | null = null,
): Explanation | null {
  if (result.status !== 'complete' || !VERDICTS_EXPLAINED.has(result.verdict)) return null;
  const meter = new BudgetMeter(deadline);
  const search = new Search(policy, request, now, result, meter, states);
  search.run();
  meter.check();
  const alternatives = search.found.map((domains) => {
    const fields = [...domains.keys()];
    const shown = (path: string, a: Atom): boolean => !(a.key === IMPLIED_AMOUNT_BOUND && search.amountFields.has(path));
    const changes = fields.flatMap((path) =>
      simplify(
        path,
        domains.get(path)!.atoms.filter((a) => shown(path, a)),
      ),
    );
    const requirements = fields.flatMap((path) => search.field(path).provenance);
    return { fields, changes, keys: new Set(changes.map(changeKey)), requirements };
  });
  // Minimal: drop an alternative that changes more fields than another, or the same fields with more constraints.
  const subset = <T>(a: ReadonlySet<T> | readonly T[], b: ReadonlySet<T> | readonly T[]): boolean =>
    [...a].every((x) => (b instanceof Set ? b.has(x) : (b as T[]).includes(x)));
  const minimal = alternatives.filter(
    (alt, i) =>
      !alternatives.some((other, j) => {
        if (j === i) return false;
        const fewerFields = subset(other.fields, alt.fields) && other.fields.length < alt.fields.length;
        const sameFields = other.fields.length === alt.fields.length && subset(other.fields, alt.fields);
        const fewerChanges = sameFields && subset(other.keys, alt.keys) && (other.keys.size < alt.keys.size || j < i);
        return fewerFields || fewerChanges;
      }),
  );
  minimal.sort((a, b) => a.fields.length - b.fields.length || a.changes.length - b.changes.length);
  const toAllow = minimal
    .slice(0, MAX_ALTERNATIVES)
    .map(({ changes, requirements }): ExplanationAlternative => (requirements.length ? { changes, requirements } : { changes }));
  const out: Explanation = { not_invertible: search.notInvertible(), to_allow: toAllow };
  if (result.verdict === 'approval_required') return { deciders: [...result.candidate_deciders], ...out };
  return out;
}
