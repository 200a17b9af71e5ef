import { Router, type Request, type Response } from 'express';
import { AppError } from '@arbiter/http';
import { internalTokenGuard, mintTenantId, type TenantId } from '@arbiter/auth';
import type { RegistryContext } from '../context';
import { badRequest, unprocessable } from './errors';
import type { GrantRequest } from '../services/overrides.service';
import type { ForeignEvent } from '../services/tenant-events.service';
import { FOREIGN_EVENT_TYPES } from '../domain/webhook-events';

const KEY_HASH = /^[0-9a-f]{64}$/;
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const ID = /^[a-z]+-[0-9a-z_.-]{1,100}$/;

/**
 * `/internal/v1`: service-to-service endpoints (README.md "Architecture"), reachable only with the
 * shared INTERNAL_TOKEN, never with a tenant API key. Not part of the public OpenAPI document;
 * docs/registry.md describes the contract the verdict gateway builds on.
 */
export function internalRoutes(ctx: RegistryContext): Router {
  const router = Router();
  router.use(internalTokenGuard(ctx.config.INTERNAL_TOKEN, () => new AppError(401, 'unauthorized', 'Missing or invalid internal token')));

  router.post('/introspect', async (req: Request, res: Response) => {
    const keyHash = (req.body as { key_hash?: unknown } | undefined)?.key_hash;
    if (typeof keyHash !== 'string' || !KEY_HASH.test(keyHash)) {
      throw new AppError(400, 'bad_request', 'key_hash must be 64 lowercase hex characters');
    }
    res.json(await ctx.introspection.introspect(keyHash));
  });

  /** A tenant by its slug (the verdict gateway's JWKS endpoint is addressed by slug). */
  router.get('/tenants/by-slug/:slug', async (req: Request, res: Response) => {
    const slug = req.params.slug;
    if (typeof slug !== 'string' || !SLUG.test(slug)) throw badRequest('slug is not valid');
    const tenant = await ctx.identity.tenantBySlug(slug);
    if (!tenant) throw new AppError(404, 'not_found', `Tenant ${slug} not found`);
    res.json(tenant);
  });

  /** A tenant's whole evaluable state with its content hash (cached until it changes). */
  router.get('/tenants/:tenant_id/state', async (req: Request, res: Response) => {
    res.json(await ctx.state.state(tenantParam(req.params.tenant_id)));
  });

  /** The cheap change check: one primary-key read while the cached state is current. */
  router.get('/tenants/:tenant_id/state-hash', async (req: Request, res: Response) => {
    res.json(await ctx.state.stateHash(tenantParam(req.params.tenant_id)));
  });

  /** Any rule version, current or superseded; `?tenant_id=` answers 404 for another tenant's. */
  router.get('/rule-versions/:rule_version_id', async (req: Request, res: Response) => {
    const tenant = req.query.tenant_id;
    if (tenant !== undefined && typeof tenant !== 'string') throw badRequest('tenant_id must be a string');
    res.json(await ctx.state.ruleVersion(idParam(req.params.rule_version_id, 'rule_version_id'), tenant ? mintTenantId(tenant) : undefined));
  });

  /** An approval grant (Document 1): an approval_grant override over the triggering rules. */
  router.post('/tenants/:tenant_id/overrides', async (req: Request, res: Response) => {
    const tenantId = tenantParam(req.params.tenant_id);
    const override = await ctx.overrides.createGrant(tenantId, parseGrant(req.body));
    res.status(201).json(override);
  });

  /**
   * An event of another service (the verdict gateway's Document 1 approvals), recorded in the
   * feed and outbox so it reaches tenant webhooks (docs/webhooks.md). 201 when written, 200 when
   * the idempotency_key was seen before (the stored event is answered).
   */
  router.post('/tenants/:tenant_id/events', async (req: Request, res: Response) => {
    const tenantId = tenantParam(req.params.tenant_id);
    const { event, created } = await ctx.tenantEvents.record(tenantId, parseForeignEvent(req.body));
    res.status(created ? 201 : 200).json(event);
  });

  /** The worker's relay step (ADR 0005): fan the outbox out and lease due deliveries. */
  router.post('/outbox/relay', async (req: Request, res: Response) => {
    const limit = (req.body as { limit?: unknown } | undefined)?.limit ?? 100;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000) throw badRequest('limit must be an integer from 1 to 1000');
    const relayed = await ctx.relay.relay(limit);
    ctx.metrics.outboxRelayed.inc(relayed.fanned_out);
    res.json(relayed);
  });

  /** Deliveries the worker could not enqueue (Redis down): due again at the next relay. */
  router.post('/outbox/release', async (req: Request, res: Response) => {
    const ids = (req.body as { delivery_ids?: unknown } | undefined)?.delivery_ids;
    if (!Array.isArray(ids) || ids.length > 1000 || !ids.every((id) => typeof id === 'string' && ID.test(id))) {
      throw badRequest('delivery_ids must be an array of at most 1000 delivery ids');
    }
    res.json(await ctx.relay.release(ids as string[]));
  });

  /** Runs attempt `attempt` of a delivery (at most once; a repeat is answered `skipped`). */
  router.post('/webhook-deliveries/:delivery_id/attempts', async (req: Request, res: Response) => {
    const deliveryId = idParam(req.params.delivery_id, 'delivery_id');
    const attempt = (req.body as { attempt?: unknown } | undefined)?.attempt;
    if (attempt === undefined) throw unprocessable('attempt is required');
    if (typeof attempt !== 'number' || !Number.isInteger(attempt) || attempt < 1 || attempt > 1000) throw badRequest('attempt must be an integer from 1 to 1000');
    const report = await ctx.deliveries.attempt(deliveryId, attempt);
    ctx.metrics.webhookDeliveries.inc({ outcome: report.outcome });
    res.json(report);
  });

  return router;
}

