import { AppError } from '@arbiter/http';
import { hasPermission, type AuthenticatedIdentity, type TenantId } from '@arbiter/auth';
import type { TenantState } from '@arbiter/internal-api';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { clockMs, earlier, evaluate, type CompiledPolicy, type Deadline, type EvaluationRequest } from '@arbiter/policy';
import { requireAnyPermission } from '../domain/tenant-access';
import { invalid, parseSimulationRequest } from '../domain/simulation-request';
import { engineContext } from '../domain/ledger-citation';
import { EMPTY } from '../domain/evaluation-answer';
import { buildSnapshot, SnapshotBuildError } from '../domain/tenant-snapshot';
import {
  applyChanges,
  changeTouching,
  enforcedState,
  outcomeOf,
  SimulationChangeError,
  SimulationTally,
  WindowReplay,
  type ParsedChange,
} from '../domain/simulation';
import type { SimulationResult } from '../models/simulations';
import type { ConsultationPosition, ConsultationRepository, ReplayOrder, ReplayRow } from '../repositories/consultations.repository';
import type { SensitiveValuesService } from './sensitive-values.service';
import type { SnapshotStore } from './snapshot-store.service';
import { EvaluationBudget } from './evaluation-budget.service';

export interface SimulationDeps {
  snapshots: SnapshotStore;
  consultations: ConsultationRepository;
  /** Consultations read per keyset page (default 1000). */
  pageSize?: number;
  /** docs/verdicts.md "Evaluation budget" (EVALUATION_BUDGET_MS, SIMULATION_BUDGET_MS); absent: the defaults. */
  budget?: EvaluationBudget;
  /**
   * Puts a replayed consultation's sensitive values back (docs/verdicts.md "Sensitive fields"); an erased one is
   * absent. Without it, a record's commitments are replayed as they are stored.
   */
  sensitive?: SensitiveValuesService;
  now?: () => number;
}

/**
 * Replays run in slices of about this many milliseconds; between two slices the event loop serves
 * whatever waits (other tenants' checks). docs/verdicts.md "Simulation", "Limits".
 */
export const SIMULATION_SLICE_MS = 10;

/**
 * POST /<tenant_id>/v1/simulations (docs/verdicts.md "Simulation"): the window's stored consultations
 * replayed against the tenant's current snapshot ("before") and against it plus the proposed changes
 * ("after"), both compiled once, at one instant. Reads keyset pages (the next one is fetched while the
 * current one is evaluated), so memory holds two pages whatever the window (plus, with rules that
 * remember, each policy's in-memory windows); writes nothing.
 */
export class SimulationService {
  private readonly now: () => number;
  private readonly pageSize: number;
  private readonly budget: EvaluationBudget;

  constructor(private readonly deps: SimulationDeps) {
    this.now = deps.now ?? Date.now;
    this.pageSize = deps.pageSize ?? 1000;
    this.budget = deps.budget ?? new EvaluationBudget();
  }

  async simulate(identity: AuthenticatedIdentity, tenantParam: string, rawBody: unknown): Promise<SimulationResult> {
    requireAnyPermission(identity, ['manage_rules']);
    // A simulation replays every consultation of the tenant, whatever scope governs it: not for a key restricted to
    // some scopes (docs/verdicts.md "Simulation").
    if (identity.scope_ids.length > 0)
      throw new AppError(
        403,
        'insufficient_permission',
        'A key restricted to some scopes cannot simulate: a simulation replays every scope',
        {
          key_scope_ids: identity.scope_ids,
        },
      );
    const now = new Date(this.now());
    const body = parseSimulationRequest(rawBody, now);
    const snapshot = await this.deps.snapshots.forCaller(identity, tenantParam);
    const tenantId = snapshot.tenantId;

    const before = snapshot.policy;
    const after = this.afterPolicy(snapshot.state, body.changes, now);
    // Rules that remember are replayed in time order, each policy with its own windows (docs/verdicts.md
    // "Simulation"); without any, newest first as ever.
    const windows = before.hasWindows || after.hasWindows ? { before: new WindowReplay(before), after: new WindowReplay(after) } : null;
    const order: ReplayOrder = windows ? 'oldest_first' : 'newest_first';
    const tally = new SimulationTally(body.sampleLimit, order);
    const { since, until, last } = body.window;
    // Past a budget, 503 evaluation_budget_exceeded (docs/verdicts.md "Evaluation budget"): no partial answer.
    // The plain values only for a caller who may read them: a proposed rule would otherwise tell a manage_rules
    // caller a sensitive value one guess at a time (docs/verdicts.md "Sensitive fields").
    const plain = hasPermission(identity, 'read');
    const replayed = this.replay(tenantId, { since, until }, last, order, plain, (row, total) => {
      const request: EvaluationRequest = {
        // As it was evaluated: a resolve record's rules below the one that decided were never asked about.
        mode: row.operation === 'resolve' ? 'resolve' : 'check',
        action: row.action,
        resource: row.resource ?? '',
        scope: row.scope_used ?? EMPTY,
        parameters: row.parameters ?? EMPTY,
        // A cited field counts as the verified ledger Fact it was when decided (the citation is in the record).
        context: engineContext(row.context_snapshot ?? EMPTY, row.ledger_citations),
        principal: row.caller_principal_id,
        on_behalf_of: row.on_behalf_of ?? null,
      };
      // One replay (both evaluations) within the evaluation budget, all of them within the simulation's.
      const deadline = earlier(this.budget.start(), total);
      const was = windows ? windows.before.decide(row, request, now, deadline) : evaluate(before, request, now, null, deadline);
      const would = windows ? windows.after.decide(row, request, now, deadline) : evaluate(after, request, now, null, deadline);
      tally.add(row, outcomeOf(was), outcomeOf(would));
    });
    await replayed.catch((err: unknown) => {
      throw this.budget.refusal('simulation', tenantId, err);
    });
    return {
      ...tally.result(),
      window: { since: since.toISOString(), until: until.toISOString(), last },
      evaluated_at: now.toISOString(),
    };
  }

