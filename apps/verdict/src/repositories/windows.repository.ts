import type { TenantId } from '@arbiter/auth';
import { sha256Hex } from '@arbiter/canonical';
import { GroupCommitWriter } from '@arbiter/db';
import type { Pool, PoolClient } from 'pg';
import type { PriorMark, PriorNeed, WindowNeed } from '@arbiter/policy';

/**
 * A mark to leave (docs/verdicts.md "Windows and outcomes"): the engine's PriorMark and how long it is
 * kept (the longest `within` of the rules naming its action).
 */
export interface StoredMark extends PriorMark {
  keep_ms: number;
}

/** What a take answers: whether every window fitted (and was consumed), and each window's use before it, in `needs` order. */
export interface TakeResult {
  taken: boolean;
  used_before: number[];
}

/** A window amount a give-back returned (the answer of POST .../consultations/<id>/outcome). */
export interface GivenBack {
  rule_id: string;
  key: string;
  window: string;
  amount: number;
}

/** A recorded outcome. */
export interface OutcomeRow {
  executed: boolean;
  given_back: GivenBack[];
  reported_at: Date;
}

/** How long a limit event is kept at least (docs/verdicts.md "Windows and outcomes"): seven days. */
export const MIN_EVENT_KEEP_MS = 7 * 86_400_000;

/**
 * The identity of a limit window's events and totals row: its rule and the SHA-256 of its key. A digest, so
 * the indexed column stays short whatever the key's values (the `key` column keeps the key itself).
 */
export const limitWindowKey = (ruleId: string, key: string): string => `limit ${ruleId} ${sha256Hex(key)}`;
/** The identity of the marks of an action on a key: the SHA-256 of both. */
export const markWindowKey = (action: string, key: string): string => `prior ${sha256Hex(`${JSON.stringify(action)} ${key}`)}`;

const num = (v: string | number): number => (typeof v === 'number' ? v : Number(v));

/** Takes and peeks gathered into one call at most (docs/verdicts.md "Windows and outcomes"). */
export const MAX_TAKE_BATCH = 256;

/** A take waiting for its batch; `result` is set once the batch committed. */
interface PendingTake {
  tenantId: TenantId;
  consultationId: string;
  needs: readonly WindowNeed[];
  marks: readonly StoredMark[];
  result?: TakeResult;
}

/** A peek waiting for its batch; `used` is set once the batch answered. */
interface PendingPeek {
  tenantId: TenantId;
  needs: readonly WindowNeed[];
  used?: number[];
}

/** A number the take function reads: finite, and for an amount not negative (a negative amount would give budget back). */
const checkNumber = (what: string, v: number, min = -Infinity): void => {
  if (!Number.isFinite(v) || v < min) throw new Error(`a take's ${what} must be a finite number${min === 0 ? ' >= 0' : ''}`);
};

/**
 * A window length the batch reads as a bigint: a whole number of milliseconds >= 1. Checked before the operation
 * joins a batch, since a value the database refuses would fail the whole batch, other tenants' operations with it.
 */
const checkWindowMs = (v: number): void => {
  if (!Number.isSafeInteger(v) || v < 1) throw new Error("a window's window_ms must be a whole number of milliseconds >= 1");
};

/** The arguments of window_take_batch for a batch of takes: its distinct totals rows, and the takes naming them. */
function takeBatchArguments(takes: readonly PendingTake[]): [rows: string, takes: string] {
  const rowIndex = new Map<string, number>();
  const rows: [string, string][] = [];
  const args = takes.map((op) => ({
    t: op.tenantId,
    c: op.consultationId,
    w: op.needs.map((n) => {
      const windowKey = limitWindowKey(n.rule_id, n.key);
      const id = JSON.stringify([op.tenantId, windowKey]);
      let row = rowIndex.get(id);
      if (row === undefined) {
        rows.push([op.tenantId, windowKey]);
        row = rows.length;
        rowIndex.set(id, row);
      }
      return [row, n.rule_id, n.key, n.window, n.window_ms, n.amount, n.max];
    }),
    m: op.marks.map((m) => [markWindowKey(m.action, m.key), m.key, m.keep_ms]),
  }));
  return [JSON.stringify(rows), JSON.stringify(args)];
}

/** The arguments of window_peek_batch for a batch of peeks: their windows as parallel arrays, numbered by peek. */
function peekBatchArguments(peeks: readonly PendingPeek[]): [peek: number[], tenant: string[], windowKey: string[], windowMs: number[]] {
  const args: [number[], string[], string[], number[]] = [[], [], [], []];
  peeks.forEach((op, i) => {
    for (const n of op.needs) {
      args[0].push(i + 1);
      args[1].push(op.tenantId);
      args[2].push(limitWindowKey(n.rule_id, n.key));
      args[3].push(n.window_ms);
    }
  });
  return args;
}

