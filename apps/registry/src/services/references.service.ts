import type { AuthenticatedIdentity } from '@arbiter/auth';
import { newId } from '@arbiter/db';
import { notFound, unprocessable } from '../domain/errors';
import type { CreateReferenceBody, Reference, ReferenceStatus } from '../models/links';
import type { Page } from '../models/identity';
import { presentReference } from '../presenters/registry';
import { readPage, toPage, type PageQuery } from '../domain/pagination';
import { authorOf, type ScopeAccess } from './scope-access.service';
import type { ChangeWriter, Repos } from './changes.service';

/** References: how an entry was used in an external context (docs/registry.md "References and links"). */
export class ReferencesService {
  constructor(
    private readonly repos: Repos,
    private readonly writer: ChangeWriter,
    private readonly access: ScopeAccess,
  ) {}

  async create(caller: AuthenticatedIdentity, scopeId: string, body: CreateReferenceBody): Promise<Reference> {
    const scope = await this.access.scope(caller, scopeId);
    // docs/registry.md "Errors": a diverged reference without a reason is invalid; it is the "missing field" status.
    if (body.status === 'diverged' && !body.reason?.trim()) throw unprocessable('reason is required when status is diverged');
    const entry = await this.repos.entries.findEntryScope(caller.tenant_id, body.entry_id);
    if (!entry || entry.scope_id !== scope.id) throw notFound('Entry', `${body.entry_id} of scope ${scope.id}`);
    return this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
      const row = await r.references.create(caller.tenant_id, {
        id: newId('ref-'),
        scope_id: scope.id,
        entry_id: entry.id,
        entry_type: entry.type,
        context_type: body.context_type,
        context_ref: body.context_ref,
        status: body.status,
        reason: body.reason ?? null,
        ...authorOf(caller, body),
        created_by: caller.principal.id,
      });
      const reference = presentReference(row);
      emit({
        type: 'reference.created',
        scope_id: scope.id,
        scope_ids: [scope.id],
        entity_type: 'reference',
        entity_id: row.id,
        data: reference,
      });
      return reference;
    });
  }

  async list(
    caller: AuthenticatedIdentity,
    scopeId: string,
    q: PageQuery & { entry_id?: string; status?: ReferenceStatus },
  ): Promise<Page<Reference>> {
    const scope = await this.access.scope(caller, scopeId);
    const { limit, after } = readPage(q);
    const rows = await this.repos.references.list(
      caller.tenant_id,
      { scope_id: scope.id, entry_id: q.entry_id, status: q.status },
      null,
      limit,
      after,
    );
    return toPage(rows, limit, presentReference);
  }

  /** GET /references?entry_id= or ?context_ref=, across the scopes the key may read. */
  async find(caller: AuthenticatedIdentity, q: PageQuery & { entry_id?: string; context_ref?: string }): Promise<Page<Reference>> {
    if (!q.entry_id && !q.context_ref) throw unprocessable('entry_id or context_ref is required');
    const { limit, after } = readPage(q);
    const rows = await this.repos.references.list(
      caller.tenant_id,
      { entry_id: q.entry_id, context_ref: q.context_ref },
      this.access.only(caller),
      limit,
      after,
    );
    return toPage(rows, limit, presentReference);
  }
}
