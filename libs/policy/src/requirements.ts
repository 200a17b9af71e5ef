// Requirement checks (docs/verdicts.md "Requirement"): a present value that falls short of a rule's
// Requirement on its field counts as missing for that rule, with the first failing check as reason.
// Provenance checks (source_requirement, acceptable_sources, confidence_threshold) need a Fact: a
// value read from check `parameters` or from the request itself carries no provenance and fails them.
import { isPlainObject } from '@arbiter/input';
import { PolicyCompileError } from './errors';
import { ISO_3166_ALPHA2 } from './iso-countries';
import { compileSources, intersectSources } from './sources';
import type { Fact, MissingProblem, Requirement } from './types';
import { isFiniteNumber, isIsoDate, isIsoDateTime, isScalar, jsonEqual } from './values';

type Check = (value: unknown) => boolean;

/** Type names the engine checks; any other type is a hint for the caller only. */
const TYPE_CHECKS: Record<string, Check> = {
  string: (v) => typeof v === 'string',
  number: isFiniteNumber,
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  date: (v) => isIsoDate(v) || isIsoDateTime(v),
  'date-time': isIsoDateTime,
  datetime: isIsoDateTime,
  timestamp: isIsoDateTime,
  array: (v) => Array.isArray(v),
  object: isPlainObject,
  // enum: membership is checked through allowed_values; the value must at least be a scalar.
  enum: (v) => isScalar(v),
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WHITESPACE = /\s/;

/**
 * `local@domain`: no whitespace, one `@` with something before it, and a `.` inside the domain with
 * something on each side (what /^[^\s@]+@[^\s@]+\.[^\s@]+$/ says, in one pass: that expression
 * backtracks quadratically on `a@....…. `, a second for 40,000 dots of a request value).
 */
export function isEmail(v: unknown): boolean {
  if (typeof v !== 'string' || WHITESPACE.test(v)) return false;
  const at = v.indexOf('@');
  if (at < 1 || at !== v.lastIndexOf('@')) return false;
  return v.slice(at + 2, -1).includes('.');
}
const CURRENCY = /^[A-Z]{3}$/;

const isCountry: Check = (v) => typeof v === 'string' && ISO_3166_ALPHA2.has(v);
/** Format spellings the engine checks, after lower-casing and turning spaces and underscores into `-`. */
const FORMAT_CHECKS: Record<string, Check> = {
  date: isIsoDate,
  'iso-date': isIsoDate,
  'iso8601-date': isIsoDate,
  'iso-8601-date': isIsoDate,
  'date-time': isIsoDateTime,
  datetime: isIsoDateTime,
  'iso-datetime': isIsoDateTime,
  'iso-date-time': isIsoDateTime,
  iso8601: isIsoDateTime,
  'iso-8601': isIsoDateTime,
  rfc3339: isIsoDateTime,
  timestamp: isIsoDateTime,
  country: isCountry,
  'iso-country': isCountry,
  iso3166: isCountry,
  'iso-3166': isCountry,
  'iso3166-1': isCountry,
  'iso3166-1-alpha-2': isCountry,
  'iso-3166-1-alpha-2': isCountry,
  // ISO 4217 codes are checked for shape only (three capital letters): the list changes too often.
  currency: (v) => typeof v === 'string' && CURRENCY.test(v),
  'iso-currency': (v) => typeof v === 'string' && CURRENCY.test(v),
  iso4217: (v) => typeof v === 'string' && CURRENCY.test(v),
  'iso-4217': (v) => typeof v === 'string' && CURRENCY.test(v),
  uuid: (v) => typeof v === 'string' && UUID.test(v),
  email: isEmail,
};

export function normaliseName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
}

/** A Requirement compiled to one function; null means the value is acceptable. */
export type RequirementCheck = (value: unknown, fact: Fact | null) => MissingProblem | null;

/** Merges several Requirements on one field into the strictest one (every bound must hold). */
export function mergeRequirements(field: string, reqs: readonly Requirement[]): Requirement {
  const out: Requirement = { field, type: 'any' };
  let typed = false;
  for (const r of reqs) {
    if (r.reason && !out.reason) out.reason = r.reason;
    if (!typed && r.type && r.type !== 'any') {
      out.type = r.type;
      typed = true;
    }
    if (r.allowed_values) {
      out.allowed_values = out.allowed_values
        ? out.allowed_values.filter((a) => r.allowed_values!.some((b) => jsonEqual(a, b)))
        : [...r.allowed_values];
    }
    if (r.min !== undefined && r.min !== null) out.min = out.min === undefined ? r.min : Math.max(out.min, r.min);
    if (r.max !== undefined && r.max !== null) out.max = out.max === undefined ? r.max : Math.min(out.max, r.max);
    if (r.format && !out.format) out.format = r.format;
    if (r.source_requirement === 'verified') out.source_requirement = 'verified';
    if (r.acceptable_sources) {
      out.acceptable_sources = out.acceptable_sources
        ? intersectSources(out.acceptable_sources, r.acceptable_sources)
        : [...r.acceptable_sources];
    }
    if (r.confidence_threshold !== undefined && r.confidence_threshold !== null) {
      out.confidence_threshold =
        out.confidence_threshold === undefined ? r.confidence_threshold : Math.max(out.confidence_threshold, r.confidence_threshold);
    }
  }
  return out;
}

