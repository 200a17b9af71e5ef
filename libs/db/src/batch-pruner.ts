import type { Logger } from 'pino';

/** One batch of pruning: deletes at most `batch` rows of each table it prunes and answers the rows deleted, by table. */
export type PruneBatch = (batch: number) => Promise<Record<string, number>>;

const BATCH = 1_000;
/** Batches one round may run before it waits for the next interval. */
const MAX_BATCHES = 100;

/**
 * Deletes rows whose time has passed, every `intervalMs`, in batches of a thousand rows of each table (at most a
 * hundred batches a round), from a timer that never holds the process open and never in a request's path: the
 * verdict gateway's window events (docs/operations.md "Windows"), the registry's spent notifications and console
 * credentials (docs/operations.md "Retention"). Replicas pruning at once delete disjoint or already deleted rows;
 * a failed round is logged at `warn` and the next one tries again.
 */
export class BatchPruner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly prune: PruneBatch,
    private readonly logger: Logger,
    private readonly opts: { intervalMs: number; what: string },
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.round().finally(() => (this.running = null));
    }, this.opts.intervalMs);
    this.timer.unref();
  }

  /** One round: batches until one deletes nothing (or MAX_BATCHES). Answers the rows deleted. */
  async round(): Promise<number> {
    let deleted = 0;
    try {
      for (let i = 0; i < MAX_BATCHES; i++) {
        const counts = Object.values(await this.prune(BATCH));
        const n = counts.reduce((a, b) => a + b, 0);
        deleted += n;
        if (n === 0) break;
      }
    } catch (err) {
      this.logger.warn({ err }, `${this.opts.what} failed; the next round tries again`);
    }
    return deleted;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
