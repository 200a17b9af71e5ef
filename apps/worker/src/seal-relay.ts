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
 * OutboxRelay. Each pass leases a batch of seal_outbox rows from each owner (FOR UPDATE SKIP LOCKED
 * there, so several workers take disjoint sets) and enqueues ONE `ledger.v1.seal` job per batch,
 * under an id made of the lease and the row ids (a second enqueue of the same lease adds nothing).
 * A batch that cannot be enqueued because Redis is down is handed back at once and comes out again
 * in a later pass; a worker killed between lease and done leaves rows whose lease runs out, and the
 * ledger's client_ref makes their second sealing a no-op. A full batch goes on at once; a pass with
 * nothing to do waits `intervalMs`.
 */
export class SealRelay {
  private readonly loop: PassLoop;
  private readonly failures: FailureLog;

  constructor(
    private readonly owners: Record<SealOwnerName, SealOwner>,
    private readonly producer: Producer,
    private readonly opts: { intervalMs: number; batchSize: number; leaseMs: number },
    logger: Logger,
  ) {
    this.failures = new FailureLog(logger, { relay: 'seal' });
    // A full batch means more is waiting: go on at once; otherwise pause.
    this.loop = new PassLoop(async () => {
      const r = await this.pass();
      return Object.values(r.leased).some((n) => n >= this.opts.batchSize) && r.released === 0;
    }, opts.intervalMs);
  }

  start(): void {
    this.loop.start();
  }

  /** A nudge: rows were just committed (libs/queue "nudge"); pass now rather than at the fallback poll. */
  wake(): void {
    this.loop.wake();
  }

  /** Stops after the pass in progress (if any); no pass starts afterwards. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass over both owners; the loop calls it, tests may too. Never throws: failures are logged and retried next pass. */
  async pass(): Promise<SealRelayPass> {
    const names = Object.keys(this.owners) as SealOwnerName[];
    const outcomes = await Promise.all(names.map((name) => this.passOwner(name)));
    const result: SealRelayPass = { leased: { verdict: 0, registry: 0 }, enqueued: 0, released: 0 };
    outcomes.forEach((o, i) => {
      result.leased[names[i]] = o.leased;
      result.enqueued += o.enqueued;
      result.released += o.released;
    });
    return result;
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
      this.note(name, `seal relay: could not enqueue ${lease.items.length} seals of ${name}: ${(err as Error).message}`, unavailable ? 'warn' : 'error');
      try {
        const { released } = await owner.releaseSeals(payload.items.map((i) => i.id), lease.leased_until);
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
