import type { Logger } from 'pino';
import type { TenantId } from '@arbiter/auth';
import { AppError, type ServiceMetrics } from '@arbiter/http';
import {
  leavesMarks,
  limitEntries,
  needsThatFit,
  proceeds,
  windowStates,
  type CompiledPolicy,
  type CompleteEvaluation,
  type EvaluationResult,
  type LimitEntry,
  type WindowNeed,
  type WindowPlan,
  type WindowStates,
} from '@arbiter/policy';
import { MIN_EVENT_KEEP_MS, type GivenBack, type StoredMark, type TakeResult } from '../repositories/windows.repository';

/** What the flow needs of the window store (repositories/windows.repository.ts). */
export interface WindowStore {
  take(tenantId: TenantId, consultationId: string, needs: readonly WindowNeed[], marks: readonly StoredMark[]): Promise<TakeResult>;
  peek(tenantId: TenantId, needs: readonly WindowNeed[]): Promise<number[]>;
  priors(tenantId: TenantId, needs: WindowPlan['priors']): Promise<boolean[]>;
  giveBack(tenantId: TenantId, consultationId: string): Promise<GivenBack[]>;
}

/** An evaluation with the windows' states (the caller's evaluate(), run in its evaluation budget). */
export type EvaluateWith = (states: WindowStates) => EvaluationResult;

/** What the flow decided: the evaluation to record, the record's `limits`, the states it was made with. */
export interface WindowDecision {
  result: EvaluationResult;
  /** One entry per plan limit whose window was read; empty when none was. */
  limits: LimitEntry[];
  /** The windows' states the evaluation read; null when the policy has no rule that remembers. */
  states: WindowStates | null;
  /** Whether the store consumed windows or left marks for the consultation (given back if it is not recorded). */
  consumed: boolean;
}

/** Takes that found a window full before the flow fails closed (docs/verdicts.md "Windows and outcomes"). */
const MAX_TAKES = 3;

/**
 * The max a forced need (the window of a rule an override, a grant or the one-shot approval neutralised)
 * goes to the store with, so that the take's fit check always passes for it (docs/verdicts.md "Windows and
 * outcomes"): the largest finite number, which the store accepts as a max and keeps exactly (numeric). The
 * record keeps the rule's own max.
 */
export const FORCED_MAX = Number.MAX_VALUE;

/** The needs as the store takes them: a forced need with a max its window cannot reach. */
export function storeNeeds(needs: readonly WindowNeed[]): readonly WindowNeed[] {
  return needs.some((n) => n.forced === true) ? needs.map((n) => (n.forced === true ? { ...n, max: FORCED_MAX } : n)) : needs;
}

/** 503 windows_unavailable: the window store could not be written (docs/verdicts.md "Windows and outcomes"). */
export const windowsUnavailable = () =>
  new AppError(503, 'windows_unavailable', 'The window store cannot be written right now; retry', undefined, { 'Retry-After': '1' });

/**
 * The gateway's flow for the rules that remember (docs/verdicts.md "Windows and outcomes"), for check,
 * resolve and the one-shot re-evaluation alike, given the plan of a policy that has such rules:
 *
 *   1. the earlier operations of the plan's requires_prior rules are read (one query);
 *   2. the operation is evaluated with every window `fits`;
 *   3. an answer that lets the operation go ahead (proceeds()) takes its windows and, when its verdict is
 *      `allowed` or `observe` (leavesMarks()), leaves its marks, in one conditional statement (the forced windows of neutralised rules whatever they hold); when a
 *      window was full, it is evaluated again with what the windows held and, if it still goes ahead,
 *      the windows that fit and the forced ones are taken (at most three takes,
 *      then every limit is `unavailable`); an answer that does not go ahead reads the windows without a
 *      lock so that its trace and record say where each stood;
 *   4. any store failure makes the states `unavailable`: the rules fire (fail closed).
 */
export class WindowsService {
  private readonly failures;
  private readonly markKeep = new WeakMap<CompiledPolicy, Map<string, number>>();

  constructor(
    private readonly store: WindowStore,
    private readonly logger: Logger,
    metrics?: ServiceMetrics,
  ) {
    this.failures = metrics?.counter<'operation'>('window_store_failures_total', {
      help: 'Window store reads and takes that failed (their rules fired with limit_unavailable), by operation',
      labelNames: ['operation'],
    });
  }

