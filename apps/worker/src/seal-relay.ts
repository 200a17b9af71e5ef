import { ledgerSealJob, ledgerSealJobId, QueueError, type Producer } from '@arbiter/queue';
import type { SealDoneAnswer, SealLease, SealReleaseAnswer } from '@arbiter/internal-api';
import { untraced } from '@arbiter/telemetry';
import type { Logger } from 'pino';
import { FailureLog, PassLoop } from './pass-loop';

/** A service with a seal_outbox on its internal API (the verdict gateway and the registry). */
export interface SealOwner {
  leaseSeals(limit: number, leaseMs: number): Promise<SealLease>;
  sealsDone(ids: string[], signal?: AbortSignal): Promise<SealDoneAnswer>;
  releaseSeals(ids: string[], leasedUntil: string): Promise<SealReleaseAnswer>;
}

export type SealOwnerName = 'verdict' | 'registry';

export interface SealRelayPass {
  /** Rows leased in this pass, per owner. */
  leased: Record<SealOwnerName, number>;
  /** Batch jobs enqueued (at most one per owner and pass). */
  enqueued: number;
  /** Rows handed back because their batch could not be enqueued (Redis down). */
  released: number;
}

/** The traceparents the leased rows were written under, by row id (docs/operations.md "Tracing"). */
function traceLinksOf(lease: SealLease): Record<string, string> | undefined {
  let links: Record<string, string> | undefined;
  for (const item of lease.items) if (item.traceparent) (links ??= {})[item.id] = item.traceparent;
  return links;
}

/**
 * The seal relay (docs/operations.md "Seal relay"): a loop in every worker process, beside the webhook
 * OutboxRelay. Each pass leases a batch of seal_outbox rows from each owner due (FOR UPDATE SKIP LOCKED
 * there, so several workers take disjoint sets) and enqueues ONE `ledger.v1.seal` job per batch,
 * under an id made of the lease and the row ids (a second enqueue of the same lease adds nothing).
 * A batch that cannot be enqueued because Redis is down is handed back at once and comes out again
 * in a later pass; a worker killed between lease and done leaves rows whose lease runs out, and the
 * ledger's client_ref makes their second sealing a no-op. A full batch goes on at once. An owner is
 * due when it nudged, when its last batch was full, or when it was not asked for `intervalMs` (the
 * fallback poll, which also covers a lost nudge while another owner keeps nudging). Nudged passes
 * start at least `gatherMs` apart, so that under load a pass takes the rows of many commits at once:
 * every batch costs a lease, a job, a ledger request and a `done` whatever its size.
 */
export class SealRelay {
  private readonly loop: PassLoop;
  private readonly failures: FailureLog;
  /** Owners that nudged, or whose last batch was full, since their last pass. */
  private readonly due = new Set<SealOwnerName>();
  private readonly lastAsked = new Map<SealOwnerName, number>();

  constructor(
    private readonly owners: Record<SealOwnerName, SealOwner>,
    private readonly producer: Producer,
    private readonly opts: { intervalMs: number; batchSize: number; leaseMs: number; gatherMs?: number },
    logger: Logger,
  ) {
    this.failures = new FailureLog(logger, { relay: 'seal' });
    // A full batch means more is waiting: go on at once; otherwise pause.
    this.loop = new PassLoop(
      async () => {
        const r = await this.pass(this.dueOwners());
        const full = (Object.keys(r.leased) as SealOwnerName[]).filter((name) => r.leased[name] >= this.opts.batchSize && r.released === 0);
        for (const name of full) this.due.add(name);
        return full.length > 0;
      },
      opts.intervalMs,
      opts.gatherMs ?? 0,
    );
  }

  start(): void {
    this.loop.start();
  }

  /**
   * A nudge: `owner` (every owner when none is named) just committed rows (libs/queue "nudge"): pass
   * soon rather than at the fallback poll.
   */
  wake(owner?: SealOwnerName): void {
    for (const name of owner ? [owner] : (Object.keys(this.owners) as SealOwnerName[])) this.due.add(name);
    this.loop.wake();
  }

  /** Stops after the pass in progress (if any); no pass starts afterwards. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * One pass over `names` (every owner by default); the loop calls it, tests may too. Never throws:
   * failures are logged and retried next pass.
   */
  async pass(names = Object.keys(this.owners) as SealOwnerName[]): Promise<SealRelayPass> {
    const now = Date.now();
    for (const name of names) {
      this.due.delete(name);
      this.lastAsked.set(name, now);
    }
    const outcomes = await Promise.all(names.map((name) => this.passOwner(name)));
    const result: SealRelayPass = { leased: { verdict: 0, registry: 0 }, enqueued: 0, released: 0 };
    outcomes.forEach((o, i) => {
      result.leased[names[i]] = o.leased;
      result.enqueued += o.enqueued;
      result.released += o.released;
    });
    return result;
  }

  /** The owners a loop pass asks: those due, and those not asked for the fallback interval (all of them at the poll). */
  private dueOwners(): SealOwnerName[] {
    const now = Date.now();
    const names = (Object.keys(this.owners) as SealOwnerName[]).filter(
      (name) => this.due.has(name) || now - (this.lastAsked.get(name) ?? -Infinity) >= this.opts.intervalMs,
    );
    return names.length ? names : (Object.keys(this.owners) as SealOwnerName[]);
  }

  private async passOwner(name: SealOwnerName): Promise<{ leased: number; enqueued: number; released: number }> {
    const owner = this.owners[name];
    let lease: SealLease;
    try {
      // A poll, several a second: not traced (docs/operations.md "Tracing"); the job it enqueues is.
      lease = await untraced(() => owner.leaseSeals(this.opts.batchSize, this.opts.leaseMs));
    } catch (err) {
      this.note(name, `seal relay: lease from ${name} failed: ${(err as Error).message}`, 'warn');
      return { leased: 0, enqueued: 0, released: 0 };
    }
    if (!lease.items.length) {
      this.failures.clear(name);
      return { leased: 0, enqueued: 0, released: 0 };
    }
    const payload = { owner: name, leased_until: lease.leased_until, items: lease.items.map((i) => ({ id: i.id, seal: i.seal })) };
    try {
      await this.producer.enqueue(ledgerSealJob, payload, { jobId: ledgerSealJobId(payload), traceLinks: traceLinksOf(lease) });
      this.failures.clear(name);
      return { leased: lease.items.length, enqueued: 1, released: 0 };
    } catch (err) {
      const unavailable = err instanceof QueueError && err.code === 'queue_unavailable';
      this.note(
        name,
        `seal relay: could not enqueue ${lease.items.length} seals of ${name}: ${(err as Error).message}`,
        unavailable ? 'warn' : 'error',
      );
      try {
        const { released } = await owner.releaseSeals(
          payload.items.map((i) => i.id),
          lease.leased_until,
        );
        return { leased: lease.items.length, enqueued: 0, released };
      } catch (releaseErr) {
        // The lease runs out on its own: the rows come back then.
        this.note(name, `seal relay: release to ${name} failed: ${(releaseErr as Error).message}`, 'warn');
        return { leased: lease.items.length, enqueued: 0, released: 0 };
      }
    }
  }

  private note(owner: string, message: string, level: 'warn' | 'error'): void {
    this.failures.note(owner, message, level);
  }
}
