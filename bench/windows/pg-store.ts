// The PostgreSQL window store as docs/adr/0033-windows-in-postgresql.md describes it, as a prototype for the
// microbenchmark: a running total per window with an expiry cursor (window_totals), the exact events
// (window_events), and a take that is one call of a PL/pgSQL function: create the missing totals, lock them
// in key order, expire what left each window since its cursor, check that every window fits, then insert
// the events and move the totals, all or nothing, at PostgreSQL's clock read after the locks are held.
import fs from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';

export const PG_SCHEMA = `
CREATE TABLE IF NOT EXISTS window_totals (
  tenant_id text NOT NULL,
  window_key text NOT NULL,
  window_ms bigint NOT NULL,
  used numeric NOT NULL,
  expired_through timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, window_key)
);
CREATE TABLE IF NOT EXISTS window_events (
  tenant_id text NOT NULL,
  window_key text NOT NULL,
  at timestamptz NOT NULL,
  consultation_id text NOT NULL,
  amount numeric NOT NULL,
  expires_at timestamptz NOT NULL,
  given_back_at timestamptz,
  PRIMARY KEY (tenant_id, window_key, at, consultation_id)
);
CREATE INDEX IF NOT EXISTS window_events_consultation ON window_events (tenant_id, consultation_id);
CREATE INDEX IF NOT EXISTS window_events_expires ON window_events (expires_at);

CREATE OR REPLACE FUNCTION bench_window_take(
  p_tenant text, p_consultation text, p_keys text[], p_window_ms bigint[], p_amounts numeric[], p_max numeric[]
) RETURNS TABLE (taken boolean, used_before numeric[]) LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz;
  v_used numeric[];
  v_fits boolean;
BEGIN
  INSERT INTO window_totals (tenant_id, window_key, window_ms, used, expired_through)
    SELECT p_tenant, n.k, n.w, 0, '-infinity' FROM unnest(p_keys, p_window_ms) AS n (k, w) ORDER BY n.k
    ON CONFLICT (tenant_id, window_key) DO NOTHING;
  -- One fixed order for every caller: two takes sharing windows queue, they never deadlock.
  PERFORM 1 FROM window_totals WHERE tenant_id = p_tenant AND window_key = ANY (p_keys) ORDER BY window_key FOR UPDATE;
  -- Read after the locks: a window's events are stamped in the order their takes committed.
  v_now := clock_timestamp();
  SELECT array_agg(t.used - coalesce(x.gone, 0) ORDER BY n.ord), bool_and(t.used - coalesce(x.gone, 0) + n.amount <= n.max)
    INTO v_used, v_fits
    FROM unnest(p_keys, p_amounts, p_max) WITH ORDINALITY AS n (k, amount, max, ord)
    JOIN window_totals t ON t.tenant_id = p_tenant AND t.window_key = n.k
    LEFT JOIN LATERAL (
      SELECT sum(e.amount) AS gone FROM window_events e
       WHERE e.tenant_id = p_tenant AND e.window_key = t.window_key AND e.given_back_at IS NULL
         AND e.at > t.expired_through AND e.at <= v_now - t.window_ms * interval '1 millisecond'
    ) x ON true;
  IF v_fits THEN
    INSERT INTO window_events (tenant_id, window_key, at, consultation_id, amount, expires_at)
      SELECT p_tenant, n.k, v_now, p_consultation, n.amount, v_now + n.w * interval '1 millisecond'
        FROM unnest(p_keys, p_amounts, p_window_ms) AS n (k, amount, w);
    UPDATE window_totals t SET used = n.before + n.amount, expired_through = v_now - t.window_ms * interval '1 millisecond'
      FROM unnest(p_keys, v_used, p_amounts) AS n (k, before, amount)
     WHERE t.tenant_id = p_tenant AND t.window_key = n.k;
  END IF;
  RETURN QUERY SELECT v_fits, v_used;
END $$;

-- The same take for a batch of operations in one call and one commit (group commit): every window of the batch
-- locked once in key order, then each operation all or nothing, in the batch's order, at one clock reading.
-- p_take gives each need's operation (1-based, ascending); p_consultations one id per operation.
CREATE OR REPLACE FUNCTION bench_window_take_batch(
  p_tenant text, p_consultations text[], p_take int[], p_keys text[], p_window_ms bigint[], p_amounts numeric[], p_max numeric[]
) RETURNS TABLE (take int, taken boolean, used_before numeric[]) LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz;
  v_used numeric[];
  v_fits boolean;
  i int;
BEGIN
  INSERT INTO window_totals (tenant_id, window_key, window_ms, used, expired_through)
    SELECT DISTINCT ON (n.k) p_tenant, n.k, n.w, 0, '-infinity'::timestamptz FROM unnest(p_keys, p_window_ms) AS n (k, w) ORDER BY n.k
    ON CONFLICT (tenant_id, window_key) DO NOTHING;
  PERFORM 1 FROM window_totals WHERE tenant_id = p_tenant AND window_key = ANY (p_keys) ORDER BY window_key FOR UPDATE;
  v_now := clock_timestamp();
  FOR i IN 1 .. coalesce(array_length(p_consultations, 1), 0) LOOP
    SELECT array_agg(t.used - coalesce(x.gone, 0) ORDER BY n.ord), bool_and(t.used - coalesce(x.gone, 0) + n.amount <= n.max)
      INTO v_used, v_fits
      FROM unnest(p_take, p_keys, p_amounts, p_max) WITH ORDINALITY AS n (op, k, amount, max, ord)
      JOIN window_totals t ON t.tenant_id = p_tenant AND t.window_key = n.k
      LEFT JOIN LATERAL (
        SELECT sum(e.amount) AS gone FROM window_events e
         WHERE e.tenant_id = p_tenant AND e.window_key = t.window_key AND e.given_back_at IS NULL
           AND e.at > t.expired_through AND e.at <= v_now - t.window_ms * interval '1 millisecond'
      ) x ON true
     WHERE n.op = i;
    IF v_fits THEN
      INSERT INTO window_events (tenant_id, window_key, at, consultation_id, amount, expires_at)
        SELECT p_tenant, n.k, v_now, p_consultations[i], n.amount, v_now + n.w * interval '1 millisecond'
          FROM unnest(p_take, p_keys, p_amounts, p_window_ms) AS n (op, k, amount, w) WHERE n.op = i;
      UPDATE window_totals t SET used = v_used[n.j] + n.amount, expired_through = v_now - t.window_ms * interval '1 millisecond'
        FROM (SELECT u.k, u.amount, row_number() OVER (ORDER BY u.ord) AS j
                FROM unnest(p_take, p_keys, p_amounts) WITH ORDINALITY AS u (op, k, amount, ord) WHERE u.op = i) n
       WHERE t.tenant_id = p_tenant AND t.window_key = n.k;
    END IF;
    take := i; taken := v_fits; used_before := v_used;
    RETURN NEXT;
  END LOOP;
END $$;
`;

