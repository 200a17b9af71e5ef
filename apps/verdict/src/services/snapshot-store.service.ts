import type { Logger } from 'pino';
import { AppError } from '@arbiter/http';
import type { AuthenticatedIdentity } from '@arbiter/auth';
import { policyUnavailable, principalDeactivated, registryUnavailable, tenantNotFound } from '../domain/errors';
import { ownTenant } from '../domain/tenant-access';
import { RegistryUnavailableError, type RegistryChangeMessage, type RegistryInternalClient, type TenantState } from '@arbiter/internal-api';
import { buildSnapshot, SnapshotBuildError, type TenantSnapshot } from '../domain/tenant-snapshot';
import { untraced } from '@arbiter/telemetry';

export interface SnapshotStoreOptions {
  /** Interval of the state-hash poll of recently used tenants (the fallback behind pub/sub). */
  pollMs: number;
  /** A tenant unused this long is dropped from memory and no longer polled. */
  idleMs: number;
  /** A snapshot the registry has not confirmed for this long is not served. */
  maxStaleMs: number;
  logger: Logger;
  now?: () => number;
  /**
   * Of the state's approval grants, those no approval recorded here stands behind (ApprovalRepository
   * .grantsWithoutApproval): they lift nothing (docs/approvals.md "Grants"). Without it every grant counts.
   */
  grantsWithoutApproval?: (tenantId: string, grants: readonly { id: string; approval_id: string }[]) => Promise<Set<string>>;
}

interface Entry {
  snapshot: TenantSnapshot | null;
  /** When the registry last confirmed that `snapshot` is its current state. */
  verifiedAt: number;
  lastUsed: number;
  refreshing: Promise<TenantSnapshot> | null;
  /** A change was announced while a refresh was running: fetch once more when it ends. */
  again: boolean;
  /** When the registry's current state last failed to compile (then `snapshot` is not served); null when it compiles. */
  brokenAt: number | null;
  /**
   * Grant overrides of the state left out of `snapshot` because no approval here stands behind them yet: while any is,
   * every poll fetches the state again, so a decision recorded by another replica counts within `pollMs`.
   */
  heldBack: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

const sameIds = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((id) => b.has(id));

class TenantMissing extends Error {}

/**
 * Per-tenant snapshots of the registry's evaluable state (README.md "Architecture"). A check on a fresh
 * snapshot is answered from memory, without any network call; snapshots are refreshed when the
 * registry announces a change on Redis (`onChange`), and a state-hash poll of the tenants used in
 * the last `idleMs` catches announcements lost while Redis was away. A snapshot that cannot be
 * confirmed for `maxStaleMs` (registry down) stops being served: the gateway fails closed. So does one the registry
 * says is no longer its state when the new state does not compile: from then on, checks answer 503 until it does
 * (a new state is fetched at most once per `pollMs` meanwhile).
 */
export class SnapshotStore {
  private readonly entries = new Map<string, Entry>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private readonly now: () => number;

  constructor(
    private readonly registry: RegistryInternalClient,
    private readonly opts: SnapshotStoreOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), this.opts.pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The tenant's snapshot when it is in memory and fresh: the hot path, no I/O. */
  current(tenantId: string): TenantSnapshot | undefined {
    const entry = this.entries.get(tenantId);
    if (!entry?.snapshot || entry.brokenAt !== null) return undefined;
    const now = this.now();
    if (now - entry.verifiedAt > this.opts.maxStaleMs) return undefined;
    entry.lastUsed = now;
    return entry.snapshot;
  }

  /**
   * The snapshot of the tenant a caller names in its path (its own: 403 cross_tenant_forbidden
   * otherwise), for check, resolve and simulations. The registry's state is fresher than the 30 s key
   * cache when it announced a deactivation: a caller it lists as inactive is 403 principal_deactivated.
   */
  async forCaller(identity: AuthenticatedIdentity, tenantParam: string): Promise<TenantSnapshot> {
    const tenantId = ownTenant(identity, tenantParam);
    const snapshot = this.current(tenantId) ?? (await this.get(tenantId));
    const self = snapshot.principals.get(identity.principal.id);
    if (self && !self.active) throw principalDeactivated();
    return snapshot;
  }

  /** The tenant's snapshot, loading it from the registry on first use (or when stale). */
  async get(tenantId: string): Promise<TenantSnapshot> {
    const fresh = this.current(tenantId);
    if (fresh) return fresh;
    let entry = this.entries.get(tenantId);
    if (!entry) {
      entry = { snapshot: null, verifiedAt: 0, lastUsed: this.now(), refreshing: null, again: false, brokenAt: null, heldBack: NONE };
      this.entries.set(tenantId, entry);
    }
    entry.lastUsed = this.now();
    // A state that did not compile is fetched again by the poll and by announcements; a check asks at most once a poll.
    if (entry.brokenAt !== null && this.now() - entry.brokenAt < this.opts.pollMs && !entry.refreshing) {
      throw policyUnavailable("the tenant's current rules and settings cannot be compiled; see the gateway's log");
    }
    try {
      return await this.refresh(tenantId, entry);
    } catch (err) {
      if (!entry.snapshot && entry.brokenAt === null) this.entries.delete(tenantId);
      throw this.toAppError(tenantId, err);
    }
  }

  /** A registry change announcement (Redis channel arbiter:registry:changed). */
  onChange(message: Pick<RegistryChangeMessage, 'tenant_id' | 'revision'>): void {
    const entry = this.entries.get(message.tenant_id);
    if (!entry) return; // not in memory: loaded fresh on first use anyway
    if (entry.snapshot && typeof message.revision === 'number' && message.revision <= entry.snapshot.revision && !entry.refreshing) return;
    this.refresh(message.tenant_id, entry).catch((err) => this.logRefreshFailure(message.tenant_id, err));
  }

