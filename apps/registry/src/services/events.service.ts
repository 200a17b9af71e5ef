import type { AuthenticatedIdentity } from '@arbiter/auth';
import { decodeCursor, encodeCursor, parseLimit } from '@arbiter/http';
import { badRequest } from '../domain/errors';
import { withinReach } from '../domain/webhook-events';
import type { RegistryEvent } from '../models/events';
import type { Page } from '../models/identity';
import { eventSeq } from '../repositories/events.repository';
import { presentEvent } from '../presenters/registry';
import type { ScopeAccess } from './scope-access.service';
import type { Repos } from './changes.service';

export interface EventQuery {
  type?: string;
  after?: string;
  cursor?: string;
  limit?: number;
}

/** The event feed of a scope (docs/registry.md "Event feed"): oldest first, resumable with `after`. */
export class EventsService {
  constructor(
    private readonly repos: Repos,
    private readonly access: ScopeAccess,
  ) {}

  async list(caller: AuthenticatedIdentity, scopeId: string, q: EventQuery): Promise<Page<RegistryEvent>> {
    const scope = await this.access.scope(caller, scopeId);
    const limit = parseLimit(q.limit, () => badRequest('limit must be an integer from 1 to 1000'));
    let position = 0n;
    if (q.after !== undefined && q.after !== '') {
      const seq = eventSeq(q.after);
      if (seq === null) throw badRequest('after must be an event id (evt- followed by 16 hex digits)');
      position = seq;
    }
    const pos = decodeCursor<{ s: string }>(q.cursor, () => badRequest('cursor is not valid'));
    if (pos) {
      if (typeof pos.s !== 'string' || !/^[0-9]{1,19}$/.test(pos.s)) throw badRequest('cursor is not valid');
      position = BigInt(pos.s) > position ? BigInt(pos.s) : position;
    }
    const types = q.type
      ? q.type
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : null;
    const rows = await this.repos.events.list(caller.tenant_id, scope.id, position, types?.length ? types : null, limit);
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    // A key restricted to some scopes learns nothing of the others: an event that concerns another scope too (a link
    // to it, an approval with a rule there) is left out, as GET /links and the gateway leave it out. The page may be short.
    const reached = page.filter((e) => withinReach(e.scope_ids, caller.scope_ids));
    return {
      items: reached.map(presentEvent),
      next_cursor: more ? encodeCursor({ s: page[page.length - 1].seq.toString() }) : null,
    };
  }
}