/** Rejects Requirements that could never be checked as written. */
export function validateRequirement(r: Requirement, ruleId: string): void {
  const bad = (why: string): never => {
    throw new PolicyCompileError('invalid_rule', `requirement on ${String(r?.field)}: ${why}`, ruleId);
  };
  if (!r || typeof r.field !== 'string' || r.field === '') bad('no field');
  if (r.type !== undefined && typeof r.type !== 'string') bad('type must be a string');
  if (r.allowed_values !== undefined && r.allowed_values !== null && !Array.isArray(r.allowed_values)) {
    bad('allowed_values must be an array');
  }
  for (const k of ['min', 'max', 'confidence_threshold'] as const) {
    const v = r[k];
    if (v !== undefined && v !== null && !isFiniteNumber(v)) bad(`${k} must be a number`);
  }
  const c = r.confidence_threshold;
  if (isFiniteNumber(c) && (c < 0 || c > 1)) bad('confidence_threshold must lie in [0, 1]');
  if (r.source_requirement !== undefined && r.source_requirement !== 'verified' && r.source_requirement !== 'unverified') {
    bad('source_requirement must be verified or unverified');
  }
  if (
    r.acceptable_sources !== undefined &&
    r.acceptable_sources !== null &&
    (!Array.isArray(r.acceptable_sources) || r.acceptable_sources.some((s) => typeof s !== 'string'))
  ) {
    bad('acceptable_sources must be an array of strings');
  }
}

/** Compiles a (merged) Requirement; returns null when it constrains nothing. */
export function compileRequirement(r: Requirement): RequirementCheck | null {
  const checks: Array<(value: unknown, fact: Fact | null) => MissingProblem | null> = [];
  if (r.source_requirement === 'verified') {
    checks.push((_v, f) => (f && f.verification_status === 'verified' ? null : 'not_verified'));
  }
  if (r.acceptable_sources) {
    // Sources as written, `ledger` and `ledger:<stream glob>` (sources.ts).
    const accepts = compileSources(r.acceptable_sources);
    checks.push((_v, f) => (f && accepts(f) ? null : 'source_not_accepted'));
  }
  if (isFiniteNumber(r.confidence_threshold)) {
    const t = r.confidence_threshold;
    // A Fact without confidence does not meet a threshold: the rule asked for one.
    checks.push((_v, f) => (f && isFiniteNumber(f.confidence) && f.confidence >= t ? null : 'confidence_below_threshold'));
  }
  const typeCheck = r.type ? TYPE_CHECKS[normaliseName(r.type)] : undefined;
  if (typeCheck) checks.push((v) => (typeCheck(v) ? null : 'wrong_type'));
  if (r.allowed_values) {
    const allowed = r.allowed_values;
    checks.push((v) => (allowed.some((a) => jsonEqual(a, v)) ? null : 'value_not_allowed'));
  }
  if (isFiniteNumber(r.min) || isFiniteNumber(r.max)) {
    const min = isFiniteNumber(r.min) ? r.min : -Infinity;
    const max = isFiniteNumber(r.max) ? r.max : Infinity;
    checks.push((v) => (!isFiniteNumber(v) ? 'wrong_type' : v < min ? 'below_min' : v > max ? 'above_max' : null));
  }
  const formatCheck = r.format ? FORMAT_CHECKS[normaliseName(r.format)] : undefined;
  if (formatCheck) checks.push((v) => (formatCheck(v) ? null : 'bad_format'));
  if (checks.length === 0) return null;
  if (checks.length === 1) return checks[0];
  return (v, f) => {
    for (const c of checks) {
      const problem = c(v, f);
      if (problem) return problem;
    }
    return null;
  };
}

/** Human-readable explanation of a problem, for the `reason` of a reported Requirement. */
export function describeProblem(problem: MissingProblem, r: Requirement): string {
  switch (problem) {
    case 'absent':
      return 'absent';
    case 'not_verified':
      return 'the fact is not verified (source_requirement verified)';
    case 'source_not_accepted':
      return `the fact's source is not one of ${(r.acceptable_sources ?? []).join(', ')}`;
    case 'confidence_below_threshold':
      return `the fact's confidence is missing or below ${r.confidence_threshold}`;
    case 'wrong_type':
      return `the value is not of type ${r.type}`;
    case 'value_not_allowed':
      return 'the value is not one of allowed_values';
    case 'below_min':
      return `the value is below ${r.min}`;
    case 'above_max':
      return `the value is above ${r.max}`;
    case 'bad_format':
      return `the value does not have format ${r.format}`;
  }
}
