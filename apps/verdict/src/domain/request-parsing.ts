// The one validation of the check and resolve bodies, with the error codes the verdict contract (docs/verdicts.md) names: the
// check body, scope against the tenant scope_schema, context Facts, X-Verdict-TTL, and the two
// resolve body variants. Both doors of these routes (the check fast lane and the tsoa routes,
// controllers/check.controller.ts, resolve.controller.ts) rely on these alone, without tsoa's validation, so they refuse
// everything the OpenAPI shape refuses.
import { bracketPath, hasOwn, inspectJson, isPlainObject, parseIsoDateOrTime, stringMember, unknownMember } from '@arbiter/input';
import { AppError } from '@arbiter/http';
import {
  isParametersFactName,
  PROTOTYPE_MEMBER,
  reservedParameterMember,
  reservedValueMember,
  type Fact,
  type Scope,
} from '@arbiter/policy';
import type { CheckRequest } from '../models/verdicts';
import { badRequest } from './errors';
import { MAX_VERDICT_TTL_SECONDS, type ScopeFieldSchema } from './tenant-snapshot';
import { LEDGER_CITATION_PREFIX } from './ledger-citation';
import { COMMITMENT_MEMBER } from '@arbiter/sensitive';

type ScopeValue = string | number | boolean;
type ScopeSchema = ReadonlyMap<string, ScopeFieldSchema> | null;

const isScalar = (v: unknown): v is ScopeValue =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

const MAX_FIELD_NAME = 200;
const RESERVED_COMMITMENT = `a member named ${COMMITMENT_MEMBER} is reserved for the commitments the gateway makes in a sensitive value's place; send the value itself`;
const RESERVED_PROTOTYPE = `a member may not be named ${PROTOTYPE_MEMBER}: JavaScript readers, this gateway's and a verifier's, take it for the object's prototype`;
const MAX_ID = 200;

/** docs/verdicts.md "Limits": X-Verdict-TTL is whole seconds, at most 3600. Absent: undefined (tenant default). */
export function parseVerdictTtl(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const raw = Array.isArray(header) ? header.join(',') : header;
  const value = raw.trim();
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > MAX_VERDICT_TTL_SECONDS) {
    throw badRequest('invalid_verdict_ttl', `X-Verdict-TTL must be an integer number of seconds from 1 to ${MAX_VERDICT_TTL_SECONDS}`, {
      header: 'X-Verdict-TTL',
      max: MAX_VERDICT_TTL_SECONDS,
    });
  }
  return Number(value);
}

/** One scope value against its scope_schema entry: invalid_scope_value when it is not acceptable. */
function checkScopeValue(field: string, value: unknown, schema: ScopeFieldSchema | undefined): ScopeValue {
  if (!isScalar(value)) {
    throw badRequest('invalid_scope_value', `Scope field ${field} must be a string, number or boolean`, { field, value });
  }
  if (schema?.type && typeof value !== schema.type) {
    throw badRequest('invalid_scope_value', `Scope field ${field} must be a ${schema.type}`, { field, value, type: schema.type });
  }
  if (schema?.allowed_values && !schema.allowed_values.includes(value)) {
    throw badRequest('invalid_scope_value', `${JSON.stringify(value)} is not an allowed value of scope field ${field}`, {
      field,
      value,
      allowed_values: schema.allowed_values,
    });
  }
  return value;
}

/**
 * Validates a request scope against the tenant scope_schema (docs/verdicts.md "check": every field must be
 * recognised and every value within allowed_values). A tenant without a scope_schema accepts any
 * field (as the registry does for selectors). `unknownCode`: check says invalid_scope_field,
 * resolve unknown_scope_field.
 */
export function validateScope(raw: unknown, schema: ScopeSchema, unknownCode: 'invalid_scope_field' | 'unknown_scope_field'): Scope {
  if (!isPlainObject(raw)) throw badRequest('validation_failed', 'scope must be an object of scope fields', { field: 'scope' });
  const out: Record<string, ScopeValue> = {};
  for (const field of Object.keys(raw)) {
    refusePrototypeScopeField(field, `scope.${field}`);
    const fieldSchema = schema?.get(field);
    if (schema && !fieldSchema) throw unknownScopeField(unknownCode, field, schema);
    out[field] = checkScopeValue(field, raw[field], fieldSchema);
  }
  return out;
}