/**
 * The windows of the rules that remember (docs/verdicts.md "Windows and outcomes"), in the verdict
 * database. Takes are gathered: those that arrive while the previous batch of takes is in flight go together
 * as one call of the SQL function window_take_batch (one statement, one durable commit), which locks every
 * totals row of the batch in a fixed order, expires them on PostgreSQL's clock, and decides the takes in
 * arrival order, each consuming every window or none. Peeks are gathered the same way, apart from the takes (a peek never waits for a take's commit): one call of
 * window_peek_batch reads every window of the batch's peeks without a lock and writes nothing. The pool is the
 * gateway's window pool, whose connections carry lock_timeout and statement_timeout (WINDOW_TIMEOUT_MS): any
 * error or timeout rejects every operation of the batch, and their callers fail closed.
 */
export class WindowRepository {
  private readonly takes: GroupCommitWriter<PendingTake>;
  private readonly peeks: GroupCommitWriter<PendingPeek>;
  private readonly onBatch?: (takes: number) => void;

  constructor(
    private readonly pool: Pool,
    opts: { maxBatch?: number; maxInFlight?: number; onBatch?: (takes: number) => void } = {},
  ) {
    this.onBatch = opts.onBatch;
    const gathering = { maxBatch: opts.maxBatch ?? MAX_TAKE_BATCH, maxInFlight: opts.maxInFlight ?? 1 };
    this.takes = new GroupCommitWriter((batch) => this.runTakes(batch), gathering);
    this.peeks = new GroupCommitWriter((batch) => this.runPeeks(batch), gathering);
  }

  /**
   * Consumes `needs` (each window's amount) and leaves `marks` for `consultationId`, all or nothing: taken
   * only when every window fits (used + amount <= max) at PostgreSQL's clock_timestamp() once the windows
   * are locked. Answered once the batch holding it committed.
   */
  async take(tenantId: TenantId, consultationId: string, needs: readonly WindowNeed[], marks: readonly StoredMark[]): Promise<TakeResult> {
    if (new Set(needs.map((n) => n.rule_id)).size !== needs.length) throw new Error('a take names each rule once');
    for (const n of needs) {
      checkNumber('amount', n.amount, 0);
      checkNumber('max', n.max);
      checkWindowMs(n.window_ms);
    }
    for (const m of marks) checkNumber('keep_ms', m.keep_ms, 0);
    const pending: PendingTake = { tenantId, consultationId, needs, marks };
    await this.takes.write(pending);
    if (!pending.result) throw new Error('the window batch answered no row for a take');
    return pending.result;
  }

  /**
   * Each window's use now (`needs` order), without a lock and without writing: what the trace and the
   * record of an operation that does not go ahead say. Gathered with the other peeks in flight (one call);
   * it may lag a take running meanwhile.
   */
  async peek(tenantId: TenantId, needs: readonly WindowNeed[]): Promise<number[]> {
    if (needs.length === 0) return [];
    for (const n of needs) checkWindowMs(n.window_ms);
    const pending: PendingPeek = { tenantId, needs };
    await this.peeks.write(pending);
    if (!pending.used || pending.used.length !== needs.length) throw new Error('the window batch answered no row for a peek');
    return pending.used;
  }

  /** Finishes the takes and peeks accepted (graceful shutdown). */
  async drain(): Promise<void> {
    await Promise.all([this.takes.close(), this.peeks.close()]);
  }

  /** One call of window_take_batch for gathered takes: every one of them commits or none does. */
  private async runTakes(batch: PendingTake[]): Promise<void> {
    this.onBatch?.(batch.length);
    const { rows } = await this.pool.query<{ n: number; taken: boolean; used: number[] }>({
      name: 'window-take-batch',
      text: 'SELECT take AS n, taken, used_before::float8[] AS used FROM window_take_batch($1::jsonb, $2::jsonb)',
      values: takeBatchArguments(batch),
    });
    for (const r of rows) batch[r.n - 1].result = { taken: r.taken === true, used_before: r.used.map(num) };
  }

  /** One call of window_peek_batch for gathered peeks: no lock, nothing written. */
  private async runPeeks(batch: PendingPeek[]): Promise<void> {
    const { rows } = await this.pool.query<{ n: number; used: number[] }>({
      name: 'window-peek-batch',
      text: 'SELECT n, used::float8[] AS used FROM window_peek_batch($1::int[], $2::text[], $3::text[], $4::bigint[])',
      values: peekBatchArguments(batch),
    });
    for (const r of rows) batch[r.n - 1].used = r.used.map(num);
  }

