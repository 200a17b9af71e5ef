-- Windows of the rules that remember, and the outcomes callers report (docs/verdicts.md "Windows and
-- outcomes"). Hand-written (ADR 0003).
--
-- window_events: every amount an operation that went ahead consumed in a `limit` window (rule_id set), and
-- every mark it left for the `requires_prior` rules naming its action (rule_id NULL, amount 0). `at` is
-- PostgreSQL's clock_timestamp() when the take ran (microseconds): the one clock of every gateway replica.
-- window_key: `limit <rule_id> <sha256 of key>` or `prior <sha256 of action as JSON, space, key>`, key being the canonical JSON of the
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
-- consultation_id first: a query of one window (tenant_id and window_key) can only take window_events_window_idx;
-- with tenant_id first the planner may scan all of a tenant's events through this index instead (it did, on a
-- table whose statistics were young).
CREATE INDEX "window_events_consultation_idx" ON "window_events" ("consultation_id", "tenant_id");
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

-- The takes: one statement, one transaction and one commit for a batch of operations (the gateway gathers the
-- takes that arrive while its previous batch is in flight), each operation all or nothing. p_takes is a JSON array
-- of operations {"t": tenant, "c": consultation id, "w": [window], "m": [mark]}; a window is
-- [row, rule_id, key, window, window_ms, amount, max], row being the 1-based index of its totals row in p_rows;
-- a mark is [window_key, key, keep_ms]. p_rows is a JSON array of the batch's totals rows [tenant, window_key],
-- distinct, each window of an operation naming a distinct row.
--
-- It first locks every totals row of the batch, in (tenant_id, window_key) order, creating the missing ones in
-- that same order (one statement: the insert that meets an existing row locks it without writing it), so two
-- batches never wait for each other in a cycle; window_give_back locks in the same order. Then it reads the clock
-- (window_now()) once and decides the operations in their order in p_takes, each exactly as if it ran alone at
-- that time: its time never goes back (the latest time any of its windows has seen), each of its windows is
-- expired to its time - window_ms (a new row, or a row of another window length, is rebuilt from the events still
-- in the window), and when every window fits (used + amount <= max; a missing or unreadable number never fits) its
-- amounts are added and its events and marks kept. The totals rows are written once at the end, the events in as
-- few inserts as the reads of window_events need. Answers one row per operation, in order: whether it took, each
-- of its windows' use before it (window order), and its time.
CREATE FUNCTION window_take_batch(p_rows jsonb, p_takes jsonb)
RETURNS TABLE (take int, taken boolean, used_before numeric[], at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  n_rows int := jsonb_array_length(p_rows);
  r_tenant text[];
  r_key text[];
  r_ms bigint[];
  r_used numeric[];
  r_cursor timestamptz[];
  -- Whether a row has events not inserted yet.
  r_pending boolean[] := array_fill(false, ARRAY[jsonb_array_length(p_rows)]);
  -- Events and marks not inserted yet.
  e_tenant text[] := '{}';
  e_key text[] := '{}';
  e_rule text[] := '{}';
  e_k text[] := '{}';
  e_window text[] := '{}';
  e_ms bigint[] := '{}';
  e_at timestamptz[] := '{}';
  e_consultation text[] := '{}';
  e_amount numeric[] := '{}';
  e_expires timestamptz[] := '{}';
  v_clock timestamptz;
  v_now timestamptz;
  v_take jsonb;
  v_w jsonb;
  v_m jsonb;
  v_tenant text;
  v_fits boolean;
  v_used numeric[];
  v_cursor timestamptz[];
  -- The current operation's windows: totals row, rule, key, window, length, amount, max.
  v_rows int[];
  w_rule text[];
  w_k text[];
  w_window text[];
  w_ms bigint[];
  w_amount numeric[];
  w_max numeric[];
  n_w int;
  v_ms bigint;
  v_cut timestamptz;
  v_key text;
  v_from timestamptz;
  i int;
  j int;
  r int;
BEGIN
  INSERT INTO window_totals (tenant_id, window_key, window_ms, used, expired_through)
    SELECT x.r ->> 0, x.r ->> 1, 0, 0, NULL FROM jsonb_array_elements(p_rows) AS x(r)
     ORDER BY (x.r ->> 0) COLLATE "C", (x.r ->> 1) COLLATE "C"
    ON CONFLICT (tenant_id, window_key) DO UPDATE SET used = window_totals.used WHERE false;
  SELECT array_agg(x.r ->> 0 ORDER BY x.o), array_agg(x.r ->> 1 ORDER BY x.o), array_agg(t.window_ms ORDER BY x.o),
         array_agg(t.used ORDER BY x.o), array_agg(t.expired_through ORDER BY x.o)
    INTO r_tenant, r_key, r_ms, r_used, r_cursor
    FROM jsonb_array_elements(p_rows) WITH ORDINALITY AS x(r, o)
    JOIN window_totals t ON t.tenant_id = x.r ->> 0 AND t.window_key = x.r ->> 1;
  IF coalesce(array_length(r_key, 1), 0) <> n_rows THEN
    RAISE EXCEPTION 'window_take_batch: a totals row of the batch is missing';
  END IF;
  v_clock := window_now();
  FOR i IN 0 .. jsonb_array_length(p_takes) - 1 LOOP
    v_take := p_takes -> i;
    v_tenant := v_take ->> 't';
    v_rows := '{}';
    w_rule := '{}';
    w_k := '{}';
    w_window := '{}';
    w_ms := '{}';
    w_amount := '{}';
    w_max := '{}';
    v_used := '{}';
    v_cursor := '{}';
    v_fits := true;
    -- Its time never goes back (were PostgreSQL's clock stepped back, it takes at the latest time one of its
    -- windows has seen), so an event is never inserted before events already counted.
    v_now := v_clock;
    FOR v_w IN SELECT * FROM jsonb_array_elements(v_take -> 'w') LOOP
      r := (v_w ->> 0)::int;
      IF r_tenant[r] IS DISTINCT FROM v_tenant THEN
        RAISE EXCEPTION 'window_take_batch: a window of another tenant';
      END IF;
      IF r = ANY (v_rows) THEN
        RAISE EXCEPTION 'window_take_batch: an operation names a window twice';
      END IF;
      v_rows := v_rows || r;
      w_rule := w_rule || (v_w ->> 1);
      w_k := w_k || (v_w ->> 2);
      w_window := w_window || (v_w ->> 3);
      w_ms := w_ms || (v_w ->> 4)::bigint;
      w_amount := w_amount || (v_w ->> 5)::numeric;
      w_max := w_max || (v_w ->> 6)::numeric;
      IF r_cursor[r] IS NOT NULL THEN
        v_now := greatest(v_now, r_cursor[r] + r_ms[r] * interval '1 millisecond');
      END IF;
    END LOOP;
    n_w := coalesce(array_length(v_rows, 1), 0);
    FOR j IN 1 .. n_w LOOP
      r := v_rows[j];
      v_ms := w_ms[j];
      v_cut := v_now - v_ms * interval '1 millisecond';
      IF r_cursor[r] IS NOT NULL AND r_ms[r] = v_ms AND r_cursor[r] >= v_cut THEN
        v_used[j] := r_used[r];
        v_cursor[j] := r_cursor[r];
      ELSE
        IF r_pending[r] THEN
          -- The events kept so far must be in the table before it is read.
          INSERT INTO window_events (tenant_id, window_key, rule_id, "key", "window", window_ms, at, consultation_id, amount, expires_at)
            SELECT * FROM unnest(e_tenant, e_key, e_rule, e_k, e_window, e_ms, e_at, e_consultation, e_amount, e_expires);
          e_tenant := '{}'; e_key := '{}'; e_rule := '{}'; e_k := '{}'; e_window := '{}'; e_ms := '{}'; e_at := '{}';
          e_consultation := '{}'; e_amount := '{}'; e_expires := '{}';
          r_pending := array_fill(false, ARRAY[n_rows]);
        END IF;
        v_key := r_key[r];
        IF r_cursor[r] IS NULL OR r_ms[r] <> v_ms THEN
          v_used[j] := (SELECT coalesce(sum(e.amount), 0) FROM window_events e
                         WHERE e.tenant_id = v_tenant AND e.window_key = v_key AND e.at > v_cut AND e.given_back_at IS NULL);
        ELSE
          v_from := r_cursor[r];
          v_used[j] := r_used[r] - (SELECT coalesce(sum(e.amount), 0) FROM window_events e
                         WHERE e.tenant_id = v_tenant AND e.window_key = v_key
                           AND e.at > v_from AND e.at <= v_cut AND e.given_back_at IS NULL);
        END IF;
        v_cursor[j] := v_cut;
      END IF;
      IF NOT coalesce(w_amount[j] >= 0 AND v_used[j] + w_amount[j] <= w_max[j], false) THEN
        v_fits := false;
      END IF;
    END LOOP;
    FOR j IN 1 .. n_w LOOP
      r := v_rows[j];
      r_ms[r] := w_ms[j];
      r_cursor[r] := v_cursor[j];
      r_used[r] := v_used[j];
      IF v_fits THEN
        r_used[r] := r_used[r] + w_amount[j];
        r_pending[r] := true;
        e_tenant := e_tenant || v_tenant;
        e_key := e_key || r_key[r];
        e_rule := e_rule || w_rule[j];
        e_k := e_k || w_k[j];
        e_window := e_window || w_window[j];
        e_ms := e_ms || r_ms[r];
        e_at := e_at || v_now;
        e_consultation := e_consultation || (v_take ->> 'c');
        e_amount := e_amount || w_amount[j];
        e_expires := e_expires || (v_now + greatest(r_ms[r], 604800000) * interval '1 millisecond');
      END IF;
    END LOOP;
    IF v_fits THEN
      FOR v_m IN SELECT * FROM jsonb_array_elements(v_take -> 'm') LOOP
        e_tenant := e_tenant || v_tenant;
        e_key := e_key || (v_m ->> 0);
        e_rule := e_rule || NULL::text;
        e_k := e_k || (v_m ->> 1);
        e_window := e_window || NULL::text;
        e_ms := e_ms || NULL::bigint;
        e_at := e_at || v_now;
        e_consultation := e_consultation || (v_take ->> 'c');
        e_amount := e_amount || 0::numeric;
        e_expires := e_expires || (v_now + (v_m ->> 2)::bigint * interval '1 millisecond');
      END LOOP;
    END IF;
    take := i + 1;
    taken := v_fits;
    used_before := v_used;
    at := v_now;
    RETURN NEXT;
  END LOOP;
  INSERT INTO window_events (tenant_id, window_key, rule_id, "key", "window", window_ms, at, consultation_id, amount, expires_at)
    SELECT * FROM unnest(e_tenant, e_key, e_rule, e_k, e_window, e_ms, e_at, e_consultation, e_amount, e_expires);
  UPDATE window_totals t SET window_ms = u.ms, used = u.used, expired_through = u.cur
    FROM unnest(r_tenant, r_key, r_ms, r_used, r_cursor) AS u(tenant, wk, ms, used, cur)
   WHERE t.tenant_id = u.tenant AND t.window_key = u.wk AND u.cur IS NOT NULL;
END;
$$;

-- Each window's use now (argument order), without a lock and without writing: what the take would find, read
-- from the totals row and the events that left since its cursor (a missing row, or one of another window length,
-- from the events still in the window). A function of simple statements, each planned once per session (a
-- single query joining the arrays was planned again at every call).
CREATE FUNCTION window_peek(p_tenant text, p_window_keys text[], p_window_ms bigint[])
RETURNS TABLE (used numeric)
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := window_now();
  v_key text;
  v_ms bigint;
  v_cut timestamptz;
  v_row_ms bigint;
  v_row_used numeric;
  v_cursor timestamptz;
  i int;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_window_keys, 1), 0) LOOP
    v_key := p_window_keys[i];
    v_ms := p_window_ms[i];
    v_cut := v_now - v_ms * interval '1 millisecond';
    v_row_ms := NULL;
    v_row_used := NULL;
    v_cursor := NULL;
    SELECT t.window_ms, t.used, t.expired_through INTO v_row_ms, v_row_used, v_cursor
      FROM window_totals t WHERE t.tenant_id = p_tenant AND t.window_key = v_key;
    IF v_cursor IS NULL OR v_row_ms <> v_ms THEN
      used := (SELECT coalesce(sum(e.amount), 0) FROM window_events e
                WHERE e.tenant_id = p_tenant AND e.window_key = v_key AND e.at > v_cut AND e.given_back_at IS NULL);
    ELSE
      used := v_row_used - (SELECT coalesce(sum(e.amount), 0) FROM window_events e
                             WHERE e.tenant_id = p_tenant AND e.window_key = v_key
                               AND e.at > v_cursor AND e.at <= v_cut AND e.given_back_at IS NULL);
    END IF;
    RETURN NEXT;
  END LOOP;
END;
$$;

-- Whether each earlier operation is found (argument order): a mark on its key, not given back, within its period.
CREATE FUNCTION window_priors(p_tenant text, p_window_keys text[], p_within_ms bigint[])
RETURNS TABLE (present boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := window_now();
  v_key text;
  v_cut timestamptz;
  i int;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_window_keys, 1), 0) LOOP
    v_key := p_window_keys[i];
    v_cut := v_now - p_within_ms[i] * interval '1 millisecond';
    present := EXISTS (SELECT 1 FROM window_events e
                      WHERE e.tenant_id = p_tenant AND e.window_key = v_key AND e.at > v_cut AND e.given_back_at IS NULL);
    RETURN NEXT;
  END LOOP;
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
