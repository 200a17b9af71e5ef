-- Windows of the rules that remember, and the outcomes callers report (docs/verdicts.md "Windows and
-- outcomes"). Hand-written (ADR 0003).
--
-- window_events: every amount an operation that went ahead consumed in a `limit` window (rule_id set), and
-- every mark it left for the `requires_prior` rules naming its action (rule_id NULL, amount 0). `at` is
-- PostgreSQL's clock_timestamp() when the take ran (microseconds): the one clock of every gateway replica.
-- window_key: `limit <rule_id> <key>` or `prior <action as JSON> <key>`, key being the canonical JSON of the
-- paths and their values. An event counts at `now` iff now - window < at, unless it was given back.
CREATE TABLE "window_events" (
  "id"              BIGSERIAL NOT NULL,
  "tenant_id"       TEXT NOT NULL,
  "window_key"      TEXT NOT NULL,
  "rule_id"         TEXT,
  "key"             TEXT NOT NULL,
  "window"          TEXT,
  "window_ms"       BIGINT,
  "at"              TIMESTAMPTZ(6) NOT NULL,
  "consultation_id" TEXT NOT NULL,
  "amount"          NUMERIC NOT NULL,
  "expires_at"      TIMESTAMPTZ(6) NOT NULL,
  "given_back_at"   TIMESTAMPTZ(6),
  CONSTRAINT "window_events_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "window_events_amount_check" CHECK ("amount" >= 0)
);
CREATE INDEX "window_events_window_idx" ON "window_events" ("tenant_id", "window_key", "at");
CREATE INDEX "window_events_consultation_idx" ON "window_events" ("tenant_id", "consultation_id");
CREATE INDEX "window_events_expires_idx" ON "window_events" ("expires_at");

-- window_totals: one row per limit window key, its running total and expiry cursor. `used` is the sum of the
-- events of window_key with at > expired_through not given back; a take moves expired_through to
-- now - window_ms, subtracting the events that left. The row is the lock of its window (every take holds
-- it FOR UPDATE). A row of another window_ms (the rule's window changed), or a new one (expired_through
-- NULL, only inside the take that creates it), starts from the sum of the events still in its window; a
-- row may be deleted at any time (pruning) for the same reason.
CREATE TABLE "window_totals" (
  "tenant_id"       TEXT NOT NULL,
  "window_key"      TEXT NOT NULL,
  "window_ms"       BIGINT NOT NULL,
  "used"            NUMERIC NOT NULL,
  "expired_through" TIMESTAMPTZ(6),
  CONSTRAINT "window_totals_pkey" PRIMARY KEY ("tenant_id", "window_key")
);
-- No index but the key: a take rewrites used and expired_through, which then stay heap-only (HOT) updates.

-- consultation_outcomes: what the caller reported of a consultation (POST .../consultations/<id>/outcome),
-- once; the record stays frozen. given_back: the window amounts given back, as answered.
CREATE TABLE "consultation_outcomes" (
  "tenant_id"       TEXT NOT NULL,
  "consultation_id" TEXT NOT NULL,
  "executed"        BOOLEAN NOT NULL,
  "given_back"      JSONB NOT NULL,
  "reported_at"     TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "consultation_outcomes_pkey" PRIMARY KEY ("tenant_id", "consultation_id")
);

-- The clock of the windows: clock_timestamp(), PostgreSQL's time when it is read (not the transaction's start).
-- A session may pin it with SET arbiter.window_now (the store's tests of the exact boundaries do); the
-- gateway never does.
CREATE FUNCTION window_now() RETURNS timestamptz
LANGUAGE sql VOLATILE AS $$
  SELECT coalesce(nullif(current_setting('arbiter.window_now', true), '')::timestamptz, clock_timestamp())
$$;

-- The take: one statement, all or nothing. Locks the totals rows of the windows in window_key order
-- (creating the missing ones), reads the clock (window_now()) once the locks are held, expires each window to
-- now - window_ms, and when every window fits (used + amount <= max) inserts the events and the marks and
-- adds the amounts. Answers whether it took, each window's used before this operation (argument order),
-- and the time. Arrays p_window_keys .. p_max are parallel (one element per window, keys distinct);
-- p_mark_* likewise (one element per mark).
CREATE FUNCTION window_take(
  p_tenant text,
  p_consultation text,
  p_window_keys text[],
  p_rule_ids text[],
  p_keys text[],
  p_windows text[],
  p_window_ms bigint[],
  p_amounts numeric[],
  p_max numeric[],
  p_mark_window_keys text[],
  p_mark_keys text[],
  p_mark_keep_ms bigint[]
) RETURNS TABLE (taken boolean, used_before numeric[], at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  n int := coalesce(array_length(p_window_keys, 1), 0);
  v_now timestamptz;
  v_used numeric[] := '{}';
  v_cursor timestamptz[] := '{}';
  v_fits boolean := true;
  v_cut timestamptz;
  v_row record;
  i int;
BEGIN
  FOR i IN SELECT u.o FROM unnest(p_window_keys) WITH ORDINALITY AS u(k, o) ORDER BY u.k COLLATE "C" LOOP
    INSERT INTO window_totals (tenant_id, window_key, window_ms, used, expired_through)
      VALUES (p_tenant, p_window_keys[i], p_window_ms[i], 0, NULL)
      ON CONFLICT (tenant_id, window_key) DO NOTHING;
    PERFORM 1 FROM window_totals t WHERE t.tenant_id = p_tenant AND t.window_key = p_window_keys[i] FOR UPDATE;
  END LOOP;
  v_now := window_now();
  -- A window's time never goes back (were PostgreSQL's clock stepped back, the take happens at the latest
  -- time a window of it has seen), so an event is never inserted before events already counted.
  SELECT greatest(v_now, max(t.expired_through + t.window_ms * interval '1 millisecond')) INTO v_now
    FROM window_totals t WHERE t.tenant_id = p_tenant AND t.window_key = ANY (p_window_keys);
  FOR i IN 1..n LOOP
    SELECT t.window_ms, t.used, t.expired_through INTO v_row
      FROM window_totals t WHERE t.tenant_id = p_tenant AND t.window_key = p_window_keys[i];
    v_cut := v_now - p_window_ms[i] * interval '1 millisecond';
    IF v_row.expired_through IS NULL OR v_row.window_ms <> p_window_ms[i] THEN
      v_used[i] := (SELECT coalesce(sum(e.amount), 0) FROM window_events e
                     WHERE e.tenant_id = p_tenant AND e.window_key = p_window_keys[i] AND e.at > v_cut AND e.given_back_at IS NULL);
      v_cursor[i] := v_cut;
    ELSIF v_row.expired_through < v_cut THEN
      v_used[i] := v_row.used - (SELECT coalesce(sum(e.amount), 0) FROM window_events e
                     WHERE e.tenant_id = p_tenant AND e.window_key = p_window_keys[i]
                       AND e.at > v_row.expired_through AND e.at <= v_cut AND e.given_back_at IS NULL);
      v_cursor[i] := v_cut;
    ELSE
      v_used[i] := v_row.used;
      v_cursor[i] := v_row.expired_through;
    END IF;
    IF v_used[i] + p_amounts[i] > p_max[i] THEN
      v_fits := false;
    END IF;
  END LOOP;
  FOR i IN 1..n LOOP
    UPDATE window_totals t
       SET window_ms = p_window_ms[i],
           used = v_used[i] + CASE WHEN v_fits THEN p_amounts[i] ELSE 0 END,
           expired_through = v_cursor[i]
     WHERE t.tenant_id = p_tenant AND t.window_key = p_window_keys[i];
  END LOOP;
  IF v_fits THEN
    INSERT INTO window_events (tenant_id, window_key, rule_id, "key", "window", window_ms, at, consultation_id, amount, expires_at)
      SELECT p_tenant, u.wk, u.rule_id, u.k, u.w, u.ms, v_now, p_consultation, u.amount,
             v_now + greatest(u.ms, 604800000) * interval '1 millisecond'
        FROM unnest(p_window_keys, p_rule_ids, p_keys, p_windows, p_window_ms, p_amounts) AS u(wk, rule_id, k, w, ms, amount);
    INSERT INTO window_events (tenant_id, window_key, rule_id, "key", "window", window_ms, at, consultation_id, amount, expires_at)
      SELECT p_tenant, u.wk, NULL, u.k, NULL, NULL, v_now, p_consultation, 0, v_now + u.keep * interval '1 millisecond'
        FROM unnest(p_mark_window_keys, p_mark_keys, p_mark_keep_ms) AS u(wk, k, keep);
  END IF;
  RETURN QUERY SELECT v_fits, v_used, v_now;
END;
$$;

-- The give-back of a consultation: every event of it not yet given back is, once. Locks the totals rows of its
-- windows in window_key order, subtracts from each the amounts it still counts (at > expired_through), and
-- answers the window amounts that were still in their window (a give-back of an event that already left it
-- changes nothing); marks are withdrawn and not answered.
CREATE FUNCTION window_give_back(p_tenant text, p_consultation text)
RETURNS TABLE (rule_id text, "key" text, "window" text, amount numeric)
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz;
BEGIN
  PERFORM 1 FROM window_totals t
    WHERE t.tenant_id = p_tenant
      AND t.window_key IN (SELECT e.window_key FROM window_events e
                            WHERE e.tenant_id = p_tenant AND e.consultation_id = p_consultation AND e.given_back_at IS NULL)
    ORDER BY t.window_key COLLATE "C" FOR UPDATE;
  v_now := window_now();
  RETURN QUERY
  WITH g AS (
    UPDATE window_events e SET given_back_at = v_now
     WHERE e.tenant_id = p_tenant AND e.consultation_id = p_consultation AND e.given_back_at IS NULL
    RETURNING e.window_key, e.rule_id, e."key", e."window", e.window_ms, e.amount, e.at
  ), counted AS (
    SELECT g.window_key, sum(g.amount) AS amount
      FROM g JOIN window_totals t ON t.tenant_id = p_tenant AND t.window_key = g.window_key
     WHERE g.rule_id IS NOT NULL AND g.at > t.expired_through
     GROUP BY g.window_key
  ), subtracted AS (
    -- A data-modifying CTE runs to completion whether or not the query reads it.
    UPDATE window_totals t SET used = t.used - c.amount
      FROM counted c WHERE t.tenant_id = p_tenant AND t.window_key = c.window_key
    RETURNING t.window_key
  )
  SELECT g.rule_id, g."key", g."window", g.amount FROM g
   WHERE g.rule_id IS NOT NULL AND g.at > v_now - g.window_ms * interval '1 millisecond'
   ORDER BY g.rule_id, g."key";
END;
$$;
