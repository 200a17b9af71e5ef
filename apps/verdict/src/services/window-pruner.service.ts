import type { Logger } from 'pino';

/** The pruning the window store offers (repositories/windows.repository.ts). */
export interface PrunableWindows {
  pruneAnyTenant(batch: number): Promise<{ totals: number; events: number }>;
}

const BATCH = 1_000;
/** Batches one round may delete before it waits for the next interval. */
const MAX_BATCHES = 100;

/**
 * Deletes, every `intervalMs`, the window events that have left every window and the idle totals rows
 * (docs/operations.md "Windows"), in batches of a thousand rows, from a timer that never holds the process
 * open and never in a request's path. A failed round is logged and the next one tries again.
 */
export class WindowPruner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly store: PrunableWindows,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.round().finally(() => (this.running = null));
    }, this.intervalMs);
    this.timer.unref();
  }

  /** One round: batches until one deletes nothing (or MAX_BATCHES). Answers the rows deleted. */
  async round(): Promise<number> {
    let deleted = 0;
    try {
      for (let i = 0; i < MAX_BATCHES; i++) {
        const { totals, events } = await this.store.pruneAnyTenant(BATCH);
        deleted += totals + events;
        if (totals + events === 0) break;
      }
    } catch (err) {
      this.logger.warn({ err }, 'window pruning failed; the next round tries again');
    }
    return deleted;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
