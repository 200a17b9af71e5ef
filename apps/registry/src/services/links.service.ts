import type { AuthenticatedIdentity } from '@arbiter/auth';
import { isUniqueViolation, newId } from '@arbiter/db';
import { badRequest, conflict, notFound } from '../domain/errors';
import type { CreateLinkBody, Link } from '../models/links';
import type { Page } from '../models/identity';
import { presentLink } from '../presenters/registry';
import { readPage, toPage, type PageQuery } from '../domain/pagination';
import type { ScopeAccess } from './scope-access.service';
import type { ChangeWriter, Repos } from './changes.service';

const TYPE_OF_PREFIX: Record<string, 'decision' | 'invariant' | 'rule'> = { 'dec-': 'decision', 'inv-': 'invariant', 'rul-': 'rule' };

function entryTypeOf(id: string) {
  return TYPE_OF_PREFIX[id.slice(0, 4)];
}

/** Links between entries, possibly of different scopes (docs/registry.md "References and links"). */
export class LinksService {
  constructor(
    private readonly repos: Repos,
    private readonly writer: ChangeWriter,
    private readonly access: ScopeAccess,
  ) {}

  async createLink(caller: AuthenticatedIdentity, body: CreateLinkBody): Promise<Link> {
    if (body.from_id === body.to_id) throw badRequest('A link needs two different entries');
    for (const [id, type, end] of [
      [body.from_id, body.from_type, 'from'],
      [body.to_id, body.to_type, 'to'],
    ] as const) {
      if (entryTypeOf(id) !== type) throw badRequest(`${end}_id ${id} is not a ${type} id`);
    }
    const [from, to] = await Promise.all([this.entry(caller, body.from_id), this.entry(caller, body.to_id)]);
    try {
      return await this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
        const row = await r.links.createLink(caller.tenant_id, {
          id: newId('lnk-'),
          from_id: from.id,
          from_type: from.type,
          from_scope_id: from.scope_id,
          to_id: to.id,
          to_type: to.type,
          to_scope_id: to.scope_id,
          relation: body.relation,
          created_by: caller.principal.id,
        });
        const link = presentLink(row);
        const scopeIds = [...new Set([from.scope_id, to.scope_id])];
        emit({ type: 'link.created', scope_id: from.scope_id, scope_ids: scopeIds, entity_type: 'link', entity_id: row.id, data: link });
        return link;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`${body.from_id} already ${body.relation} ${body.to_id}`);
      throw err;
    }
  }

  async listLinks(caller: AuthenticatedIdentity, q: PageQuery & { entity_id: string; relation?: string }): Promise<Page<Link>> {
    const { limit, after } = readPage(q);
    return toPage(
      await this.repos.links.listLinks(caller.tenant_id, q.entity_id, q.relation, this.access.only(caller), limit, after),
      limit,
      presentLink,
    );
  }

  /** Both ends must exist in the caller's tenant, in scopes its key may touch (else 404). */
  private async entry(caller: AuthenticatedIdentity, id: string) {
    const entry = await this.repos.entries.findEntryScope(caller.tenant_id, id);
    if (!entry || !this.access.can(caller, entry.scope_id)) throw notFound('Entry', id);
    return entry;
  }
}