  /** Whether each prior was found (`needs` order, the SQL function window_priors): a mark of its action on its key, not given back, within its period. */
  async priors(tenantId: TenantId, needs: readonly PriorNeed[]): Promise<boolean[]> {
    if (needs.length === 0) return [];
    const { rows } = await this.pool.query<{ found: boolean }>({
      name: 'window-priors',
      text: 'SELECT present AS found FROM window_priors($1, $2::text[], $3::bigint[])',
      values: [tenantId, needs.map((n) => markWindowKey(n.action, n.key)), needs.map((n) => n.within_ms)],
    });
    return rows.map((r) => r.found);
  }

  /**
   * Gives back every event of the consultation not given back yet (its window amounts and its marks),
   * once; answers the amounts that were still in their window.
   */
  async giveBack(tenantId: TenantId, consultationId: string, client: Pool | PoolClient = this.pool): Promise<GivenBack[]> {
    const { rows } = await client.query<{ rule_id: string; key: string; window: string; amount: number }>(
      'SELECT rule_id, key, "window", amount::float8 AS amount FROM window_give_back($1, $2)',
      [tenantId, consultationId],
    );
    return rows.map((r) => ({ rule_id: r.rule_id, key: r.key, window: r.window, amount: num(r.amount) }));
  }

  /** The outcome reported of a consultation, if any. */
  async findOutcome(tenantId: TenantId, consultationId: string): Promise<OutcomeRow | null> {
    const { rows } = await this.pool.query<OutcomeRow>(
      'SELECT executed, given_back, reported_at FROM consultation_outcomes WHERE tenant_id = $1 AND consultation_id = $2',
      [tenantId, consultationId],
    );
    return rows[0] ?? null;
  }

  /**
   * Records the outcome of a consultation, once, and with `executed: false` gives its events back in the
   * same transaction. Answers the outcome now stored: the one written, or the one an earlier report wrote
   * (the caller compares `executed`).
   */
  async reportOutcome(tenantId: TenantId, consultationId: string, executed: boolean): Promise<{ outcome: OutcomeRow; created: boolean }> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const inserted = await client.query<OutcomeRow>(
        `INSERT INTO consultation_outcomes (tenant_id, consultation_id, executed, given_back, reported_at)
         VALUES ($1, $2, $3, '[]', now()) ON CONFLICT (tenant_id, consultation_id) DO NOTHING
         RETURNING executed, given_back, reported_at`,
        [tenantId, consultationId, executed],
      );
      let outcome = inserted.rows[0];
      const created = outcome !== undefined;
      if (created && !executed) {
        const givenBack = await this.giveBack(tenantId, consultationId, client);
        await client.query('UPDATE consultation_outcomes SET given_back = $3 WHERE tenant_id = $1 AND consultation_id = $2', [
          tenantId,
          consultationId,
          JSON.stringify(givenBack),
        ]);
        outcome = { ...outcome, given_back: givenBack };
      }
      if (!created) {
        const { rows } = await client.query<OutcomeRow>(
          'SELECT executed, given_back, reported_at FROM consultation_outcomes WHERE tenant_id = $1 AND consultation_id = $2',
          [tenantId, consultationId],
        );
        outcome = rows[0];
      }
      await client.query('COMMIT');
      return { outcome, created };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * One batch of pruning, every tenant (a maintenance job, never in a request): totals rows idle for longer
   * than their window (every event they counted has left; a later take rebuilds the row from the events),
   * then events past expires_at that no totals row still counts. Answers the rows deleted.
   */
  async pruneAnyTenant(batch: number): Promise<{ totals: number; events: number }> {
    const totals = await this.pool.query(
      `DELETE FROM window_totals WHERE (tenant_id, window_key) IN (
         SELECT tenant_id, window_key FROM window_totals
          WHERE expired_through < (SELECT window_now()) - 2 * window_ms * interval '1 millisecond'
          LIMIT $1)
         AND expired_through < (SELECT window_now()) - 2 * window_ms * interval '1 millisecond'`,
      [batch],
    );
    const events = await this.pool.query(
      `DELETE FROM window_events WHERE id IN (
         SELECT e.id FROM window_events e
           LEFT JOIN window_totals t ON t.tenant_id = e.tenant_id AND t.window_key = e.window_key
          WHERE e.expires_at < (SELECT window_now()) AND (t.window_key IS NULL OR e.at <= t.expired_through)
          LIMIT $1)`,
      [batch],
    );
    return { totals: totals.rowCount ?? 0, events: events.rowCount ?? 0 };
  }
}
