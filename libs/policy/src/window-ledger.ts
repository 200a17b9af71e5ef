// The in-memory window store (docs/verdicts.md "Budgets, rates and sequences"): the gateway store's
// exact semantics over RunningWindow, for the simulation and `arbiter rules test`, which replay
// operations at their own times (milliseconds). One ledger holds one tenant's windows and marks.
//
//   take(consultation, needs, marks, at)  all or nothing: every window advanced to `at`; if each has
//                                          room for its amount (used + amount <= max), every amount is
//                                          added and every mark left, else nothing is; used_before per
//                                          need either way. A forced need (a neutralised rule's window)
//                                          is not checked: it is added whatever its window holds, and
//                                          never makes the take fail. (The store: one statement that
//                                          locks the window rows in a fixed order, expires, checks,
//                                          inserts; a forced need goes to it with an unreachable max.)
//   peek(needs, at)                        used per need, nothing written (the store: no lock).
//   priors(needs, at)                      per need, whether a mark of its action and key, not given
//                                          back, is younger than its `within` (now - within < t).
//   giveBack(consultation, at)             once: the consultation's amounts leave the windows they are
//                                          still in, its marks are withdrawn.
//
// A window is identified by (rule_id, key, window_ms), a mark by (action, key). The ledger's clock never
// goes back: an operation at an earlier time than one already seen happens at the later time, as every
// gateway replica's operations happen on PostgreSQL's one clock.
import { exceeds } from './decimal';
import { RunningWindow } from './running-window';
import type { PriorMark, PriorNeed, WindowNeed } from './window-rules';

/** What a take answers: whether the amounts were taken, and what each window held before (need order). */
export interface TakeResult {
  taken: boolean;
  used_before: number[];
}

/** An amount given back to a window (the outcome route's `given_back`). Members in RFC 8785 order. */
export interface GivenBack {
  amount: number;
  key: string;
  rule_id: string;
  window: string;
}

interface Mark {
  readonly at: number;
  readonly consultationId: string;
  withdrawn: boolean;
}

interface Taken {
  windows: { window: RunningWindow; need: WindowNeed }[];
  marks: Mark[];
}

const byWindow = (a: GivenBack, b: GivenBack): number =>
  a.rule_id !== b.rule_id
    ? a.rule_id < b.rule_id
      ? -1
      : 1
    : a.key !== b.key
      ? a.key < b.key
        ? -1
        : 1
      : a.window < b.window
        ? -1
        : a.window > b.window
          ? 1
          : 0;

export class WindowLedger {
  private readonly windows = new Map<string, RunningWindow>();
  private readonly marks = new Map<string, Mark[]>();
  private readonly taken = new Map<string, Taken[]>();
  private nowMs = -Infinity;

  private clock(atMs: number): number {
    if (!Number.isFinite(atMs)) throw new RangeError('a ledger time is a finite number of milliseconds');
    if (atMs > this.nowMs) this.nowMs = atMs;
    return this.nowMs;
  }

  private window(need: WindowNeed): RunningWindow {
    const id = JSON.stringify([need.rule_id, need.key, need.window_ms]);
    let w = this.windows.get(id);
    if (!w) this.windows.set(id, (w = new RunningWindow(need.window_ms)));
    return w;
  }

  private markList(action: string, key: string): Mark[] {
    const id = JSON.stringify([action, key]);
    let list = this.marks.get(id);
    if (!list) this.marks.set(id, (list = []));
    return list;
  }

  /** All or nothing: takes every need's amount and leaves every mark when every window but the forced ones has room. */
  take(consultationId: string, needs: readonly WindowNeed[], marks: readonly PriorMark[], atMs: number): TakeResult {
    const now = this.clock(atMs);
    const windows = needs.map((need) => ({ window: this.window(need), need }));
    const usedBefore = windows.map(({ window }) => {
      window.advance(now);
      return window.used;
    });
    const fits = windows.every(({ window, need }) => need.forced === true || !exceeds(window.usedDecimal, need.amount, need.max));
    if (!fits) return { taken: false, used_before: usedBefore };
    for (const { window, need } of windows) window.add(now, need.amount, consultationId);
    const left: Mark[] = [];
    const seen = new Set<string>();
    for (const m of marks) {
      const id = JSON.stringify([m.action, m.key]);
      if (seen.has(id)) continue;
      seen.add(id);
      const mark: Mark = { at: now, consultationId, withdrawn: false };
      this.markList(m.action, m.key).push(mark);
      left.push(mark);
    }
    const list = this.taken.get(consultationId);
    const entry = { windows, marks: left };
    if (list) list.push(entry);
    else this.taken.set(consultationId, [entry]);
    return { taken: true, used_before: usedBefore };
  }

  /** What each need's window holds at `atMs`; nothing is taken. */
  peek(needs: readonly WindowNeed[], atMs: number): number[] {
    const now = this.clock(atMs);
    return needs.map((need) => {
      const w = this.window(need);
      w.advance(now);
      return w.used;
    });
  }

  /** Per need, whether an earlier operation of its action left a mark with its key within its period. */
  priors(needs: readonly PriorNeed[], atMs: number): boolean[] {
    const now = this.clock(atMs);
    return needs.map((need) => {
      const list = this.marks.get(JSON.stringify([need.action, need.key]));
      if (!list) return false;
      const cutoff = now - need.within_ms;
      for (let i = list.length - 1; i >= 0 && list[i].at > cutoff; i--) if (!list[i].withdrawn) return true;
      return false;
    });
  }

  /**
   * Gives back what one consultation took (once): its amounts leave the windows they are still in, its
   * marks are withdrawn. Returns the amounts that left a window (none the second time), by rule_id, key
   * and window.
   */
  giveBack(consultationId: string, atMs: number): GivenBack[] {
    const now = this.clock(atMs);
    const list = this.taken.get(consultationId);
    if (!list) return [];
    this.taken.delete(consultationId);
    const out: GivenBack[] = [];
    for (const entry of list) {
      for (const m of entry.marks) m.withdrawn = true;
      for (const { window, need } of entry.windows) {
        const amount = window.giveBack(consultationId, now);
        if (amount > 0) {
          out.push({ amount, key: need.key, rule_id: need.rule_id, window: need.window });
        }
      }
    }
    return out.sort(byWindow);
  }
}
