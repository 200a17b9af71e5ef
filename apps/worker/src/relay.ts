import {
  QueueError,
  notificationSendJob,
  notificationSendJobId,
  webhookDeliverJob,
  webhookDeliverJobId,
  type Producer,
} from '@arbiter/queue';
import type { Logger } from 'pino';
import { FailureLog, PassLoop } from './pass-loop';
import type { RegistryInternalClient } from '@arbiter/internal-api';
import { untraced } from '@arbiter/telemetry';

export interface RelayPass {
  /** Deliveries the registry handed out in this pass. */
  dispatched: number;
  enqueued: number;
  /** Handed back because they could not be enqueued (Redis down). */
  released: number;
}

/**
 * The outbox relay (README.md "Architecture"; ADR 0005): a loop in every worker process. Each pass asks
 * the registry to fan its outbox out and lease the due deliveries (FOR UPDATE SKIP LOCKED there,
 * so several workers take disjoint sets), then enqueues one `webhook.v1.deliver` job per
 * delivery attempt under the id `<delivery_id>.<attempt>` (a second enqueue of the same attempt
 * adds nothing). What cannot be enqueued because Redis is down is handed back at once and comes
 * out again in a later pass: a Redis outage delays notifications and loses none.
 */
export class OutboxRelay {
  private readonly loop: PassLoop;
  private readonly failures: FailureLog;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly registry: RegistryInternalClient,
    private readonly producer: Producer,
    private readonly opts: { intervalMs: number; batchSize: number },
    logger: Logger,
  ) {
    this.failures = new FailureLog(logger, { relay: true });
    // A full batch means more is waiting: go on at once; otherwise pause.
    this.loop = new PassLoop(async () => {
      const r = await this.pass();
      return r.dispatched >= this.opts.batchSize && r.released === 0;
    }, opts.intervalMs);
  }

  start(): void {
    this.loop.start();
  }

  /** A nudge: rows were just committed (libs/queue "nudge"); pass now rather than at the fallback poll. */
  wake(): void {
    this.loop.wake();
  }

  /** Passes at `at` (a retry falling due); an earlier pass may take it first, a later one is harmless. */
  wakeAt(at: Date): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.loop.wake();
      },
      Math.max(0, at.getTime() - Date.now()),
    );
    timer.unref();
    this.timers.add(timer);
  }

  /** Stops after the pass in progress (if any); no pass starts afterwards. */
  stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    return this.loop.stop();
  }

  /** One pass; the loop calls it, tests may too. Never throws: failures are logged and retried next pass. */
  async pass(): Promise<RelayPass> {
    const result: RelayPass = { dispatched: 0, enqueued: 0, released: 0 };
    try {
      // A poll, several a second: not traced (docs/operations.md "Tracing"); the jobs it enqueues are.
      const answer = await untraced(() => this.registry.relay(this.opts.batchSize));
      // Approval notifications (docs/approvals.md "Notifications") come in the same answer; an older registry sends none.
      const notices = answer.notifications ?? [];
      result.dispatched = answer.dispatch.length + notices.length;
      const failed: string[] = [];
      const failedNotices: string[] = [];
      const outcomes = await Promise.allSettled([
        ...answer.dispatch.map((d) => this.producer.enqueue(webhookDeliverJob, d, { jobId: webhookDeliverJobId(d) })),
        ...notices.map((n) => this.producer.enqueue(notificationSendJob, n, { jobId: notificationSendJobId(n) })),
      ]);
      outcomes.forEach((o, i) => {
        if (o.status === 'fulfilled') result.enqueued++;
        else if (i < answer.dispatch.length) failed.push(answer.dispatch[i].delivery_id);
        else failedNotices.push(notices[i - answer.dispatch.length].notification_id);
      });
      if (failed.length || failedNotices.length) {
        const first = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!.reason;
        this.note(
          `could not enqueue ${failed.length} deliveries and ${failedNotices.length} notifications: ${(first as Error).message}`,
          first instanceof QueueError && first.code === 'queue_unavailable' ? 'warn' : 'error',
        );
        result.released = (await this.registry.release(failed, failedNotices)).released;
      } else {
        this.failures.clear('');
      }
    } catch (err) {
      this.note(`relay pass failed: ${(err as Error).message}`, 'warn');
    }
    return result;
  }

  private note(message: string, level: 'warn' | 'error'): void {
    this.failures.note('', message, level);
  }
}
