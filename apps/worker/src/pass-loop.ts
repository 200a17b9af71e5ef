import type { Logger } from 'pino';

/**
 * The loop both relays run (relay.ts, seal-relay.ts): one pass at a time; the next at once when the
 * pass says more is waiting, else after `intervalMs`, the slow fallback poll. A nudge (wake()) brings
 * the next pass forward, or runs one more right after the pass in progress (which may have started
 * before the news), but never sooner than `minGapMs` after the start of the previous pass: the rows
 * committed meanwhile gather into one batch instead of one small batch per nudge (docs/operations.md
 * "Seal relay"). stop() lets the pass in progress finish and starts no other.
 */
export class PassLoop {
  private timer: NodeJS.Timeout | undefined;
  /** When the pending timer fires (ms since the epoch); Infinity when none is pending. */
  private dueAt = Infinity;
  private running: Promise<unknown> | undefined;
  private stopped = false;
  private woken = false;
  private lastStart = -Infinity;

  /** `pass` never throws, and answers whether to go on at once. */
  constructor(
    private readonly pass: () => Promise<boolean>,
    private readonly intervalMs: number,
    private readonly minGapMs = 0,
    private readonly now: () => number = Date.now,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** Runs a pass soon (see the class), or right after the one in progress. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.woken = true;
      return;
    }
    const delay = this.gap();
    if (this.dueAt <= this.now() + delay) return; // a pass is due sooner anyway
    this.schedule(delay);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** How long until minGapMs has passed since the last pass started. */
  private gap(): number {
    return Math.max(0, this.lastStart + this.minGapMs - this.now());
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.dueAt = Infinity;
    if (this.stopped) return;
    this.dueAt = this.now() + delayMs;
    this.timer = setTimeout(() => {
      this.dueAt = Infinity;
      this.woken = false;
      this.lastStart = this.now();
      this.running = this.pass().then((again) => {
        this.running = undefined;
        this.schedule(again ? 0 : this.woken ? this.gap() : this.intervalMs);
      });
    }, delayMs);
  }
}

/**
 * Logs a relay's failure once per distinct message and key, so an outage does not flood the log
 * every pass; clear(key) after a success logs the next failure again.
 */
export class FailureLog {
  private readonly last = new Map<string, string>();

  constructor(
    private readonly logger: Logger,
    private readonly fields: Record<string, unknown>,
  ) {}

  note(key: string, message: string, level: 'warn' | 'error'): void {
    if (this.last.get(key) === message) return;
    this.last.set(key, message);
    this.logger[level]({ ...this.fields, ...(key ? { owner: key } : {}) }, message);
  }

  clear(key: string): void {
    this.last.delete(key);
  }
}
