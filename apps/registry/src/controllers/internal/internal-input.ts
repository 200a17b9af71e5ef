// The input checks of the internal API. Each runs before tsoa's own validation (a route middleware),
// so a caller gets the registry's `{detail}` answer it always got: a missing field 422, a wrong or
// unknown one 400. The schemas in models/internal.ts accept whatever these checks accept, so tsoa's
// validation after them never refuses a request (it documents the contract; these give the words).
import { mintTenantId, type TenantId } from '@arbiter/auth';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '@arbiter/http';
import { isIntegerIn, isPlainObject, parseIsoInstant, unknownMember } from '@arbiter/input';
import { FOREIGN_EVENT_TYPES } from '../../domain/webhook-events';
import { badRequest, unprocessable } from '../../domain/errors';
import type { ApprovalGrantBody, ForeignEventBody } from '../../models/internal';
import type { GrantRequest } from '../../services/overrides.service';
import type { ForeignEvent } from '../../services/tenant-events.service';

const KEY_HASH = /^[0-9a-f]{64}$/;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const ID = /^[a-z]+-[0-9a-z_.-]{1,100}$/;
const WORD = /^[a-z][a-z_]{0,62}$/;

/** A route middleware running `check` on the raw request; what it throws is the answer. */
export function checked(check: (req: Request) => void): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    check(req);
    next();
  };
}

type Body = Record<string, unknown> | undefined;
const body = (req: Request): Body => req.body as Body;

export function idParam(value: unknown, name: string): string {
  if (typeof value !== 'string' || !ID.test(value)) throw badRequest(`${name} is not a valid id`);
  return value;
}

export const introspectInput = (req: Request): void => {
  const keyHash = body(req)?.key_hash;
  if (typeof keyHash !== 'string' || !KEY_HASH.test(keyHash)) {
    throw new AppError(400, 'bad_request', 'key_hash must be 64 lowercase hex characters');
  }
};

export const slugInput = (req: Request): void => {
  const slug = req.params.slug;
  if (typeof slug !== 'string' || !SLUG.test(slug)) throw badRequest('slug is not valid');
};

export const tenantInput = (req: Request): void => {
  idParam(req.params.tenant_id, 'tenant_id');
};

export const ruleVersionInput = (req: Request): void => {
  const tenant = req.query.tenant_id;
  if (tenant !== undefined && typeof tenant !== 'string') throw badRequest('tenant_id must be a string');
  idParam(req.params.rule_version_id, 'rule_version_id');
};

export const relayInput = (req: Request): void => {
  const limit = body(req)?.limit ?? 100;
  if (!isIntegerIn(limit, 1, 1000)) throw badRequest('limit must be an integer from 1 to 1000');
};

export const releaseInput = (req: Request): void => {
  const ids = body(req)?.delivery_ids;
  if (!Array.isArray(ids) || ids.length > 1000 || !ids.every((id) => typeof id === 'string' && ID.test(id))) {
    throw badRequest('delivery_ids must be an array of at most 1000 delivery ids');
  }
  const notifications = body(req)?.notification_ids;
  if (
    notifications !== undefined &&
    (!Array.isArray(notifications) || notifications.length > 1000 || !notifications.every((id) => typeof id === 'string' && ID.test(id)))
  ) {
    throw badRequest('notification_ids must be an array of at most 1000 notification ids');
  }
};

/** The attempt endpoints of webhook deliveries and approval notifications: the id in `param`, `{attempt}` in the body. */
const attemptOf =
  (param: string) =>
  (req: Request): void => {
    idParam(req.params[param], param);
    const attempt = body(req)?.attempt;
    if (attempt === undefined) throw unprocessable('attempt is required');
    if (!isIntegerIn(attempt, 1, 1000)) throw badRequest('attempt must be an integer from 1 to 1000');
  };

export const attemptInput = attemptOf('delivery_id');
export const notificationAttemptInput = attemptOf('notification_id');

const GRANT_FIELDS = new Set([
  'override_type',
  'target_ids',
  'target_version_ids',
  'applies_to_scope',
  'expires_at',
  'justification',
  'approved_by',
  'approval_id',
  'consultation_id',
]);
const GRANT_TEXT_LIMITS = { justification: 20000, approved_by: 200, approval_id: 200, consultation_id: 200 } as const;

