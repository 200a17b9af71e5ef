// Checks a Fact against a Requirement the way the verdict gateway does (docs/verdicts.md "Requirement";
// docs/verdicts.md "Requirements and missing fields"), so a fact provider learns before a round trip
// that a fact would be refused and listed again. The service stays the authority: this check is
// advisory, and formats it does not know are treated as hints, as the service treats them.
import { isPlainObject } from '@arbiter/input';
import type { Fact, Requirement } from './types';

export type FactProblemCode =
  | 'invalid_fact'
  | 'not_verified'
  | 'source_not_accepted'
  | 'confidence_below_threshold'
  | 'wrong_type'
  | 'value_not_allowed'
  | 'below_min'
  | 'above_max'
  | 'bad_format';

export interface FactProblem {
  code: FactProblemCode;
  message: string;
}

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
/** The regexes check the shape; this checks that the day exists (no February 30). */
function realDay(s: string): boolean {
  const [y, m, d] = s.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
const isDate = (v: unknown) => typeof v === 'string' && DATE.test(v) && realDay(v);
const isDateTime = (v: unknown) => typeof v === 'string' && DATE_TIME.test(v) && realDay(v);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** JSON equality: numbers by value, arrays by order, objects by content. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => jsonEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

function typeHolds(type: string, value: unknown): boolean | undefined {
  switch (type.toLowerCase()) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return isDate(value) || isDateTime(value);
    case 'date-time':
    case 'datetime':
    case 'timestamp':
      return isDateTime(value);
    case 'enum':
      return value === null || ['string', 'number', 'boolean'].includes(typeof value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return undefined; // any other type is a hint
  }
}

function formatHolds(format: string, value: unknown): boolean | undefined {
  const f = format.toLowerCase().replace(/[^a-z0-9]/g, '');
  const s = typeof value === 'string' ? value : undefined;
  if (f === 'date' || f === 'isodate') return isDate(s);
  if (['datetime', 'iso8601', 'rfc3339', 'timestamp'].includes(f)) return isDateTime(s);
  // The service also requires an assigned ISO 3166-1 code; the shape is what can be checked without its table.
  if (['isocountry', 'country', 'iso31661', 'iso31661alpha2', 'countrycode'].includes(f)) return s !== undefined && /^[A-Z]{2}$/.test(s);
  if (['isocurrency', 'currency', 'iso4217', 'currencycode'].includes(f)) return s !== undefined && /^[A-Z]{3}$/.test(s);
  if (f === 'uuid') return s !== undefined && UUID.test(s);
  if (f === 'email') return s !== undefined && EMAIL.test(s);
  return undefined;
}

/**
 * The problems of `fact` against `requirement`, in the order the gateway reports them (an empty array:
 * the fact should satisfy it). Also checks the Fact's own shape (a `value` member and a string `source`).
 */
export function checkFact(fact: Fact, requirement: Requirement): FactProblem[] {
  const problems: FactProblem[] = [];
  const add = (code: FactProblemCode, message: string) => problems.push({ code, message: `${requirement.field}: ${message}` });
  if (!fact || typeof fact !== 'object' || !('value' in fact) || typeof fact.source !== 'string' || !fact.source) {
    add('invalid_fact', 'a Fact needs a value and a non-empty source');
    return problems;
  }
  const value = fact.value;
  if (requirement.source_requirement === 'verified' && fact.verification_status !== 'verified')
    add('not_verified', 'the fact must carry verification_status verified');
  if (requirement.acceptable_sources && !requirement.acceptable_sources.includes(fact.source)) {
    add('source_not_accepted', `source ${JSON.stringify(fact.source)} is not one of ${requirement.acceptable_sources.join(', ')}`);
  }
  if (
    requirement.confidence_threshold !== undefined &&
    !(typeof fact.confidence === 'number' && fact.confidence >= requirement.confidence_threshold)
  ) {
    add('confidence_below_threshold', `confidence ${fact.confidence ?? 'absent'} is below ${requirement.confidence_threshold}`);
  }
  if (requirement.type && typeHolds(requirement.type, value) === false)
    add('wrong_type', `${JSON.stringify(value)} is not of type ${requirement.type}`);
  if (requirement.allowed_values && !requirement.allowed_values.some((v) => jsonEqual(v, value))) {
    add('value_not_allowed', `${JSON.stringify(value)} is not one of ${JSON.stringify(requirement.allowed_values)}`);
  }
  if (requirement.min !== undefined || requirement.max !== undefined) {
    if (typeof value !== 'number') {
      if (!problems.some((p) => p.code === 'wrong_type')) add('wrong_type', `${JSON.stringify(value)} is not a number`);
    } else if (requirement.min !== undefined && value < requirement.min)
      add('below_min', `${value} is below the minimum ${requirement.min}`);
    else if (requirement.max !== undefined && value > requirement.max) add('above_max', `${value} is above the maximum ${requirement.max}`);
  }
  if (requirement.format && formatHolds(requirement.format, value) === false)
    add('bad_format', `${JSON.stringify(value)} is not in the format ${requirement.format}`);
  return problems;
}
