import type { AuthenticatedIdentity } from '@arbiter/auth';
import { sha256Digest } from '@arbiter/canonical';
import type { ResolvedScope } from '../models/resolve';
import type { ScopeSelector } from '../models/common';
import { presentInvariant, presentOverride, presentRule } from '../presenters/registry';
import type { ScopeAccess } from './scope-access.service';
import type { Repos } from './changes.service';

/**
 * GET /scopes/{scope_id}/resolve (docs/registry.md "Resolve and normative_hash"): the scope's selector, active
 * invariants, active rules with their current version and the overrides in effect now, each list
 * sorted by id, and normative_hash = sha256 of the RFC 8785 canonical JSON of exactly that object
 * (the response without normative_hash). It moves with every change that matters and only then:
 * a new rule version, an archive, a revocation, an override created, revoked or expired (expiry
 * is computed at read time), a new invariant or rule, a selector change.
 */
export class ResolveService {
  constructor(
    private readonly repos: Repos,
    private readonly access: ScopeAccess,
  ) {}

  async resolve(caller: AuthenticatedIdentity, scopeId: string): Promise<ResolvedScope> {
    const scope = await this.access.scope(caller, scopeId);
    const now = new Date();
    const [invariants, rules, overrides] = await Promise.all([
      this.repos.entries.activeInvariants(caller.tenant_id, scope.id),
      this.repos.rules.active(caller.tenant_id, scope.id),
      this.repos.overrides.effective(caller.tenant_id, now, scope.id),
    ]);
    const state = {
      scope_id: scope.id,
      selector: scope.selector as ScopeSelector,
      invariants: invariants.map(presentInvariant),
      rules: rules.map(presentRule),
      overrides: overrides.map((o) => presentOverride(o, now)),
    };
    return { ...state, normative_hash: sha256Digest(state) };
  }
}