/** A scope field named `__proto__` would be dropped by every copy of the scope (PROTOTYPE_MEMBER). */
function refusePrototypeScopeField(field: string, named: string): void {
  if (field === PROTOTYPE_MEMBER)
    throw badRequest('validation_failed', `${named}: ${RESERVED_PROTOTYPE}`, { fields: [{ field: named, message: RESERVED_PROTOTYPE }] });
}

function unknownScopeField(code: string, field: string, schema: NonNullable<ScopeSchema>): AppError {
  return badRequest(code, `${field} is not a field of the tenant scope_schema`, { field, known_fields: [...schema.keys()] });
}

const FACT_KEYS = new Set(['value', 'source', 'verification_status', 'confidence', 'as_of', 'payload_path']);

function invalidFact(field: string, why: string): AppError {
  return badRequest('invalid_context_shape', `Context field ${field}: ${why}`, { field });
}

/**
 * A context map of Facts (docs/verdicts.md "Fact"). `value` must be present (JSON null is a real answer: "there is
 * none"); `source` is a non-empty string; the optional members have their documented types, and
 * `payload_path` comes only with a `ledger:` source (whether the citation holds is checked later,
 * services/ledger-citations.service.ts).
 * Anything else is 400 invalid_context_shape naming the field.
 */
export function parseContext(raw: unknown): Record<string, Fact> {
  if (!isPlainObject(raw))
    throw badRequest('invalid_context_shape', 'context must be an object mapping field names to Facts', { field: 'context' });
  const out: Record<string, Fact> = {};
  for (const field of Object.keys(raw)) {
    if (field.length === 0 || field.length > MAX_FIELD_NAME) throw invalidFact(field, `a field name has 1 to ${MAX_FIELD_NAME} characters`);
    // Rules name a parameter by its path alone (`amount`); a Fact named `parameters.amount` would be read only where a
    // rule or override misnames it so, and there stand in for the parameter the operation carries.
    if (field === PROTOTYPE_MEMBER) throw invalidFact(field, RESERVED_PROTOTYPE);
    if (isParametersFactName(field))
      throw invalidFact(field, 'a Fact cannot be named parameters or parameters.<field>: rules read a parameter by its path alone');
    const fact = raw[field];
    if (!isPlainObject(fact)) throw invalidFact(field, 'must be a Fact object {value, source, ...}');
    if (!hasOwn(fact, 'value') || fact.value === undefined) throw invalidFact(field, 'has no value');
    if (typeof fact.source !== 'string' || fact.source.length === 0) throw invalidFact(field, 'source must be a non-empty string');
    const unknown = unknownMember(fact, FACT_KEYS);
    if (unknown !== undefined) throw invalidFact(field, `${unknown} is not a member of a Fact`);
    if (fact.verification_status !== undefined && fact.verification_status !== 'verified' && fact.verification_status !== 'unverified') {
      throw invalidFact(field, 'verification_status must be verified or unverified');
    }
    if (fact.confidence !== undefined && (typeof fact.confidence !== 'number' || !(fact.confidence >= 0 && fact.confidence <= 1))) {
      throw invalidFact(field, 'confidence must be a number from 0.0 to 1.0');
    }
    const asOf = fact.as_of;
    if (asOf !== undefined && parseIsoDateOrTime(asOf) === null) {
      throw invalidFact(field, 'as_of must be an ISO 8601 timestamp');
    }
    if (fact.payload_path !== undefined) {
      // Where a ledger citation's value lies in the cited fact (docs/verdicts.md "Facts the ledger vouches for").
      if (typeof fact.source !== 'string' || !fact.source.startsWith(LEDGER_CITATION_PREFIX))
        throw invalidFact(field, 'payload_path is a member of a ledger citation (source ledger:<fact_id>) only');
      if (
        typeof fact.payload_path !== 'string' ||
        fact.payload_path.length === 0 ||
        fact.payload_path.length > MAX_FIELD_NAME ||
        fact.payload_path.split('.').includes('')
      ) {
        throw invalidFact(field, `payload_path must be a dot path of 1 to ${MAX_FIELD_NAME} characters without empty segments`);
      }
    }
    if (tooDeep(fact.value, 'value') !== null) throw invalidFact(field, `value is nested more than ${MAX_NESTING} levels deep`);
    const reserved = reservedValueMember(fact.value);
    if (reserved !== null)
      throw invalidFact(field, `value: ${reserved[reserved.length - 1] === COMMITMENT_MEMBER ? RESERVED_COMMITMENT : RESERVED_PROTOTYPE}`);
    out[field] = fact as unknown as Fact;
  }
  return out;
}

