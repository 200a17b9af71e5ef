import type { TenantId } from '@arbiter/auth';
import type { WindowStore } from './windows.service';

/** A tenant's call waited longer than its share allows: its rules fire (limit_unavailable), other tenants' never wait for it. */
export class TenantShareExceededError extends Error {
  constructor(tenantId: string) {
    super(`tenant ${tenantId} has used its share of the window store for longer than WINDOW_TIMEOUT_MS`);
    this.name = 'TenantShareExceededError';
  }
}

interface Waiter {
  go: () => void;
}

/**
 * At most `limit` runs at once per tenant; the others wait their turn in order, each at most `waitMs`
 * (then it rejects with TenantShareExceededError). A tenant under its limit never waits, whatever the
 * other tenants do: one tenant's load cannot hold every connection of a shared pool.
 */
export class TenantGate {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(
    private readonly limit: number,
    private readonly waitMs: number,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error('a tenant gate lets at least one run through');
  }

  async run<T>(tenantId: string, fn: () => Promise<T>): Promise<T> {
    const n = this.running.get(tenantId) ?? 0;
    if (n < this.limit) this.running.set(tenantId, n + 1);
    else await this.turn(tenantId);
    try {
      return await fn();
    } finally {
      this.release(tenantId);
    }
  }

  /** Runs of the tenant in progress (for tests). */
  inProgress(tenantId: string): number {
    return this.running.get(tenantId) ?? 0;
  }

  private turn(tenantId: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let queue = this.waiting.get(tenantId);
      if (!queue) this.waiting.set(tenantId, (queue = []));
      const waiter: Waiter = {
        go: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        const q = this.waiting.get(tenantId);
        const i = q ? q.indexOf(waiter) : -1;
        if (q && i >= 0) q.splice(i, 1);
        if (q && q.length === 0) this.waiting.delete(tenantId);
        reject(new TenantShareExceededError(tenantId));
      }, this.waitMs);
      timer.unref?.();
      queue.push(waiter);
    });
  }

  /** A finished run hands its place to the tenant's next waiter, else frees it. */
  private release(tenantId: string): void {
    const queue = this.waiting.get(tenantId);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.waiting.delete(tenantId);
    if (next) {
      next.go();
      return;
    }
    const n = (this.running.get(tenantId) ?? 1) - 1;
    if (n <= 0) this.running.delete(tenantId);
    else this.running.set(tenantId, n);
  }
}

/**
 * The window store with each tenant held to its share (docs/verdicts.md "Windows and outcomes"): at most
 * `reads` of its peeks and prior look-ups at once (each holds a connection of the window pool) and at most
 * `takes` of its takes waiting for a gathered batch (so one tenant never fills a batch). A call that waits past
 * `waitMs` for its tenant's turn fails, and that tenant's rules fire closed; give-backs are not held back.
 */
export function tenantShared(store: WindowStore, share: { reads: number; takes: number; waitMs: number }): WindowStore {
  const reads = new TenantGate(share.reads, share.waitMs);
  const takes = new TenantGate(share.takes, share.waitMs);
  return {
    take: (tenantId, consultationId, needs, marks) => takes.run(tenantId, () => store.take(tenantId, consultationId, needs, marks)),
    peek: (tenantId, needs) => reads.run(tenantId, () => store.peek(tenantId, needs)),
    priors: (tenantId: TenantId, needs) => reads.run(tenantId, () => store.priors(tenantId, needs)),
    giveBack: (tenantId, consultationId) => store.giveBack(tenantId, consultationId),
  };
}