  async decide(
    tenantId: TenantId,
    consultationId: string,
    policy: CompiledPolicy,
    plan: WindowPlan,
    evaluateWith: EvaluateWith,
  ): Promise<WindowDecision> {
    const priors = plan.priors.length === 0 ? [] : await this.attempt('priors', tenantId, () => this.store.priors(tenantId, plan.priors));
    let states = windowStates(plan, 'fits', priors);
    let result = evaluateWith(states);
    if (result.status !== 'complete') return { result, limits: [], states, consumed: false };
    if (!proceeds(result)) return this.peek(tenantId, plan, priors, result, states, evaluateWith);
    let marks = this.storedMarks(policy, plan, result);
    if (plan.limits.length === 0 && marks.length === 0) return { result, limits: [], states, consumed: false };
    let needs: WindowNeed[] = plan.limits;
    let used: number[] | null = null;
    for (let round = 0; round < MAX_TAKES; round++) {
      const take = await this.attempt('take', tenantId, () => this.store.take(tenantId, consultationId, storeNeeds(needs), marks));
      if (take === 'unavailable') {
        // Nothing was consumed (the statement is all or nothing); without limits the marks are lost, which
        // only ever makes a later requires_prior fire.
        if (plan.limits.length === 0) return { result, limits: [], states, consumed: false };
        return this.unavailable(plan, priors, used, evaluateWith);
      }
      used = mergeUsed(plan.limits, used, needs, take.used_before);
      if (take.taken) return { result, limits: limitEntries(plan.limits, used, needs), states, consumed: true };
      states = windowStates(plan, used, priors);
      result = evaluateWith(states);
      if (result.status !== 'complete' || !proceeds(result))
        return { result, limits: limitEntries(plan.limits, used, []), states, consumed: false };
      needs = needsThatFit(plan.limits, used);
      marks = this.storedMarks(policy, plan, result);
    }
    this.logger.warn({ tenant_id: tenantId, consultation_id: consultationId }, 'windows kept filling between takes: failing closed');
    return this.unavailable(plan, priors, used, evaluateWith);
  }

  /** Gives back what the consultation consumed when its record could not be stored (best effort: over-counting is the safe side). */
  async giveBack(tenantId: TenantId, consultationId: string): Promise<void> {
    await this.store
      .giveBack(tenantId, consultationId)
      .catch((err: unknown) =>
        this.logger.error({ err, tenant_id: tenantId, consultation_id: consultationId }, 'window consumption not given back'),
      );
  }

  private async peek(
    tenantId: TenantId,
    plan: WindowPlan,
    priors: boolean[] | 'unavailable',
    first: EvaluationResult,
    firstStates: WindowStates,
    evaluateWith: EvaluateWith,
  ): Promise<WindowDecision> {
    if (plan.limits.length === 0) return { result: first, limits: [], states: firstStates, consumed: false };
    const used = await this.attempt('peek', tenantId, () => this.store.peek(tenantId, plan.limits));
    const states = windowStates(plan, used, priors);
    return {
      result: evaluateWith(states),
      limits: used === 'unavailable' ? [] : limitEntries(plan.limits, used, []),
      states,
      consumed: false,
    };
  }

  /** Every limit `unavailable` (its rule fires); the windows read so far stay in the record. */
  private unavailable(
    plan: WindowPlan,
    priors: boolean[] | 'unavailable',
    used: number[] | null,
    evaluateWith: EvaluateWith,
  ): WindowDecision {
    const states = windowStates(plan, 'unavailable', priors);
    return { result: evaluateWith(states), limits: used === null ? [] : limitEntries(plan.limits, used, []), states, consumed: false };
  }

  private async attempt<T>(operation: string, tenantId: TenantId, run: () => Promise<T>): Promise<T | 'unavailable'> {
    try {
      return await run();
    } catch (err) {
      this.failures?.inc({ operation });
      this.logger.warn({ err, tenant_id: tenantId, operation }, 'window store unavailable: its rules fire (limit_unavailable)');
      return 'unavailable';
    }
  }

  /**
   * The marks `result` leaves (none unless leavesMarks(): a verdict string of the tenant or of a rule counts in
   * a budget but vouches for no step), each with how long it is kept: the longest `within` of the rules naming
   * its action, at least seven days.
   */
  private storedMarks(policy: CompiledPolicy, plan: WindowPlan, result: CompleteEvaluation): StoredMark[] {
    if (plan.marks.length === 0 || !leavesMarks(result)) return [];
    let keep = this.markKeep.get(policy);
    if (!keep) {
      keep = new Map();
      for (const { rule } of policy.windowRules) {
        const w = rule.window;
        if (w && !w.limit) keep.set(w.action, Math.max(keep.get(w.action) ?? 0, w.windowMs));
      }
      this.markKeep.set(policy, keep);
    }
    return plan.marks.map((m) => ({ ...m, keep_ms: Math.max(keep.get(m.action) ?? 0, MIN_EVENT_KEEP_MS) }));
  }
}

/** What each plan limit held, as last read: the take's answers for the needs it named, earlier reads for the others. */
function mergeUsed(
  limits: readonly WindowNeed[],
  before: number[] | null,
  needs: readonly WindowNeed[],
  read: readonly number[],
): number[] {
  return limits.map((n, i) => {
    const j = needs.indexOf(n);
    return j >= 0 ? read[j] : (before?.[i] ?? 0);
  });
}