export interface TakeNeed {
  key: string;
  windowMs: number;
  amount: number;
  max: number;
}

export interface TakeResult {
  taken: boolean;
  usedBefore: number[];
}

/** One take through the prototype function: one statement, its own transaction. */
export async function pgTake(pool: Pool, tenant: string, consultation: string, needs: TakeNeed[]): Promise<TakeResult> {
  const { rows } = await pool.query('SELECT taken, used_before FROM bench_window_take($1, $2, $3, $4, $5, $6)', [
    tenant,
    consultation,
    needs.map((n) => n.key),
    needs.map((n) => n.windowMs),
    needs.map((n) => n.amount),
    needs.map((n) => n.max),
  ]);
  return { taken: rows[0].taken, usedBefore: (rows[0].used_before as string[]).map(Number) };
}

/**
 * Takes gathered while the previous batch is in flight, sent as one call of the batch function (one commit for
 * all of them): how a store could amortise the commit's fsync and the hot window's lock over concurrent checks.
 */
export function pgBatcher(pool: Pool, tenant: string, maxBatch = 256) {
  let queue: Array<{ consultation: string; needs: TakeNeed[]; done: (r: TakeResult) => void; fail: (e: unknown) => void }> = [];
  let inFlight = false;
  const flush = async () => {
    if (inFlight || queue.length === 0) return;
    inFlight = true;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    const take = batch.flatMap((b, i) => b.needs.map(() => i + 1));
    const needs = batch.flatMap((b) => b.needs);
    try {
      const { rows } = await pool.query('SELECT take, taken, used_before FROM bench_window_take_batch($1, $2, $3, $4, $5, $6, $7)', [
        tenant,
        batch.map((b) => b.consultation),
        take,
        needs.map((n) => n.key),
        needs.map((n) => n.windowMs),
        needs.map((n) => n.amount),
        needs.map((n) => n.max),
      ]);
      for (const r of rows) batch[r.take - 1].done({ taken: r.taken, usedBefore: (r.used_before as string[]).map(Number) });
    } catch (err) {
      for (const b of batch) b.fail(err);
    } finally {
      inFlight = false;
      void flush();
    }
  };
  return (consultation: string, needs: TakeNeed[]) =>
    new Promise<TakeResult>((done, fail) => {
      queue.push({ consultation, needs, done, fail });
      void flush();
    });
}

/** The verdict database's migrations; the product stores run those of the window store (below). */
export const VERDICT_MIGRATIONS = 'prisma/verdict/migrations';

/**
 * The migrations of the window store as the gateway's database has them: every verdict migration whose folder
 * names windows, in order (20261230110000_windows made the tables and the first window_take_batch; later ones
 * replaced its functions). Running the first alone would measure a window_take_batch the gateway no longer calls.
 */
export function productMigrations(migrationsDir: string): string[] {
  return fs
    .readdirSync(migrationsDir)
    .filter((name) => /window/.test(name))
    .sort()
    .map((name) => path.join(migrationsDir, name, 'migration.sql'));
}

export async function productTake(pool: Pool, tenant: string, consultation: string, needs: TakeNeed[]): Promise<TakeResult> {
  const { rows } = await pool.query('SELECT taken, used_before FROM window_take_batch($1, $2)', [
    JSON.stringify(needs.map((n) => [tenant, `limit rul-bench ${n.key}`])),
    JSON.stringify([
      {
        t: tenant,
        c: consultation,
        w: needs.map((n, i) => [i + 1, 'rul-bench', n.key, `${n.windowMs / 1000}s`, n.windowMs, n.amount, n.max]),
        m: [],
      },
    ]),
  ]);
  return { taken: rows[0].taken, usedBefore: (rows[0].used_before as string[]).map(Number) };
}
