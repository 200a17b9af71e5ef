import type { TenantId } from '@arbiter/auth';
import { newId } from '@arbiter/db';
import { notFound } from '../domain/errors';
import type { RegistryEvent } from '../models/events';
import type { IdentityRepository } from '../repositories/identity.repository';
import { presentEvent } from '../presenters/registry';
import type { ChangeWriter, Repos } from './changes.service';

/** An event another service asks the registry to record and notify (internal endpoint). */
export interface ForeignEvent {
  source: 'verdict';
  type: string;
  entity_type: string;
  entity_id: string;
  /** Registry scopes the event concerns (e.g. the scopes of an approval's triggering rules); may be empty. */
  scope_ids: string[];
  /** Principal that caused it, if any. */
  actor_id: string | null;
  data: object;
  /** Makes the call safe to retry: the same key answers the event already written. */
  idempotency_key: string | null;
}

/**
 * Records events of other services in the registry's feed and outbox (docs/webhooks.md
 * "Events from the verdict service"): the verdict gateway's approvals reach their
 * deciders through the same tenant webhooks, signatures and retries as the registry's own events.
 */
export class TenantEventsService {
  constructor(
    private readonly repos: Repos,
    private readonly identity: IdentityRepository,
    private readonly writer: ChangeWriter,
  ) {}

  async record(tenantId: TenantId, input: ForeignEvent): Promise<{ event: RegistryEvent; created: boolean }> {
    if (!(await this.identity.findTenant(tenantId))) throw notFound('Tenant', tenantId);
    const scopeIds = [...new Set(input.scope_ids)];
    for (const id of scopeIds) if (!(await this.repos.scopes.find(tenantId, id))) throw notFound('Scope', id);
    const key = input.idempotency_key ?? newId('auto-');
    // The event a replay names is read once, under the tenant's write lock; a new one is answered as appended.
    const { result: earlier, events } = await this.writer.writeWithEvents(tenantId, input.actor_id, async (r, emit) => {
      const found = await r.events.findByIdempotencyKey(tenantId, key);
      if (found) return found;
      emit({
        type: input.type,
        scope_id: scopeIds[0] ?? null,
        scope_ids: scopeIds,
        entity_type: input.entity_type,
        entity_id: input.entity_id,
        data: input.data,
        source: input.source,
        idempotency_key: key,
      });
      return null;
    });
    return earlier ? { event: presentEvent(earlier), created: false } : { event: presentEvent(events[0]), created: true };
  }
}
