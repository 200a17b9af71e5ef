// The rule fields that remember (docs/verdicts.md "Budgets, rates and sequences"): `limit` (a count or a
// sum of a parameter over a sliding window, per key) and `requires_prior` (an earlier allowed operation
// within a period, matching on some paths). Their write-time checks, the window durations, and the types
// the engine and the gateway's window store exchange. Pure.

/** A rule's `limit` field as a rule version stores it (exactly one of `count` and `sum`). */
export interface LimitSpec {
  count?: true;
  /** `parameters.<dot path>`: the operation's amount; a number >= 0. */
  sum?: string;
  /** The most the window may hold (inclusive). */
  max: number;
  /** A duration: a positive integer and a unit, s, m, h or d (e.g. `1h`, `24h`, `7d`). */
  window: string;
  /** Key paths: `principal`, `on_behalf_of`, `resource`, `parameters.<dot path>`; empty: one window for the rule. */
  by: string[];
}

/** A rule's `requires_prior` field as a rule version stores it. */
export interface PriorSpec {
  /** The exact action name of the earlier operation. */
  action: string;
  /** How long ago it may have happened, as a window duration. */
  within: string;
  /** Paths written as in `limit.by` on which the earlier operation must match this one. */
  same: string[];
}

export const WINDOW_LIMITS = Object.freeze({
  /** Shortest and longest window or period, in milliseconds: one second, 366 days. */
  minWindowMs: 1_000,
  maxWindowMs: 366 * 86_400_000,
  /** Paths in `by` and in `same`. */
  keyPaths: 5,
  /** Characters of a path, and of `requires_prior.action`. */
  pathLength: 200,
  /** The largest `max`. */
  maxValue: 1e15,
  /** Characters of a string value on a key path (a longer one is a gap, `wrong_type`). */
  keyValueLength: 256,
});

const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^([1-9][0-9]{0,9})([smhd])$/;
const PARAMETER_PATH = /^parameters(\.[A-Za-z0-9_-]+)+$/;
const KEY_PATHS = new Set(['principal', 'on_behalf_of', 'resource']);

/** The milliseconds of a window duration (`90s`, `1h`, `7d`), or null when it is not one within the bounds. */
export function windowMs(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const m = DURATION.exec(text);
  if (!m) return null;
  const ms = Number(m[1]) * UNIT_MS[m[2]];
  return ms >= WINDOW_LIMITS.minWindowMs && ms <= WINDOW_LIMITS.maxWindowMs ? ms : null;
}

/** Condition field paths that read the request itself, never a parameter (docs/verdicts.md "Conditions"). */
const REQUEST_FIELD = /^parameters\.(action|resource|scope)(\.|$)/;

/**
 * Whether `path` names a parameter as `sum`, `by` and `same` write it: `parameters.` and a dot path. The
 * engine reads `parameters.<p>` as a condition reads field `<p>`; `action`, `resource` and `scope` name the
 * request there, so `parameters.action`, `parameters.resource` and `parameters.scope...` are refused
 * (`resource` is a key path of its own).
 */
export function isParameterPath(path: unknown): path is string {
  return typeof path === 'string' && path.length <= WINDOW_LIMITS.pathLength && PARAMETER_PATH.test(path) && !REQUEST_FIELD.test(path);
}

/** The condition field path a `parameters.<p>` path is read as: `<p>`. */
export function parameterField(path: string): string {
  return path.slice('parameters.'.length);
}

/** Whether `path` may appear in `limit.by` or `requires_prior.same`. */
export function isKeyPath(path: unknown): path is string {
  return typeof path === 'string' && (KEY_PATHS.has(path) || isParameterPath(path));
}

/** The severities a rule that remembers may have: one that fires must hold the operation back or flag it. */
export const WINDOW_SEVERITIES: readonly string[] = ['MANDATORY', 'REQUIRES_APPROVAL', 'ADVISORY'];

