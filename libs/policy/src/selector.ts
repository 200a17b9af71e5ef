// Scope selectors (docs/verdicts.md): a rule's `selector` and an override's `applies_to_scope` are
// flat maps of scope fields; a request's scope matches one when it carries every field with the
// same value. selectorProblems checks one against the tenant's scope_schema at write time.
import type { Scope } from './types';

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const MAX_FIELDS = 50;
const MAX_VALUE_LENGTH = 500;
const hasOwn = Object.prototype.hasOwnProperty;

/** The part of a tenant's scope_schema a selector is checked against. */
export interface ScopeSchema {
  fields?: Readonly<Record<string, { type?: string; allowed_values?: readonly unknown[] }>>;
}

/**
 * Problems of a selector (or an override's applies_to_scope) against the tenant's scope_schema.
 * When the schema names fields, every field must be one of them, of its type, and within its
 * allowed_values; without a schema any flat field is accepted.
 */
export function selectorProblems(selector: Scope, schema: ScopeSchema | null | undefined, label = 'selector'): string[] {
  const problems: string[] = [];
  const entries = Object.entries(selector);
  if (entries.length > MAX_FIELDS) problems.push(`${label} has more than ${MAX_FIELDS} fields`);
  const fields = schema?.fields ?? {};
  const schemaNamesFields = Object.keys(fields).length > 0;
  for (const [name, value] of entries) {
    if (!FIELD_NAME.test(name)) {
      problems.push(`${label}.${name}: field names are letters, digits, _, . and -, starting with a letter or _`);
      continue;
    }
    if (typeof value === 'number' && !Number.isFinite(value)) problems.push(`${label}.${name}: not a finite number`);
    if (typeof value === 'string' && value.length > MAX_VALUE_LENGTH)
      problems.push(`${label}.${name}: longer than ${MAX_VALUE_LENGTH} characters`);
    if (!schemaNamesFields) continue;
    const field = hasOwn.call(fields, name) ? fields[name] : undefined;
    if (!field) {
      problems.push(`${label}.${name}: not a field of the tenant's scope_schema`);
      continue;
    }
    if (field.type && typeof value !== field.type) problems.push(`${label}.${name}: must be a ${field.type}`);
    if (field.allowed_values && !field.allowed_values.some((v) => v === value)) {
      problems.push(`${label}.${name}: ${JSON.stringify(value)} is not one of ${JSON.stringify(field.allowed_values)}`);
    }
  }
  return problems;
}

/** True when `scope` has every field of `required` with the same value; absent = every scope. */
export function scopeContains(scope: Scope, required: Scope | null | undefined): boolean {
  if (!required) return true;
  for (const k in required) if (!hasOwn.call(scope, k) || scope[k] !== required[k]) return false;
  return true;
}
