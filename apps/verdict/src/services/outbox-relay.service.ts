import type { Logger } from 'pino';
import type { ApprovalTriggerModel } from '../models/approvals';
import type { ApprovalRepository, OutboxRow } from '../repositories/approvals.repository';
import { RegistryRejectedError, type ForeignEventBody, type RegistryInternalClient } from '@arbiter/internal-api';

export interface OutboxRelayOptions {
  /** Pause between passes with nothing due. */
  intervalMs?: number;
  batchSize?: number;
  /** First retry delay after a failure; doubles per attempt up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/** Retry delay after `attempts` failures: base × 2^(attempts−1), capped. Pure. */
export function relayDelayMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
}

/**
 * Relays the approval outbox to the registry's internal events endpoint (docs/webhooks.md "Events
 * from the verdict service"), which records them in its feed and webhook outbox. A committed
 * approval change always reaches the registry: rows stay until it answers 200/201 (the
 * idempotency key makes a repeated post harmless), retried with backoff while it is down. Rows are
 * claimed with FOR UPDATE SKIP LOCKED, so several replicas relay disjoint rows; rows go oldest
 * first, an approval's later event waits for its earlier one (`requested` before `resolved`), and an
 * unreachable registry ends the pass.
 */
export class ApprovalOutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  /** Rule versions are immutable: their scope never changes. */
  private readonly scopeOf = new Map<string, string | null>();
  private readonly o: Required<OutboxRelayOptions>;

  constructor(
    private readonly repo: ApprovalRepository,
    private readonly registry: RegistryInternalClient,
    private readonly logger: Logger,
    opts: OutboxRelayOptions = {},
  ) {
    this.o = { intervalMs: 500, batchSize: 50, baseDelayMs: 1_000, maxDelayMs: 60_000, ...opts };
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Asks for a pass now (after a commit that wrote an outbox row). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  /** Stops the loop and waits for a pass in progress (shutdown, before the pool closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.pass()
        .catch((err: unknown) => {
          this.logger.warn({ err }, 'approval outbox relay pass failed');
          return 0;
        })
        .then((n) => {
          this.running = null;
          const more = this.again || n === this.o.batchSize;
          this.again = false;
          this.schedule(more ? 0 : this.o.intervalMs);
        });
    }, ms);
    this.timer.unref();
  }

  /** One pass; answers how many rows it relayed. */
  async pass(): Promise<number> {
    return this.repo.transaction(async (tx) => {
      const rows = await this.repo.claimDueAnyTenant(tx, this.o.batchSize);
      let relayed = 0;
      for (const row of rows) {
        try {
          await this.relayOne(row);
        } catch (err) {
          // Refused (4xx): kept for an operator, retried slowly, and the rows behind it go on.
          const refused = err instanceof RegistryRejectedError;
          const delay = refused ? this.o.maxDelayMs : relayDelayMs(row.attempts + 1, this.o.baseDelayMs, this.o.maxDelayMs);
          this.logger[refused ? 'error' : 'warn'](
            { err, idempotency_key: row.idempotency_key, attempts: row.attempts + 1, retry_in_ms: delay },
            'approval event not relayed; will retry',
          );
          await this.repo.rescheduleOutbox(tx, row.id, delay, (err as Error).message ?? String(err));
          if (refused) continue;
          break;
        }
        await this.repo.deleteOutbox(tx, row.id);
        relayed++;
      }
      return relayed;
    });
  }

  private async relayOne(row: OutboxRow): Promise<void> {
    const triggers = ((row.event.data as { triggers?: ApprovalTriggerModel[] }).triggers ?? []).slice(0, 100);
    const scopeIds = new Set<string>();
    for (const t of triggers) {
      let scope = this.scopeOf.get(t.rule_version_id);
      if (scope === undefined) {
        scope = (await this.registry.ruleVersion(t.rule_version_id, row.tenant_id))?.scope_id ?? null;
        if (this.scopeOf.size > 10_000) this.scopeOf.clear();
        this.scopeOf.set(t.rule_version_id, scope);
      }
      if (scope) scopeIds.add(scope);
    }
    const data = row.event.data as ForeignEventBody['data']; // a JSON object (the approval as the verdict contract (docs/verdicts.md) shows it)
    await this.registry.recordEvent(row.tenant_id, {
      ...row.event,
      data,
      scope_ids: [...scopeIds].sort(),
      idempotency_key: row.idempotency_key,
    });
  }
}