/** The members of a rule body these checks read (absent and null mean "not set"). */
export interface WindowFieldsInput {
  severity?: string;
  limit?: unknown;
  requires_prior?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function keyPathProblems(name: string, v: unknown): string[] {
  if (!Array.isArray(v)) return [`${name}: a list of paths (principal, on_behalf_of, resource, parameters.<field>)`];
  const problems: string[] = [];
  if (v.length > WINDOW_LIMITS.keyPaths) problems.push(`${name}: at most ${WINDOW_LIMITS.keyPaths} paths`);
  const seen = new Set<string>();
  v.forEach((p, i) => {
    if (!isKeyPath(p)) problems.push(`${name}[${i}]: principal, on_behalf_of, resource or parameters.<field> (a dot path)`);
    else if (seen.has(p)) problems.push(`${name}[${i}]: ${p} is listed twice`);
    else seen.add(p);
  });
  return problems;
}

function unknownMembers(name: string, v: Record<string, unknown>, known: readonly string[]): string[] {
  return Object.keys(v)
    .filter((k) => !known.includes(k))
    .map((k) => `${name}.${k}: not a member of ${name} (${known.join(', ')})`);
}

/** Every problem of a `limit` value, each naming its field (`limit.max: ...`). */
export function limitProblems(v: unknown): string[] {
  if (!isObject(v)) return ['limit: an object {count | sum, max, window, by}'];
  const problems = unknownMembers('limit', v, ['count', 'sum', 'max', 'window', 'by']);
  const hasCount = v.count !== undefined && v.count !== null;
  const hasSum = v.sum !== undefined && v.sum !== null;
  if (hasCount === hasSum) problems.push('limit: exactly one of count (true) and sum (a parameters.<field> path)');
  if (hasCount && v.count !== true) problems.push('limit.count: true (count the operations)');
  if (hasSum && !isParameterPath(v.sum)) problems.push('limit.sum: parameters.<field>, a dot path into the parameters');
  if (typeof v.max !== 'number' || !Number.isFinite(v.max) || v.max <= 0 || v.max > WINDOW_LIMITS.maxValue) {
    problems.push(`limit.max: a number above 0 and at most ${WINDOW_LIMITS.maxValue}`);
  } else if (hasCount && !Number.isInteger(v.max)) problems.push('limit.max: an integer when counting');
  if (windowMs(v.window) === null) problems.push('limit.window: a duration from 1s to 366d, such as 90s, 15m, 1h, 24h or 7d');
  problems.push(...keyPathProblems('limit.by', v.by ?? []));
  return problems;
}

/** Every problem of a `requires_prior` value, each naming its field. */
export function priorProblems(v: unknown): string[] {
  if (!isObject(v)) return ['requires_prior: an object {action, within, same}'];
  const problems = unknownMembers('requires_prior', v, ['action', 'within', 'same']);
  if (typeof v.action !== 'string' || v.action.length === 0 || v.action.length > WINDOW_LIMITS.pathLength) {
    problems.push(`requires_prior.action: the earlier operation's action name (1 to ${WINDOW_LIMITS.pathLength} characters)`);
  }
  if (windowMs(v.within) === null) problems.push('requires_prior.within: a duration from 1s to 366d, such as 15m, 1h or 7d');
  problems.push(...keyPathProblems('requires_prior.same', v.same ?? []));
  return problems;
}

/**
 * Every problem of a rule's `limit` and `requires_prior` fields, each naming its field. One rule holds at
 * most one of them, and only with a severity that holds an operation back or flags it (a rule that allows
 * when a budget runs out would be a bypass, so it is refused).
 */
export function windowFieldProblems(rule: WindowFieldsInput): string[] {
  const hasLimit = rule.limit !== undefined && rule.limit !== null;
  const hasPrior = rule.requires_prior !== undefined && rule.requires_prior !== null;
  if (!hasLimit && !hasPrior) return [];
  const problems: string[] = [];
  if (hasLimit && hasPrior) problems.push('requires_prior: a rule holds either limit or requires_prior, not both (write two rules)');
  if (rule.severity !== undefined && !WINDOW_SEVERITIES.includes(rule.severity)) {
    problems.push(`${hasLimit ? 'limit' : 'requires_prior'}: only a rule of severity ${WINDOW_SEVERITIES.join(', ')} may hold it`);
  }
  if (hasLimit) problems.push(...limitProblems(rule.limit));
  if (hasPrior) problems.push(...priorProblems(rule.requires_prior));
  return problems;
}

/**
 * Problems of a rule about to be written whose `limit.sum`, `limit.by` or `requires_prior.same` names a member
 * `__proto__`. The engine reads such a member as the request carries it (an own member of the parsed body), so a
 * stored rule naming it still counts what it names and still compiles; but no other setting may name that member
 * (`sensitive_fields` refuses it), so a rule is not written with it either. The rule's other fields have been
 * checked by windowFieldProblems.
 */
export function protoPathProblems(rule: WindowFieldsInput): string[] {
  const named = (path: unknown) => typeof path === 'string' && path.split('.').includes('__proto__');
  const paths: [string, unknown][] = [];
  if (isObject(rule.limit)) {
    paths.push(['limit.sum', rule.limit.sum]);
    if (Array.isArray(rule.limit.by)) rule.limit.by.forEach((p, i) => paths.push([`limit.by[${i}]`, p]));
  }
  if (isObject(rule.requires_prior) && Array.isArray(rule.requires_prior.same)) {
    rule.requires_prior.same.forEach((p, i) => paths.push([`requires_prior.same[${i}]`, p]));
  }
  return paths.filter(([, p]) => named(p)).map(([at, p]) => `${at}: ${p as string} names __proto__, which a rule may not address`);
}

/** A stored `limit` with its defaults filled in (`by` always present). The caller has checked it. */
export function limitSpec(v: {
  count?: true | null;
  sum?: string | null;
  max: number;
  window: string;
  by?: readonly string[] | null;
}): LimitSpec {
  return {
    ...(v.count ? { count: true as const } : {}),
    ...(v.sum ? { sum: v.sum } : {}),
    max: v.max,
    window: v.window,
    by: [...(v.by ?? [])],
  };
}

/** A stored `requires_prior` with its defaults filled in (`same` always present). The caller has checked it. */
export function priorSpec(v: { action: string; within: string; same?: readonly string[] | null }): PriorSpec {
  return { action: v.action, within: v.within, same: [...(v.same ?? [])] };
}

// ---- What the engine and the window store exchange (docs/verdicts.md "Budgets, rates and sequences") ----

/**
 * One window an operation touches: a `limit` rule whose selector, resources and conditions match it. A rule
 * an override, a grant or the one-shot approval neutralised for this operation is there too, `forced`: it
 * does not decide, but what it let through still counts (docs/verdicts.md "Budgets, rates and sequences").
 */
export interface WindowNeed {
  rule_id: string;
  rule_version_id: string;
  /** The key: canonical JSON of the `by` paths and their values, e.g. {"parameters.order_id":"o-1","principal":"agn-..."}; `{}` without `by`. */
  key: string;
  /** The rule's window as written (`1h`), and in milliseconds. */
  window: string;
  window_ms: number;
  /** 1 for `count`; the parameter's value for `sum`. */
  amount: number;
  max: number;
  /**
   * Present (true) only for a neutralised rule's window: consumed whatever the window holds, so `used` may
   * pass `max` through it; it never makes a take fail and never fires.
   */
  forced?: true;
}

/** One earlier operation a `requires_prior` rule looks for. */
export interface PriorNeed {
  rule_id: string;
  rule_version_id: string;
  action: string;
  /** Canonical JSON of the `same` paths and this operation's values on them. */
  key: string;
  within: string;
  within_ms: number;
}

/** A mark an operation leaves when it goes ahead, for each `requires_prior` rule that names its action. */
export interface PriorMark {
  action: string;
  /** Canonical JSON of that rule's `same` paths and this operation's values on them. */
  key: string;
}

/** What an evaluation needs from the window store, and what the operation leaves if it goes ahead. */
export interface WindowPlan {
  limits: WindowNeed[];
  priors: PriorNeed[];
  marks: PriorMark[];
}

/**
 * A window's state for one evaluation: what it held before this operation (`used`), `fits` (the gateway
 * assumes the operation fits and lets the store's conditional take decide), or `unavailable` (the store
 * could not be read or written: the rule fires, fail closed).
 */
export type LimitState = { used: number } | 'fits' | 'unavailable';
/** Whether the earlier operation was found, or `unavailable` (the rule fires). */
export type PriorState = boolean | 'unavailable';

/** The states by rule id, for the rules of a WindowPlan. A rule of the plan missing here counts as `unavailable`. */
export interface WindowStates {
  limits: ReadonlyMap<string, LimitState>;
  priors: ReadonlyMap<string, PriorState>;
}

/** An entry of the record's `limits` (docs/verdicts.md "Consultation record"). Members in RFC 8785 order. */
export interface LimitEntry {
  key: string;
  max: number;
  rule_id: string;
  used_after: number;
  used_before: number;
  window: string;
}