/** `base` plus the fields of `extra`; a field both hold with different values is a conflict. */
export function mergeScope(base: Scope, extra: Scope, conflictCode: string): Scope {
  let out: Record<string, ScopeValue> | null = null;
  for (const field of Object.keys(extra)) {
    if (hasOwn(base, field)) {
      if (base[field] !== extra[field]) {
        throw new AppError(
          409,
          conflictCode,
          `Scope field ${field} is ${JSON.stringify(base[field])} already; it cannot become ${JSON.stringify(extra[field])}`,
          {
            field,
            value: base[field],
            conflicting_value: extra[field],
          },
        );
      }
      continue;
    }
    (out ??= { ...base })[field] = extra[field];
  }
  return out ?? base;
}

/**
 * Scope fields that arrive as context widen the scope (docs/verdicts.md "resolve"): a Fact keyed
 * `scope.<field>` always names a scope field (unknown_scope_field when the scope_schema lacks it), and a
 * Fact keyed with the bare name of a scope_schema field counts too. Values are held to the schema.
 */
export function scopeFromContext(context: Record<string, Fact>, schema: ScopeSchema): Scope {
  const out: Record<string, ScopeValue> = {};
  for (const key of Object.keys(context)) {
    let field: string;
    if (key.startsWith('scope.')) {
      field = key.slice(6);
      if (!field || (schema && !schema.has(field))) {
        throw badRequest('unknown_scope_field', `${field || key} is not a field of the tenant scope_schema`, { field: key });
      }
    } else if (schema?.has(key)) {
      field = key;
    } else continue;
    refusePrototypeScopeField(field, key);
    const value = checkScopeValue(field, context[key].value, schema?.get(field));
    if (hasOwn(out, field) && out[field] !== value) {
      throw new AppError(409, 'scope_conflict', `Context gives scope field ${field} two values`, { field });
    }
    out[field] = value;
  }
  return out;
}

export interface Correlation {
  conversation_id?: string;
  agent_run_id?: string;
}

interface ResolveCommon {
  context: Record<string, Fact>;
  /** docs/verdicts.md "Explanations": the complete answer carries `explanation` only when true. */
  explain: boolean;
  on_behalf_of?: string;
  resolve_session_id?: string;
  correlation?: Correlation;
}

export interface DetailedResolve extends ResolveCommon {
  variant: 'detailed';
  action: string;
  resource: string;
  scope: Record<string, unknown>;
}

export interface OverviewResolve extends ResolveCommon {
  variant: 'overview';
  action_type: string;
}

export type ParsedResolve = DetailedResolve | OverviewResolve;

const DETAILED_KEYS = new Set(['action', 'resource', 'scope', 'context', 'on_behalf_of', 'resolve_session_id', 'correlation', 'explain']);
const OVERVIEW_KEYS = new Set(['action_type', 'context', 'correlation', 'resolve_session_id', 'on_behalf_of', 'explain']);

function text(body: Record<string, unknown>, key: string, max: number, required: boolean): string | undefined {
  return stringMember(body, key, max, required, (problem) =>
    badRequest('validation_failed', `${key} must be a string of 1 to ${max} characters`, {
      fields: [{ field: key, message: problem === 'missing' ? `'${key}' is required` : 'invalid string' }],
    }),
  );
}

/**
 * `explain` (docs/verdicts.md "Explanations"): a JSON boolean or nothing. `"true"`, `1` or null are
 * refused rather than read as a wish: a caller that asked in a form it thinks works would otherwise
 * get no explanation without knowing why.
 */