const EVENT_FIELDS = new Set(['source', 'type', 'entity_type', 'entity_id', 'scope_ids', 'actor_id', 'data', 'idempotency_key']);
const WORD = /^[a-z][a-z_]{0,62}$/;

/** Validates an event of another service: a missing field is 422, a wrong or unknown one 400. */
export function parseForeignEvent(body: unknown): ForeignEvent {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('body must be a JSON object');
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !EVENT_FIELDS.has(k));
  if (unknown) throw badRequest(`${unknown} is not a field of an event`);
  for (const f of ['type', 'entity_type', 'entity_id', 'data']) if (b[f] === undefined) throw unprocessable(`${f} is required`);
  const source = b.source ?? 'verdict';
  if (source !== 'verdict') throw badRequest('source must be verdict');
  const allowed: readonly string[] = FOREIGN_EVENT_TYPES.verdict;
  if (typeof b.type !== 'string' || !allowed.includes(b.type)) throw badRequest(`type must be one of ${allowed.join(', ')}`);
  if (typeof b.entity_type !== 'string' || !WORD.test(b.entity_type)) throw badRequest('entity_type must be a lowercase word');
  if (typeof b.entity_id !== 'string' || !ID.test(b.entity_id)) throw badRequest('entity_id must be an id such as apr-…');
  const scopeIds = b.scope_ids ?? [];
  if (!Array.isArray(scopeIds) || scopeIds.length > 100 || !scopeIds.every((s) => typeof s === 'string' && ID.test(s))) {
    throw badRequest('scope_ids must be an array of at most 100 scope ids');
  }
  if (b.actor_id !== undefined && b.actor_id !== null && (typeof b.actor_id !== 'string' || !ID.test(b.actor_id))) throw badRequest('actor_id must be a principal id');
  if (!b.data || typeof b.data !== 'object' || Array.isArray(b.data)) throw badRequest('data must be a JSON object');
  const key = b.idempotency_key;
  if (key !== undefined && key !== null && (typeof key !== 'string' || key.length < 1 || key.length > 200)) throw badRequest('idempotency_key must be a string of 1 to 200 characters');
  return {
    source: 'verdict',
    type: b.type,
    entity_type: b.entity_type,
    entity_id: b.entity_id,
    scope_ids: scopeIds as string[],
    actor_id: (b.actor_id as string | null | undefined) ?? null,
    data: b.data as object,
    idempotency_key: (key as string | null | undefined) ?? null,
  };
}

function idParam(value: unknown, name: string): string {
  if (typeof value !== 'string' || !ID.test(value)) throw badRequest(`${name} is not a valid id`);
  return value;
}

/** Trust boundary: a tenant id named by a caller that holds the internal token. */
function tenantParam(value: unknown): TenantId {
  return mintTenantId(idParam(value, 'tenant_id'));
}

const GRANT_FIELDS = new Set(['override_type', 'target_ids', 'applies_to_scope', 'expires_at', 'justification', 'approved_by', 'approval_id', 'consultation_id']);

/** Validates the grant body: a missing field is 422, a wrong or unknown one 400 (registry dialect). */
export function parseGrant(body: unknown): GrantRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('body must be a JSON object');
  const b = body as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !GRANT_FIELDS.has(k));
  if (unknown) throw badRequest(`${unknown} is not a field of an approval grant`);
  for (const f of ['target_ids', 'applies_to_scope', 'expires_at']) if (b[f] === undefined) throw unprocessable(`${f} is required`);
  if (b.override_type !== undefined && b.override_type !== 'approval_grant') throw badRequest('override_type must be approval_grant');
  const targets = b.target_ids;
  if (!Array.isArray(targets) || targets.length < 1 || targets.length > 100 || !targets.every((t) => typeof t === 'string' && ID.test(t))) {
    throw badRequest('target_ids must be an array of 1 to 100 rule ids');
  }
  const scope = b.applies_to_scope;
  if (!scope || typeof scope !== 'object' || Array.isArray(scope) || !Object.values(scope).every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
    throw badRequest('applies_to_scope must be an object of scope fields (string, number or boolean values)');
  }
  const expires = typeof b.expires_at === 'string' ? new Date(b.expires_at) : null;
  if (!expires || Number.isNaN(expires.getTime())) throw badRequest('expires_at must be an ISO 8601 timestamp');
  const text = (f: string, max: number): string | undefined => {
    const v = b[f];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' || v.length > max) throw badRequest(`${f} must be a string of at most ${max} characters`);
    return v;
  };
  return {
    target_ids: targets as string[],
    applies_to_scope: scope as GrantRequest['applies_to_scope'],
    expires_at: expires,
    justification: text('justification', 20000),
    approved_by: text('approved_by', 200),
    approval_id: text('approval_id', 200),
    consultation_id: text('consultation_id', 200),
  };
}