  /** After a Redis reconnect announcements may have been missed: refresh everything held. */
  refreshAll(): void {
    for (const [tenantId, entry] of this.entries) {
      this.refresh(tenantId, entry).catch((err) => this.logRefreshFailure(tenantId, err));
    }
  }

  /** Drops a tenant's snapshot (tests, operators). */
  forget(tenantId: string): void {
    this.entries.delete(tenantId);
  }

  /** Tenants held in memory. */
  get size(): number {
    return this.entries.size;
  }

  /** One poll round: confirm or refresh each recently used tenant, drop the idle ones. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const now = this.now();
      const work: Promise<void>[] = [];
      for (const [tenantId, entry] of this.entries) {
        if (now - entry.lastUsed > this.opts.idleMs) {
          this.entries.delete(tenantId);
          continue;
        }
        if (entry.refreshing || !entry.snapshot) continue;
        // The background poll is not traced (docs/operations.md "Tracing"); a check's own fetch is.
        work.push(untraced(() => this.confirm(tenantId, entry)));
      }
      await Promise.all(work);
    } finally {
      this.polling = false;
    }
  }

  private async confirm(tenantId: string, entry: Entry): Promise<void> {
    const started = this.now();
    try {
      const hash = await this.registry.stateHash(tenantId);
      if (!hash) {
        this.entries.delete(tenantId); // the tenant is gone
        return;
      }
      const snapshot = entry.snapshot;
      if (snapshot && hash.state_hash === snapshot.stateHash && hash.revision <= snapshot.revision && entry.heldBack.size === 0) {
        entry.verifiedAt = Math.max(entry.verifiedAt, started);
        entry.brokenAt = null; // the registry is back at the state of the snapshot held
        return;
      }
      await this.refresh(tenantId, entry);
    } catch (err) {
      this.logRefreshFailure(tenantId, err);
    }
  }

  /** Fetches the state until no change was announced during the fetch; one fetch at a time per tenant. */
  private refresh(tenantId: string, entry: Entry): Promise<TenantSnapshot> {
    if (entry.refreshing) {
      entry.again = true;
      return entry.refreshing;
    }
    const run = async (): Promise<TenantSnapshot> => {
      let snapshot: TenantSnapshot;
      do {
        entry.again = false;
        const started = this.now();
        const state = await this.registry.state(tenantId);
        if (!state) {
          this.entries.delete(tenantId);
          throw new TenantMissing(tenantId);
        }
        const heldBack = await this.grantsHeldBack(tenantId, state);
        const previous = entry.snapshot;
        if (previous && previous.stateHash === state.state_hash && sameIds(heldBack, entry.heldBack)) {
          // Same content (e.g. a decision moved the revision): keep the compiled policy.
          snapshot = previous.revision === state.revision ? previous : { ...previous, revision: state.revision };
        } else {
          try {
            snapshot = buildSnapshot(
              heldBack.size === 0 ? state : { ...state, overrides: state.overrides.filter((o) => !heldBack.has(o.id)) },
            );
          } catch (err) {
            // Fail closed at once: the previous snapshot is known not to be the tenant's policy any more.
            if (err instanceof SnapshotBuildError) entry.brokenAt = this.now();
            throw err;
          }
          this.opts.logger.debug({ tenant_id: tenantId, revision: state.revision, rules: state.rules.length }, 'tenant snapshot loaded');
        }
        entry.snapshot = snapshot;
        entry.heldBack = heldBack;
        entry.verifiedAt = started;
        entry.brokenAt = null;
      } while (entry.again);
      return snapshot;
    };
    const pending = run().finally(() => {
      entry.refreshing = null;
    });
    entry.refreshing = pending;
    return pending;
  }

  /**
   * The state's approval grants no approval here stands behind (docs/approvals.md "Grants"): the registry made the
   * override, but the decision that asked for it was not recorded (its answer was lost, then the approval was
   * rejected, expired or is still pending). They are left out of the policy: a grant lifts nothing before its
   * approval is approved here.
   */
  private async grantsHeldBack(tenantId: string, state: Pick<TenantState, 'overrides'>): Promise<ReadonlySet<string>> {
    if (!this.opts.grantsWithoutApproval) return NONE;
    const grants: { id: string; approval_id: string }[] = [];
    for (const o of state.overrides)
      if (o.override_type === 'approval_grant' && o.approval_id) grants.push({ id: o.id, approval_id: o.approval_id });
    if (grants.length === 0) return NONE;
    const held = await this.opts.grantsWithoutApproval(tenantId, grants);
    return held.size === 0 ? NONE : held;
  }

  private toAppError(tenantId: string, err: unknown): unknown {
    if (err instanceof AppError) return err;
    if (err instanceof TenantMissing) return tenantNotFound(tenantId);
    if (err instanceof RegistryUnavailableError) return registryUnavailable();
    if (err instanceof SnapshotBuildError) return policyUnavailable(err.message);
    return err;
  }

  private logRefreshFailure(tenantId: string, err: unknown): void {
    if (err instanceof TenantMissing) return;
    if (err instanceof SnapshotBuildError)
      this.opts.logger.error({ err, tenant_id: tenantId }, "tenant state does not compile; the tenant's checks answer 503 until it does");
    else this.opts.logger.warn({ err, tenant_id: tenantId }, 'tenant snapshot refresh failed; serving the previous one');
  }
}
