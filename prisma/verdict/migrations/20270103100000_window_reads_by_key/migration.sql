-- The window store's functions, reading and writing window_totals by key (docs/verdicts.md "Windows and outcomes";
-- ADR 0033, fourth amendment). Hand-written (ADR 0003).
--
-- window_take_batch (20261230110000), unchanged in what it does: it read its batch's totals rows with one join of
-- p_rows and window_totals, and wrote them back with one UPDATE ... FROM unnest(...). PostgreSQL planned both as a
-- hash join over a scan of the whole of window_totals (it guesses 100 rows for a function's result, so a scan of a
-- small table looked cheaper than 100 look-ups): every batch read every window of every tenant, 100 µs a statement at
-- a thousand windows, and more as windows are added. It now reads and writes each row by its primary key.
CREATE OR REPLACE FUNCTION window_take_batch(p_rows jsonb, p_takes jsonb)
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
  v_from_used numeric;
  i int;
  j int;
  r int;
BEGIN
  INSERT INTO window_totals (tenant_id, window_key, window_ms, used, expired_through)
    SELECT x.r ->> 0, x.r ->> 1, 0, 0, NULL FROM jsonb_array_elements(p_rows) AS x(r)
     ORDER BY (x.r ->> 0) COLLATE "C", (x.r ->> 1) COLLATE "C"
    ON CONFLICT (tenant_id, window_key) DO UPDATE SET used = window_totals.used WHERE false;
  -- Each totals row read by its key, one statement a row (planned once per session: an index look-up). A join of
  -- p_rows with window_totals was planned as a scan of the whole table, the planner guessing 100 rows for p_rows.
  SELECT array_agg(x.r ->> 0 ORDER BY x.o), array_agg(x.r ->> 1 ORDER BY x.o) INTO r_tenant, r_key
    FROM jsonb_array_elements(p_rows) WITH ORDINALITY AS x(r, o);
  r_ms := '{}';
  r_used := '{}';
  r_cursor := '{}';
  FOR r IN 1 .. n_rows LOOP
    SELECT t.window_ms, t.used, t.expired_through INTO v_ms, v_from_used, v_from
      FROM window_totals t WHERE t.tenant_id = r_tenant[r] AND t.window_key = r_key[r];
    IF NOT FOUND THEN
      RAISE EXCEPTION 'window_take_batch: a totals row of the batch is missing';
    END IF;
    r_ms[r] := v_ms;
    r_used[r] := v_from_used;
    r_cursor[r] := v_from;
  END LOOP;
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
  -- Each totals row the batch read written by its key, for the same reason.
  FOR r IN 1 .. n_rows LOOP
    IF r_cursor[r] IS NOT NULL THEN
      UPDATE window_totals SET window_ms = r_ms[r], used = r_used[r], expired_through = r_cursor[r]
       WHERE tenant_id = r_tenant[r] AND window_key = r_key[r];
    END IF;
  END LOOP;
END;
$$;

-- window_peek_batch (20270102100000), unchanged in what it answers: it was a LANGUAGE sql function calling window_peek
-- once per peek, whose statement was planned at each call and whose nested call cost more than the reading it did.
-- It now reads each window itself, exactly as window_peek does (which stays only for window_batch, both dropped by the
-- next release): without a lock and without writing, from the window's totals row and the events that left since its
-- cursor (a missing row, or one of another window length, from the events still in the window), one reading of the
-- clock per peek. The windows of one peek are contiguous and the peeks in order (as the gateway sends them).
CREATE OR REPLACE FUNCTION window_peek_batch(p_peek int[], p_tenant text[], p_window_key text[], p_window_ms bigint[])
RETURNS TABLE (n int, used numeric[])
LANGUAGE plpgsql AS $$
DECLARE
  n_windows int := coalesce(array_length(p_peek, 1), 0);
  v_now timestamptz;
  v_tenant text;
  v_key text;
  v_ms bigint;
  v_cut timestamptz;
  v_row_ms bigint;
  v_row_used numeric;
  v_cursor timestamptz;
  v_used numeric;
  i int;
BEGIN
  FOR i IN 1 .. n_windows LOOP
    IF i = 1 OR p_peek[i] IS DISTINCT FROM p_peek[i - 1] THEN
      v_now := window_now();
      used := '{}';
    END IF;
    v_tenant := p_tenant[i];
    v_key := p_window_key[i];
    v_ms := p_window_ms[i];
    v_cut := v_now - v_ms * interval '1 millisecond';
    v_row_ms := NULL;
    v_row_used := NULL;
    v_cursor := NULL;
    SELECT t.window_ms, t.used, t.expired_through INTO v_row_ms, v_row_used, v_cursor
      FROM window_totals t WHERE t.tenant_id = v_tenant AND t.window_key = v_key;
    IF v_cursor IS NULL OR v_row_ms <> v_ms THEN
      v_used := (SELECT coalesce(sum(e.amount), 0) FROM window_events e
                  WHERE e.tenant_id = v_tenant AND e.window_key = v_key AND e.at > v_cut AND e.given_back_at IS NULL);
    ELSE
      v_used := v_row_used - (SELECT coalesce(sum(e.amount), 0) FROM window_events e
                               WHERE e.tenant_id = v_tenant AND e.window_key = v_key
                                 AND e.at > v_cursor AND e.at <= v_cut AND e.given_back_at IS NULL);
    END IF;
    used := used || v_used;
    IF i = n_windows OR p_peek[i + 1] IS DISTINCT FROM p_peek[i] THEN
      n := p_peek[i];
      RETURN NEXT;
    END IF;
  END LOOP;
END;
$$;
