// One sliding window over exact events, kept as a running total with an expiry cursor (docs/verdicts.md
// "Budgets, rates and sequences"). Pure; the gateway's store mirrors it in SQL, one row of
// window_totals (used, expired_through) per window and one row of window_events per event:
//
//   An event at time t counts at time now iff  now - window < t  (an event exactly one window old has
//   left), and it has not been given back.
//
//   advance(now):  now := greatest(now, last now)                  -- the window's time never goes back
//                  cutoff := now - window
//                  used := used - sum(amount of events with expired_through < at <= cutoff, not given back)
//                  expired_through := greatest(expired_through, cutoff)
//   add(amount):   after advance(now): insert the event at now; used := used + amount
//                  (now > cutoff >= expired_through, so the new event counts)
//   giveBack(id):  after advance(now): mark the consultation's events given back; used := used - the
//                  amounts of those of them with at > expired_through (an event that has left changes
//                  nothing: its amount already left the total)
//
// So `used` always equals the sum of the live events (the naive model; running-window.spec.ts checks it
// with fast-check), each operation reads only the events that leave, and events at or before
// expired_through can be deleted at any time (pruning). Amounts are exact decimals (decimal.ts; numeric
// in SQL), so adding and removing the same amounts returns the total exactly to where it was.
import { compare, decimalOf, minus, plus, toNumber, ZERO, type Decimal } from './decimal';

export interface WindowEvent {
  readonly at: number;
  readonly amount: Decimal;
  readonly consultationId: string;
  givenBack: boolean;
}

export class RunningWindow {
  /** Events in time order; those before `cursor` have left the window. */
  private events: WindowEvent[] = [];
  private cursor = 0;
  private total: Decimal = ZERO;
  private expiredThrough = -Infinity;
  private lastNow = -Infinity;

  constructor(readonly windowMs: number) {
    if (!(windowMs > 0)) throw new RangeError('a window lasts more than 0 ms');
  }

  /** The sum of the live events' amounts, as of the last advance. */
  get used(): number {
    return toNumber(this.total);
  }

  get usedDecimal(): Decimal {
    return this.total;
  }

  /** How many events are kept (live ones and those not yet pruned). */
  get kept(): number {
    return this.events.length - this.cursor;
  }

  /** Moves the window to `atMs` (never back) and lets the events that left go; returns the window's time. */
  advance(atMs: number): number {
    const now = Math.max(atMs, this.lastNow);
    this.lastNow = now;
    const cutoff = now - this.windowMs;
    const events = this.events;
    while (this.cursor < events.length && events[this.cursor].at <= cutoff) {
      const e = events[this.cursor++];
      if (!e.givenBack) this.total = minus(this.total, e.amount);
    }
    if (cutoff > this.expiredThrough) this.expiredThrough = cutoff;
    if (this.cursor > 1024 && this.cursor * 2 > events.length) {
      this.events = events.slice(this.cursor);
      this.cursor = 0;
    }
    return now;
  }

  /** Whether `amount` more keeps the window within `max` (call advance first). */
  fits(amount: number | Decimal, max: number): boolean {
    const a = typeof amount === 'number' ? decimalOf(amount) : amount;
    return compare(plus(this.total, a), decimalOf(max)) <= 0;
  }

  /** Adds an event of `amount` at the window's time `atMs` (advanced to first). */
  add(atMs: number, amount: number, consultationId: string): void {
    const now = this.advance(atMs);
    const event: WindowEvent = { at: now, amount: decimalOf(amount), consultationId, givenBack: false };
    this.events.push(event);
    this.total = plus(this.total, event.amount);
  }

  /**
   * Gives back the events of one consultation not given back yet; returns the amount that left the
   * total (0 when they had all left the window already, or were given back before).
   */
  giveBack(consultationId: string, atMs: number): number {
    this.advance(atMs);
    let returned: Decimal = ZERO;
    for (let i = 0; i < this.events.length; i++) {
      const e = this.events[i];
      if (e.consultationId !== consultationId || e.givenBack) continue;
      e.givenBack = true;
      if (i >= this.cursor && e.at > this.expiredThrough) returned = plus(returned, e.amount);
    }
    this.total = minus(this.total, returned);
    return toNumber(returned);
  }
}
