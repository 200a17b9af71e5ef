import { canAccessScope, type AuthenticatedIdentity } from '@arbiter/auth';
import { notFound } from '../domain/errors';
import type { ScopeRow } from '../repositories/scopes.repository';
import type { Repos } from './changes.service';

/**
 * Scope access of the caller's key (docs/identity.md: `scope_ids`, empty = every scope).
 * A scope the key may not touch answers exactly like a scope that does not exist (404), as
 * another tenant's ids do: a restricted key learns nothing about the scopes outside its list.
 */
export class ScopeAccess {
  constructor(private readonly repos: Repos) {}

  /** The scopes a key is restricted to, or null for every scope of its tenant. */
  only(caller: AuthenticatedIdentity): string[] | null {
    return caller.scope_ids.length ? caller.scope_ids : null;
  }

  can(caller: AuthenticatedIdentity, scopeId: string): boolean {
    return canAccessScope(caller, scopeId);
  }

  async scope(caller: AuthenticatedIdentity, scopeId: string): Promise<ScopeRow> {
    // No id holds U+0000 (PostgreSQL text cannot): one from a body that keeps it names no scope.
    const row =
      canAccessScope(caller, scopeId) && !scopeId.includes('\u0000') ? await this.repos.scopes.find(caller.tenant_id, scopeId) : null;
    if (!row) throw notFound('Scope', scopeId);
    return row;
  }
}

/** Author fields default to the calling principal (its id and kind). */
export function authorOf(
  caller: AuthenticatedIdentity,
  body: { author?: string; author_type?: string },
): { author: string; author_type: string } {
  return { author: body.author ?? caller.principal.id, author_type: body.author_type ?? caller.principal.kind };
}
