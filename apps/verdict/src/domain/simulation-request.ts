// The one validation of the simulation body (POST /<tenant_id>/v1/simulations, docs/verdicts.md
// "Simulation"). The envelope (each change's op and its one subject, the window, sample_limit) is
// checked here by hand so that an error names `changes[i]`; rule and override bodies are checked against
// the schemas tsoa wrote into openapi.json from models/simulations.ts, so the published shape and the
// validation are one. Every refusal is 400 validation_failed with `details.field`.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { AppError } from '@arbiter/http';
import { hasOwn, isIntegerIn, isPlainObject, unknownMember } from '@arbiter/input';
import openapi from '../../openapi.json';
import type { ParsedChange } from './simulation';
import type { SimulatedNewRule, SimulatedOverrideBody, SimulatedRuleBody } from '../models/simulations';
import { badRequest } from './errors';
import { parseBound } from './consultation-query';

export const MAX_CHANGES = 100;
export const MAX_SAMPLE_LIMIT = 100;
export const DEFAULT_SAMPLE_LIMIT = 20;
export const MAX_LAST = 1_000_000;
export const DEFAULT_WINDOW_MS = 7 * 86_400_000;

export interface ParsedSimulation {
  changes: ParsedChange[];
  window: { since: Date; until: Date; last: number | null };
  sampleLimit: number;
}

export function invalid(field: string, message: string): AppError {
  return badRequest('validation_failed', `${field}: ${message}`, { field });
}

/** OpenAPI 3.0 `nullable` as JSON Schema (ajv): `{type: [t, "null"]}`, or an anyOf with null. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!isPlainObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'example' || k === 'examples' ? v : toJsonSchema(v);
  if (out.nullable !== true) return out;
  delete out.nullable;
  if (typeof out.type === 'string' && !out.enum) return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

let validators: { newRule: ValidateFunction; ruleBody: ValidateFunction; override: ValidateFunction } | null = null;

function schemas() {
  if (validators) return validators;
  const ajv = new Ajv({ strict: false, allErrors: false });
  // tsoa's number formats say nothing JSON Schema checks.
  for (const f of ['double', 'float', 'int32', 'int64']) ajv.addFormat(f, true);
  ajv.addSchema({ $id: 'verdict', components: toJsonSchema(openapi.components) });
  const get = (name: string) => {
    const v = ajv.getSchema(`verdict#/components/schemas/${name}`);
    if (!v) throw new Error(`openapi.json has no schema ${name} (run npm run generate)`);
    return v;
  };
  validators = { newRule: get('SimulatedNewRule'), ruleBody: get('SimulatedRuleBody'), override: get('SimulatedOverrideBody') };
  return validators;
}

/** `/conditions/0/op` under `changes[2].rule` → `changes[2].rule.conditions[0].op`. */
function errorField(base: string, e: ErrorObject): string {
  let field = base;
  for (const part of e.instancePath.split('/').slice(1)) {
    const name = part.replace(/~1/g, '/').replace(/~0/g, '~');
    field += /^\d+$/.test(name) ? `[${name}]` : `.${name}`;
  }
  const params = e.params as { additionalProperty?: string; missingProperty?: string };
  if (e.keyword === 'additionalProperties' && params.additionalProperty) return `${field}.${params.additionalProperty}`;
  if (e.keyword === 'required' && params.missingProperty) return `${field}.${params.missingProperty}`;
  return field;
}

function errorMessage(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') return 'is not a known field';
  if (e.keyword === 'required') return 'is required';
  if (e.keyword === 'enum') return `${e.message} (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`;
  return e.message ?? 'is invalid';
}

function checked<T>(validate: ValidateFunction, value: unknown, field: string): T {
  if (validate(value)) return value as T;
  const e = validate.errors![0];
  const at = errorField(field, e);
  throw invalid(at, errorMessage(e));
}

const CHANGE_KEYS = new Set(['op', 'rule', 'rule_id', 'override', 'override_id']);

function idOf(change: Record<string, unknown>, key: 'rule_id' | 'override_id', field: string): string {
  const v = change[key];
  if (typeof v !== 'string' || v.length === 0 || v.length > 200) throw invalid(`${field}.${key}`, 'must be an id (a non-empty string)');
  return v;
}

