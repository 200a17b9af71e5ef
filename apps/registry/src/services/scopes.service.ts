import type { AuthenticatedIdentity, TenantId } from '@arbiter/auth';
import { AppError } from '@arbiter/http';
import { isUniqueViolation, newId } from '@arbiter/db';
import { badRequest, conflict, notFound } from '../domain/errors';
import type { CreateScopeBody, Scope, ScopeDetails, UpdateScopeBody } from '../models/scopes';
import type { CreateNamespaceBody, Namespace } from '../models/namespaces';
import type { Page, TenantSettings } from '../models/identity';
import type { ScopeSelector } from '../models/common';
import type { IdentityRepository } from '../repositories/identity.repository';
import { selectorProblems } from '@arbiter/policy';
import { parseNamespacePath } from '../domain/namespace-path';
import { presentNamespace, presentScope } from '../presenters/registry';
import { readPage, toPage, type PageQuery } from '../domain/pagination';
import type { ChangeWriter, Repos } from './changes.service';
import type { ScopeAccess } from './scope-access.service';

/** Scopes (with their selector, docs/verdicts.md) and their namespaces (docs/registry.md "Namespaces"). */
export class ScopesService {
  constructor(
    private readonly repos: Repos,
    private readonly identity: IdentityRepository,
    private readonly writer: ChangeWriter,
    private readonly access: ScopeAccess,
  ) {}

  async create(caller: AuthenticatedIdentity, body: CreateScopeBody): Promise<Scope> {
    // A key limited to some scopes could not reach the scope it made: refuse instead (docs/registry.md).
    if (this.access.only(caller)) throw new AppError(403, 'forbidden', 'A key restricted to some scopes cannot create scopes');
    const selector = body.selector ?? {};
    await this.checkSelector(caller.tenant_id, selector);
    try {
      return await this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
        const row = await r.scopes.create(caller.tenant_id, {
          id: newId('scp-'),
          name: body.name,
          description: body.description ?? null,
          selector,
          created_by: caller.principal.id,
        });
        const scope = presentScope(row);
        emit({ type: 'scope.created', scope_id: row.id, scope_ids: [row.id], entity_type: 'scope', entity_id: row.id, data: scope });
        return scope;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`A scope named ${body.name} already exists`);
      throw err;
    }
  }

  async list(caller: AuthenticatedIdentity, q: PageQuery): Promise<Page<Scope>> {
    const { limit, after } = readPage(q);
    return toPage(await this.repos.scopes.list(caller.tenant_id, limit, after, this.access.only(caller)), limit, presentScope);
  }

  async get(caller: AuthenticatedIdentity, scopeId: string): Promise<ScopeDetails> {
    const row = await this.access.scope(caller, scopeId);
    return { ...presentScope(row), entry_counts: await this.repos.scopes.counts(caller.tenant_id, row.id, new Date()) };
  }

  async update(caller: AuthenticatedIdentity, scopeId: string, body: UpdateScopeBody): Promise<Scope> {
    await this.access.scope(caller, scopeId);
    if (body.selector) await this.checkSelector(caller.tenant_id, body.selector);
    try {
      return await this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
        const row = await r.scopes.update(caller.tenant_id, scopeId, body);
        const scope = presentScope(row);
        emit({ type: 'scope.updated', scope_id: row.id, scope_ids: [row.id], entity_type: 'scope', entity_id: row.id, data: scope });
        return scope;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`A scope named ${body.name} already exists`);
      throw err;
    }
  }

  async tenantSettings(tenantId: TenantId): Promise<TenantSettings> {
    const tenant = await this.identity.findTenant(tenantId);
    if (!tenant) throw notFound('Tenant', tenantId);
    return tenant.settings as TenantSettings;
  }

  async checkSelector(tenantId: TenantId, selector: ScopeSelector, label = 'selector'): Promise<void> {
    const problems = selectorProblems(selector, (await this.tenantSettings(tenantId)).scope_schema, label);
    if (problems.length) throw badRequest(`Invalid ${label}: ${problems.join('; ')}`);
  }

  // --- namespaces ----------------------------------------------------------------------------

  async createNamespace(caller: AuthenticatedIdentity, scopeId: string, body: CreateNamespaceBody): Promise<Namespace> {
    const scope = await this.access.scope(caller, scopeId);
    const parsed = parseNamespacePath(body.path);
    if (!parsed.ok) throw badRequest(parsed.problem);
    try {
      return await this.writer.write(caller.tenant_id, caller.principal.id, async (r, emit) => {
        let parentId: string | null = null;
        if (parsed.parent) {
          const parent = await r.scopes.findNamespace(caller.tenant_id, scope.id, parsed.parent);
          if (!parent) throw notFound('Parent namespace', parsed.parent);
          parentId = parent.id;
        }
        const row = await r.scopes.createNamespace(caller.tenant_id, {
          id: newId('ns-'),
          scope_id: scope.id,
          path: body.path,
          name: parsed.segments[parsed.segments.length - 1],
          parent_id: parentId,
          depth: parsed.segments.length - 1,
          description: body.description ?? null,
          created_by: caller.principal.id,
        });
        const ns = presentNamespace(row);
        emit({
          type: 'namespace.created',
          scope_id: scope.id,
          scope_ids: [scope.id],
          entity_type: 'namespace',
          entity_id: row.id,
          data: ns,
        });
        return ns;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`Namespace ${body.path} already exists in scope ${scope.id}`);
      throw err;
    }
  }

  async listNamespaces(caller: AuthenticatedIdentity, scopeId: string, q: PageQuery): Promise<Page<Namespace>> {
    const scope = await this.access.scope(caller, scopeId);
    const { limit, after } = readPage(q);
    return toPage(await this.repos.scopes.listNamespaces(caller.tenant_id, scope.id, limit, after), limit, presentNamespace);
  }
}
