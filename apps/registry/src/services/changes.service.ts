import type { TenantId } from '@arbiter/auth';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { PrismaClient } from '../generated/prisma/client';
import { OutboxNudger } from '@arbiter/queue';
import { ScopesRepository } from '../repositories/scopes.repository';
import { EntriesRepository } from '../repositories/entries.repository';
import { RulesRepository } from '../repositories/rules.repository';
import { OverridesRepository } from '../repositories/overrides.repository';
import { LinksRepository } from '../repositories/links.repository';
import { ReferencesRepository } from '../repositories/references.repository';
import { EventsRepository, type EventRow, type NewEvent } from '../repositories/events.repository';
import { OutboxRepository } from '../repositories/outbox.repository';
import { ApprovalsRepository } from '../repositories/approvals.repository';
import { SealOutboxRepository } from '../repositories/seal-outbox.repository';
import type { Db } from '../repositories/db';
import { REGISTRY_CHANGED_CHANNEL, type RegistryChangeMessage } from '@arbiter/internal-api';

/** Every repository, bound to one client or transaction. */
export interface Repos {
  scopes: ScopesRepository;
  entries: EntriesRepository;
  rules: RulesRepository;
  overrides: OverridesRepository;
  references: ReferencesRepository;
  links: LinksRepository;
  events: EventsRepository;
  outbox: OutboxRepository;
  approvals: ApprovalsRepository;
  seals: SealOutboxRepository;
}

export function repositories(db: Db): Repos {
  return {
    scopes: new ScopesRepository(db),
    entries: new EntriesRepository(db),
    rules: new RulesRepository(db),
    overrides: new OverridesRepository(db),
    references: new ReferencesRepository(db),
    links: new LinksRepository(db),
    events: new EventsRepository(db),
    outbox: new OutboxRepository(db),
    approvals: new ApprovalsRepository(db),
    seals: new SealOutboxRepository(db),
  };
}

export { REGISTRY_CHANGED_CHANNEL, type RegistryChangeMessage };

/** Called inside a write's transaction with the events it appended. */
export type EventRouter = (tx: Db, tenantId: TenantId, events: EventRow[]) => Promise<void>;

const TX_OPTIONS = { maxWait: 10_000, timeout: 30_000 };

/**
 * Runs a registry write as one transaction: it takes the tenant's write lock first, lets the
 * work emit events, appends them and their outbox rows in the same transaction (README.md
 * "Architecture"; ADR 0005: a committed change always has its notifications queued, a rolled
 * back one never), and after the commit announces the change on Redis. A lost announcement only
 * delays a gateway refresh (it also polls the state hash), so publishing never fails the write;
 * Redis being down delays webhooks (the worker relays the outbox later) and loses nothing. The same
 * commit nudges the worker's relays (the outbox and any seal_outbox row it wrote), so they run at
 * once rather than at their fallback poll.
 */
export class ChangeWriter {
  private readonly nudger: OutboxNudger;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly redis: Redis,
    private readonly logger: Logger,
    /** Writes what the events make due in the same transaction (approval notifications, docs/approvals.md "Notifications"). */
    private readonly route: EventRouter = async () => undefined,
  ) {
    this.nudger = new OutboxNudger(redis, 'registry');
  }

  async write<T>(
    tenantId: TenantId,
    actorId: string | null,
    work: (repos: Repos, emit: (event: NewEvent) => void) => Promise<T>,
  ): Promise<T> {
    return (await this.writeWithEvents(tenantId, actorId, work)).result;
  }

  /** As write, answering also the events the work emitted, as appended (in the order emitted). */
  async writeWithEvents<T>(
    tenantId: TenantId,
    actorId: string | null,
    work: (repos: Repos, emit: (event: NewEvent) => void) => Promise<T>,
  ): Promise<{ result: T; events: EventRow[] }> {
    const { result, revision, events } = await this.prisma.$transaction(async (tx) => {
      const repos = repositories(tx);
      const revision = await repos.events.lockHead(tenantId);
      const pending: NewEvent[] = [];
      const result = await work(repos, (e) => pending.push(e));
      const events: EventRow[] = [];
      for (const e of pending) events.push(await repos.events.append(tenantId, actorId, e));
      await repos.outbox.add(tenantId, events);
      if (events.length) await this.route(tx, tenantId, events);
      return { result, revision, events };
    }, TX_OPTIONS);
    if (events.length) {
      this.nudger.nudge();
      await this.publish({
        tenant_id: tenantId,
        revision: Number(revision),
        event_ids: events.map((e) => e.id),
        types: events.map((e) => e.type),
        scope_ids: [...new Set(events.flatMap((e) => e.scope_ids))],
      });
    }
    return { result, events };
  }

  /**
   * A change outside the registry's entries that alters the gateway's state (a principal's roles,
   * the tenant's settings): bump the revision after the change committed, then announce it.
   */
  async touch(tenantId: TenantId, type: string): Promise<void> {
    try {
      const revision = await this.prisma.$transaction((tx) => new EventsRepository(tx).lockHead(tenantId), TX_OPTIONS);
      await this.publish({ tenant_id: tenantId, revision: Number(revision), event_ids: [], types: [type], scope_ids: [] });
    } catch (err) {
      this.logger.error({ err, tenant_id: tenantId }, 'could not bump the tenant revision');
    }
  }

  private async publish(message: RegistryChangeMessage): Promise<void> {
    try {
      await this.redis.publish(REGISTRY_CHANGED_CHANNEL, JSON.stringify(message));
    } catch (err) {
      this.logger.warn({ err, tenant_id: message.tenant_id }, 'could not publish registry change');
    }
  }
}