/** One change: `op` and exactly one subject (docs/verdicts.md "Simulation"). */
function parseChange(raw: unknown, index: number): ParsedChange {
  const field = `changes[${index}]`;
  if (!isPlainObject(raw)) throw invalid(field, 'must be an object {op, ...}');
  const unknown = unknownMember(raw, CHANGE_KEYS);
  if (unknown !== undefined) throw invalid(field, `${unknown} is not a member of a change (op, rule, rule_id, override, override_id)`);
  const has = (key: string) => hasOwn(raw, key) && raw[key] !== undefined;
  const subjects = ['rule', 'rule_id', 'override', 'override_id'].filter(has).sort().join('+');
  switch (raw.op) {
    case 'create':
      if (subjects === 'rule')
        return { kind: 'create_rule', index, rule: checked<SimulatedNewRule>(schemas().newRule, raw.rule, `${field}.rule`) };
      if (subjects === 'override')
        return {
          kind: 'create_override',
          index,
          override: checked<SimulatedOverrideBody>(schemas().override, raw.override, `${field}.override`),
        };
      throw invalid(field, 'create takes exactly one of rule or override');
    case 'update':
      if (subjects === 'rule+rule_id') {
        const rule_id = idOf(raw, 'rule_id', field);
        return { kind: 'update_rule', index, rule_id, rule: checked<SimulatedRuleBody>(schemas().ruleBody, raw.rule, `${field}.rule`) };
      }
      throw invalid(field, 'update takes rule_id and rule (the whole new content), nothing else');
    case 'archive':
      if (subjects === 'rule_id') return { kind: 'archive_rule', index, rule_id: idOf(raw, 'rule_id', field) };
      if (subjects === 'override_id') return { kind: 'archive_override', index, override_id: idOf(raw, 'override_id', field) };
      throw invalid(field, 'archive takes exactly one of rule_id or override_id');
    default:
      throw invalid(`${field}.op`, 'must be create, update or archive');
  }
}

function windowBound(name: 'since' | 'until', raw: unknown): Date | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || raw === '') throw invalid(`window.${name}`, 'must be an ISO 8601 date (YYYY-MM-DD) or timestamp');
  try {
    return parseBound(name, raw);
  } catch {
    throw invalid(`window.${name}`, 'must be an ISO 8601 date (YYYY-MM-DD) or timestamp');
  }
}

function parseWindow(raw: unknown, now: Date): ParsedSimulation['window'] {
  if (raw === undefined) raw = {};
  if (!isPlainObject(raw)) throw invalid('window', 'must be an object {since?, until?, last?}');
  for (const key of Object.keys(raw))
    if (!['since', 'until', 'last'].includes(key)) throw invalid(`window.${key}`, 'is not a known field (since, until, last)');
  const until = windowBound('until', raw.until) ?? now;
  const since = windowBound('since', raw.since) ?? new Date(until.getTime() - DEFAULT_WINDOW_MS);
  if (since > until) throw invalid('window.since', 'is after until');
  let last: number | null = null;
  if (raw.last !== undefined && raw.last !== null) {
    if (!isIntegerIn(raw.last, 1, MAX_LAST)) throw invalid('window.last', `must be an integer from 1 to ${MAX_LAST}`);
    last = raw.last;
  }
  return { since, until, last };
}

/** The simulation body, checked; `now` is the default `until`. */
export function parseSimulationRequest(raw: unknown, now: Date): ParsedSimulation {
  if (!isPlainObject(raw)) throw invalid('body', 'must be an object {changes, window?, sample_limit?}');
  for (const key of Object.keys(raw))
    if (!['changes', 'window', 'sample_limit'].includes(key)) throw invalid(key, 'is not a known field (changes, window, sample_limit)');
  if (!Array.isArray(raw.changes)) throw invalid('changes', 'is required: an array of changes (it may be empty)');
  if (raw.changes.length > MAX_CHANGES) throw invalid('changes', `at most ${MAX_CHANGES} changes`);
  const changes = raw.changes.map(parseChange);
  const window = parseWindow(raw.window, now);
  let sampleLimit = DEFAULT_SAMPLE_LIMIT;
  if (raw.sample_limit !== undefined) {
    const v = raw.sample_limit;
    if (!isIntegerIn(v, 0, MAX_SAMPLE_LIMIT)) throw invalid('sample_limit', `must be an integer from 0 to ${MAX_SAMPLE_LIMIT}`);
    sampleLimit = v;
  }
  return { changes, window, sampleLimit };
}