/** The grant body (registry dialect): a missing field is 422, a wrong or unknown one 400. */
export const grantInput = (req: Request): void => {
  idParam(req.params.tenant_id, 'tenant_id');
  const b = objectBody(req.body);
  const unknown = unknownMember(b, GRANT_FIELDS);
  if (unknown) throw badRequest(`${unknown} is not a field of an approval grant`);
  for (const f of ['target_ids', 'applies_to_scope', 'expires_at']) if (b[f] === undefined) throw unprocessable(`${f} is required`);
  if (b.override_type !== undefined && b.override_type !== 'approval_grant') throw badRequest('override_type must be approval_grant');
  const targets = b.target_ids;
  if (!Array.isArray(targets) || targets.length < 1 || targets.length > 100 || !targets.every((t) => typeof t === 'string' && ID.test(t))) {
    throw badRequest('target_ids must be an array of 1 to 100 rule ids');
  }
  const versions = b.target_version_ids;
  if (
    versions !== undefined &&
    versions !== null &&
    (!Array.isArray(versions) ||
      versions.length > 100 ||
      !versions.every((v) => typeof v === 'string' && /^rv-[0-9a-z_.-]{1,100}$/.test(v)))
  ) {
    throw badRequest('target_version_ids must be an array of at most 100 rule version ids (rv-)');
  }
  const scope = b.applies_to_scope;
  if (!isPlainObject(scope) || !Object.values(scope).every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
    throw badRequest('applies_to_scope must be an object of scope fields (string, number or boolean values)');
  }
  if (parseIsoInstant(b.expires_at) === null) throw badRequest('expires_at must be an ISO 8601 timestamp with Z or an offset');
  for (const [f, max] of Object.entries(GRANT_TEXT_LIMITS)) {
    const v = b[f];
    if (v !== undefined && v !== null && (typeof v !== 'string' || v.length > max))
      throw badRequest(`${f} must be a string of at most ${max} characters`);
  }
};

/** A checked grant body as the overrides service takes it. */
export function grantRequest(b: ApprovalGrantBody): GrantRequest {
  return {
    target_ids: b.target_ids,
    target_version_ids: b.target_version_ids ?? undefined,
    applies_to_scope: b.applies_to_scope,
    expires_at: new Date(b.expires_at),
    justification: b.justification ?? undefined,
    approved_by: b.approved_by ?? undefined,
    approval_id: b.approval_id ?? undefined,
    consultation_id: b.consultation_id ?? undefined,
  };
}

const EVENT_FIELDS = new Set(['source', 'type', 'entity_type', 'entity_id', 'scope_ids', 'actor_id', 'data', 'idempotency_key']);

/** An event of another service: a missing field is 422, a wrong or unknown one 400. */
export const foreignEventInput = (req: Request): void => {
  idParam(req.params.tenant_id, 'tenant_id');
  const b = objectBody(req.body);
  const unknown = unknownMember(b, EVENT_FIELDS);
  if (unknown) throw badRequest(`${unknown} is not a field of an event`);
  for (const f of ['type', 'entity_type', 'entity_id', 'data']) if (b[f] === undefined) throw unprocessable(`${f} is required`);
  if ((b.source ?? 'verdict') !== 'verdict') throw badRequest('source must be verdict');
  const allowed: readonly string[] = FOREIGN_EVENT_TYPES.verdict;
  if (typeof b.type !== 'string' || !allowed.includes(b.type)) throw badRequest(`type must be one of ${allowed.join(', ')}`);
  if (typeof b.entity_type !== 'string' || !WORD.test(b.entity_type)) throw badRequest('entity_type must be a lowercase word');
  if (typeof b.entity_id !== 'string' || !ID.test(b.entity_id)) throw badRequest('entity_id must be an id such as apr-…');
  const scopeIds = b.scope_ids ?? [];
  if (!Array.isArray(scopeIds) || scopeIds.length > 100 || !scopeIds.every((s) => typeof s === 'string' && ID.test(s))) {
    throw badRequest('scope_ids must be an array of at most 100 scope ids');
  }
  if (b.actor_id !== undefined && b.actor_id !== null && (typeof b.actor_id !== 'string' || !ID.test(b.actor_id)))
    throw badRequest('actor_id must be a principal id');
  if (!b.data || typeof b.data !== 'object' || Array.isArray(b.data)) throw badRequest('data must be a JSON object');
  const key = b.idempotency_key;
  if (key !== undefined && key !== null && (typeof key !== 'string' || key.length < 1 || key.length > 200))
    throw badRequest('idempotency_key must be a string of 1 to 200 characters');
};

/** A checked event body as the tenant events service takes it. */
export function foreignEvent(b: ForeignEventBody): ForeignEvent {
  return {
    source: 'verdict',
    type: b.type,
    entity_type: b.entity_type,
    entity_id: b.entity_id,
    scope_ids: b.scope_ids ?? [],
    actor_id: b.actor_id ?? null,
    data: b.data,
    idempotency_key: b.idempotency_key ?? null,
  };
}

function objectBody(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) throw badRequest('body must be a JSON object');
  return value;
}

/**
 * A tenant id from an internal path or query, as a TenantId: the internal-token guard in front of
 * /internal/v1 vouches for the caller (a service of this deployment), and tenantInput checked the form.
 */
export function internalTenant(tenantId: string): TenantId {
  return mintTenantId(tenantId);
}