  /** The rows with their sensitive values back in place (erased ones absent); rows without any as they are. */
  private async withPlainValues(tenantId: TenantId, rows: ReplayRow[], memo: Map<string, Promise<string | null>>): Promise<ReplayRow[]> {
    const sensitive = this.deps.sensitive;
    if (!sensitive || !rows.some((r) => r.sealed_values)) return rows;
    return Promise.all(
      rows.map(async (row) => {
        if (!row.sealed_values) return row;
        const plain = await sensitive.restore(
          tenantId,
          row.id,
          row.sealed_values,
          row.parameters ?? EMPTY,
          row.context_snapshot ?? EMPTY,
          memo,
        );
        return { ...row, parameters: plain.parameters, context_snapshot: plain.context };
      }),
    );
  }

  /** The changed state's policy; a state the engine cannot compile is the change's fault (400). */
  private afterPolicy(state: TenantState, changes: readonly ParsedChange[], now: Date): CompiledPolicy {
    try {
      return buildSnapshot(enforcedState(applyChanges(state, changes, now))).policy;
    } catch (err) {
      if (err instanceof SimulationChangeError) throw invalid(err.field, err.message);
      if (err instanceof SnapshotBuildError) {
        const change = changeTouching(changes, err.subject);
        throw invalid(change ? `changes[${change.index}]` : 'changes', `the changed rules cannot be evaluated: ${err.message}`);
      }
      throw err;
    }
  }

  /**
   * Streams the window's newest `last` consultations (all without `last`), newest first or oldest first,
   * one page ahead of the evaluation, replaying in slices of SIMULATION_SLICE_MS between which the event
   * loop serves other requests. `each` gets the deadline of the simulation budget: the engine time of the
   * slices so far counts against it (not the waits for PostgreSQL, nor other requests served between slices).
   */
  private async replay(
    tenantId: TenantId,
    window: { since: Date; until: Date },
    last: number | null,
    order: ReplayOrder,
    /** Whether the rows get their sensitive values back; else they are replayed with their commitments, as stored. */
    plain: boolean,
    each: (row: ReplayRow, total: Deadline) => void,
  ): Promise<void> {
    const budgetMs = this.budget.simulationMs;
    let usedMs = 0;
    let remaining = last ?? Number.POSITIVE_INFINITY;
    const memo = new Map<string, Promise<string | null>>();
    const fetch = (after?: ConsultationPosition): Promise<{ rows: ReplayRow[]; limit: number }> => {
      const limit = Math.min(this.pageSize, remaining);
      const page = this.deps.consultations
        .replayPage(tenantId, window, limit, after, order)
        .then((rows) => (plain ? this.withPlainValues(tenantId, rows, memo) : rows))
        .then((rows) => ({ rows, limit }));
      page.catch(() => undefined); // awaited below; never an unhandled rejection if evaluation throws first
      return page;
    };
    // Oldest first, the newest `last` start after the one just older than them.
    const start = order === 'oldest_first' && last !== null ? await this.deps.consultations.replayStart(tenantId, window, last) : undefined;
    let next: Promise<{ rows: ReplayRow[]; limit: number }> | null = fetch(start);
    while (next) {
      const { rows, limit }: { rows: ReplayRow[]; limit: number } = await next;
      remaining -= rows.length;
      const tail = rows[rows.length - 1];
      next = rows.length === limit && remaining > 0 ? fetch({ requested_at: tail.requested_at, id: tail.id }) : null;
      for (let i = 0; i < rows.length;) {
        const sliceStart = clockMs();
        const total: Deadline = { at: sliceStart + budgetMs - usedMs, budgetMs, kind: 'simulation' };
        do each(rows[i++], total);
        while (i < rows.length && clockMs() - sliceStart < SIMULATION_SLICE_MS);
        usedMs += clockMs() - sliceStart;
        if (i < rows.length) await yieldToEventLoop();
      }
    }
  }
}