function parseExplain(raw: Record<string, unknown>): boolean {
  const v = raw.explain;
  if (v === undefined || typeof v === 'boolean') return v === true;
  throw badRequest('validation_failed', 'explain must be a boolean', { fields: [{ field: 'explain', message: 'must be a boolean' }] });
}

function parseCorrelation(raw: unknown): Correlation | undefined {
  if (raw === undefined) return undefined;
  if (!isPlainObject(raw))
    throw badRequest('validation_failed', 'correlation must be an object {conversation_id?, agent_run_id?}', { field: 'correlation' });
  const out: Correlation = {};
  for (const key of Object.keys(raw)) {
    if (key !== 'conversation_id' && key !== 'agent_run_id')
      throw badRequest('validation_failed', `correlation.${key} is not a correlation id`, { field: `correlation.${key}` });
    const v = raw[key];
    if (typeof v !== 'string' || v.length > MAX_ID)
      throw badRequest('validation_failed', `correlation.${key} must be a string of at most ${MAX_ID} characters`, {
        field: `correlation.${key}`,
      });
    out[key] = v;
  }
  return out;
}

const CHECK_KEYS = new Set(['action', 'resource', 'scope', 'parameters', 'on_behalf_of', 'context', 'explain']);

/**
 * The check body (docs/verdicts.md "check"; the OpenAPI CheckRequest): action, resource and scope required,
 * parameters, on_behalf_of, context and explain optional, nothing else. Scope values are held to the
 * tenant's scope_schema later (validateScope); a non-object scope or parameters is validation_failed.
 */
/**
 * Deepest nesting of arrays and objects accepted in parameters and Fact values. The approval events
 * that carry an operation's parameters to the registry must stay within its own limit (64 levels),
 * and nothing an agent decides on needs more.
 */
export const MAX_NESTING = 32;

/**
 * The path of the first value nested deeper than `limit` levels below `value` (the storable-JSON
 * guard's walker, with a tighter bound), or null. Strings were held to the guard before this runs.
 */
export function tooDeep(value: unknown, root: string, limit = MAX_NESTING): string | null {
  const found = inspectJson(value, limit).depth;
  return found ? bracketPath([root, ...found.path]) : null;
}

function refuseTooDeep(value: unknown, root: string): void {
  const at = tooDeep(value, root);
  if (at !== null)
    throw badRequest('validation_failed', `${root} is nested more than ${MAX_NESTING} levels deep (at ${at.slice(0, 200)})`, {
      fields: [{ field: root, message: `nested more than ${MAX_NESTING} levels` }],
    });
}

/**
 * Rules name a parameter by its dot path (docs/verdicts.md "Parameters and context"), so a member whose
 * name holds a dot, at any depth, is a value no rule reads (`transfer.amount` reads transfer → amount)
 * while the executor may read it: the rules would judge another value, or a Fact at that path would stand
 * for it. Such parameters are refused rather than read one way or the other. So are members named
 * `$commit` (refuseCommitments) and `__proto__` (PROTOTYPE_MEMBER), in the same pass.
 */
function refuseReservedMemberNames(parameters: Record<string, unknown>): void {
  const at = reservedParameterMember(parameters);
  if (at === null) return;
  if (at[at.length - 1] === COMMITMENT_MEMBER) refuseCommitment(['parameters', ...at]);
  const field = bracketPath(['parameters', ...at], { maxName: MAX_FIELD_NAME });
  if (at[at.length - 1] === PROTOTYPE_MEMBER)
    throw badRequest('validation_failed', `${field}: ${RESERVED_PROTOTYPE}`, { fields: [{ field, message: RESERVED_PROTOTYPE }] });
  throw badRequest('validation_failed', `${field}: rules address parameters by dot paths, a member name may not contain one`, {
    fields: [{ field, message: 'a member name may not contain a dot' }],
  });
}

/**
 * A record holds `{"$commit": "hmac-sha256:…"}` where a sensitive value was (docs/verdicts.md "Sensitive fields"),
 * and readers (the console, the SDK's checks) show such a member as a sensitive value. Only the gateway makes
 * commitments, so a request carrying a member named `$commit` anywhere in its parameters or Fact values is refused:
 * otherwise an agent could store a value that an approver is shown as hidden. In a Fact's value it is
 * invalid_context_shape, like any other fault of a Fact.
 */
