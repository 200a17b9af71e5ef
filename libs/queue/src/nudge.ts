import type { Redis } from 'ioredis';

/**
 * Nudges for the worker's relays (docs/operations.md "Seal relay"): a service that committed rows to an
 * outbox the worker drains publishes its name here, and every worker starts a pass at once instead of
 * waiting for its slow fallback poll. A nudge carries no data: a lost one (Redis down, a worker
 * reconnecting) only delays the rows until the next poll, so publishing is best effort.
 */
export const OUTBOX_NUDGE_CHANNEL = 'arbiter:outbox:nudge';

/** The services whose outboxes the worker relays. */
export const NUDGE_OWNERS = ['registry', 'verdict'] as const;
export type NudgeOwner = (typeof NUDGE_OWNERS)[number];

export function parseNudge(message: string): NudgeOwner | undefined {
  return (NUDGE_OWNERS as readonly string[]).includes(message) ? (message as NudgeOwner) : undefined;
}

/**
 * Publishes an owner's nudges, at most one per `minGapMs` (default 50 ms): under load a commit every
 * millisecond costs twenty PUBLISH commands a second, not a thousand, and the worker's pass takes
 * everything committed meanwhile. The first nudge after a quiet spell goes out at once, a burst's
 * last one at the end of the gap, so no commit is left waiting for the poll.
 */
export class OutboxNudger {
  private lastSent = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Pick<Redis, 'publish'>,
    private readonly owner: NudgeOwner,
    private readonly minGapMs = 50,
    private readonly now: () => number = Date.now,
  ) {}

  /** Never throws and never waits: called right after a commit, on the request path. */
  nudge(): void {
    if (this.timer) return;
    const wait = this.lastSent + this.minGapMs - this.now();
    if (wait <= 0) {
      this.send();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.send();
    }, wait);
    this.timer.unref();
  }

  /** Drops a nudge waiting for its gap (shutdown). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private send(): void {
    this.lastSent = this.now();
    this.redis.publish(OUTBOX_NUDGE_CHANNEL, this.owner).catch(() => undefined);
  }
}

/**
 * Calls `onNudge` for every nudge on a dedicated subscriber connection (subscriber mode), and once
 * for every owner after each reconnect, since nudges may have been missed meanwhile. Does not wait
 * for Redis: with it unreachable the SUBSCRIBE waits in ioredis's offline queue and the fallback
 * poll covers the gap. Returns the function that stops the calls (closing the connection is the
 * owner's job).
 */
export function subscribeNudges(subscriber: Redis, onNudge: (owner: NudgeOwner) => void): () => void {
  let connectedOnce = subscriber.status === 'ready';
  const onMessage = (channel: string, message: string) => {
    if (channel !== OUTBOX_NUDGE_CHANNEL) return;
    const owner = parseNudge(message);
    if (owner) onNudge(owner);
  };
  const onReady = () => {
    if (connectedOnce) for (const owner of NUDGE_OWNERS) onNudge(owner);
    connectedOnce = true;
  };
  subscriber.on('message', onMessage);
  subscriber.on('ready', onReady);
  subscriber.subscribe(OUTBOX_NUDGE_CHANNEL).catch(() => undefined);
  return () => {
    subscriber.off('message', onMessage);
    subscriber.off('ready', onReady);
  };
}
