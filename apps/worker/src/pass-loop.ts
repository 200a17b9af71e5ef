import type { Logger } from 'pino';

/**
 * The loop both relays run (relay.ts, seal-relay.ts): one pass at a time; the next at once when the
 * pass says more is waiting or a nudge arrived meanwhile (wake()), else after `intervalMs`, the slow
 * fallback poll. stop() lets the pass in progress finish and starts no other.
 */
export class PassLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;
  private woken = false;

  /** `pass` never throws, and answers whether to go on at once. */
  constructor(
    private readonly pass: () => Promise<boolean>,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** Runs a pass now, or right after the one in progress (which may have started before the news). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.woken = true;
      return;
    }
    clearTimeout(this.timer);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.woken = false;
      this.running = this.pass().then((again) => {
        this.running = undefined;
        this.schedule(again || this.woken ? 0 : this.intervalMs);
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