function refuseCommitment(at: (string | number)[]): never {
  const field = bracketPath(at, { maxName: MAX_FIELD_NAME });
  throw badRequest('validation_failed', `${field}: ${RESERVED_COMMITMENT}`, { fields: [{ field, message: RESERVED_COMMITMENT }] });
}

export function parseCheckBody(raw: unknown): CheckRequest {
  if (!isPlainObject(raw)) throw badRequest('validation_failed', 'The body must be a JSON object');
  const unknown = unknownMember(raw, CHECK_KEYS);
  if (unknown !== undefined)
    throw badRequest('validation_failed', `${unknown} is not a field of the check body`, {
      fields: [{ field: unknown, message: 'not allowed' }],
    });
  const action = text(raw, 'action', 500, true)!;
  const resource = text(raw, 'resource', 2000, true)!;
  if (!isPlainObject(raw.scope)) {
    throw badRequest('validation_failed', "'scope' is required: an object of scope fields", {
      fields: [{ field: 'scope', message: raw.scope === undefined ? "'scope' is required" : 'must be an object' }],
    });
  }
  if (raw.parameters !== undefined && !isPlainObject(raw.parameters)) {
    throw badRequest('validation_failed', 'parameters must be an object', {
      fields: [{ field: 'parameters', message: 'must be an object' }],
    });
  }
  const body: CheckRequest = { action, resource, scope: raw.scope as CheckRequest['scope'] };
  if (raw.parameters !== undefined) {
    refuseTooDeep(raw.parameters, 'parameters');
    refuseReservedMemberNames(raw.parameters);
    body.parameters = raw.parameters as Record<string, unknown>;
  }
  const onBehalfOf = text(raw, 'on_behalf_of', MAX_ID, false);
  if (onBehalfOf !== undefined) body.on_behalf_of = onBehalfOf;
  if (raw.context !== undefined) body.context = parseContext(raw.context) as CheckRequest['context'];
  if (parseExplain(raw)) body.explain = true;
  return body;
}

/**
 * The two resolve bodies (docs/verdicts.md "resolve"), told apart by their fields: `action_type` (overview variant)
 * or `action`/`resource`/`scope` (detailed variant).
 */
export function parseResolveBody(raw: unknown): ParsedResolve {
  if (!isPlainObject(raw)) throw badRequest('validation_failed', 'The body must be a JSON object');
  const overview = hasOwn(raw, 'action_type');
  const allowed = overview ? OVERVIEW_KEYS : DETAILED_KEYS;
  const unknown = unknownMember(raw, allowed);
  if (unknown !== undefined) {
    throw badRequest(
      'validation_failed',
      `${unknown} is not a field of the ${overview ? 'overview (action_type)' : 'detailed (action, resource, scope)'} resolve body`,
      { field: unknown },
    );
  }
  if (raw.context === undefined)
    throw badRequest('validation_failed', "'context' is required (an empty object is fine)", { field: 'context' });
  const common: ResolveCommon = {
    context: parseContext(raw.context),
    on_behalf_of: text(raw, 'on_behalf_of', MAX_ID, false),
    resolve_session_id: text(raw, 'resolve_session_id', MAX_ID, false),
    correlation: parseCorrelation(raw.correlation),
    explain: parseExplain(raw),
  };
  if (overview) return { variant: 'overview', action_type: text(raw, 'action_type', 500, true)!, ...common };
  if (!isPlainObject(raw.scope))
    throw badRequest('validation_failed', "'scope' is required: an object of scope fields", { field: 'scope' });
  // The OpenAPI shape (ScopeFields) takes scalars only; which fields and values the tenant accepts is
  // validateScope's, once the snapshot is known.
  for (const field of Object.keys(raw.scope)) {
    refusePrototypeScopeField(field, `scope.${field}`);
    if (!isScalar(raw.scope[field])) {
      throw badRequest('validation_failed', `scope.${field} must be a string, number or boolean`, {
        fields: [{ field: `scope.${field}`, message: 'must be a string, number or boolean' }],
      });
    }
  }
  return {
    variant: 'detailed',
    action: text(raw, 'action', 500, true)!,
    resource: text(raw, 'resource', 2000, true)!,
    scope: raw.scope,
    ...common,
  };
}
