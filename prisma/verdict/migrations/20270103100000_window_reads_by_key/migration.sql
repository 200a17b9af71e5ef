-- The window store's functions, reading and writing window_totals by key and taking a batch apart in a few
-- statements (docs/verdicts.md "Windows and outcomes"; ADR 0033, fourth amendment). Hand-written (ADR 0003).
--
-- window_take_batch (20261230110000), unchanged in what it decides, answers and locks, in two respects:
-- - It read its batch's totals rows with one join of p_rows and window_totals, and wrote them back with one
--   UPDATE ... FROM unnest(...). PostgreSQL planned both as a hash join over a scan of the whole of window_totals (it
--   guesses 100 rows for a function's result, so a scan of a small table looked cheaper than 100 look-ups): every
--   batch read every window of every tenant, 100 µs a statement at a thousand windows, more as windows are added. It
--   now reads and writes each row with a statement of its own, by its primary key.
-- - It took each operation apart from the JSON in a loop of its own (a cursor over jsonb_array_elements per
--   operation, ten array appends per event), which cost about as much as its statements. It now takes the whole batch
--   apart in two statements, into arrays of the windows (x_*) and of the marks (m_*) in operation order, and keeps an
--   event as the index of its window or mark and its time; the events are inserted once, at the end. A window rebuilt
--   from its events after an earlier operation of the batch kept events in it adds those kept events to the table's
--   (they are not in the table yet), where the previous function inserted them first.
CREATE OR REPLACE FUNCTION window_take_batch(p_rows jsonb, p_takes jsonb)
RETURNS TABLE (take int, taken boolean, used_before numeric[], at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  n_rows int := jsonb_array_length(p_rows);
  n_takes int := jsonb_array_length(p_takes);
  -- The totals rows of the batch: key, then length, use and cursor as the batch has moved them.
  r_tenant text[];
  r_key text[];
  r_ms bigint[] := '{}';
  r_used numeric[] := '{}';
  r_cursor timestamptz[] := '{}';
  -- Whether a row has events kept by this batch (not inserted until the end).
  r_pending boolean[] := array_fill(false, ARRAY[jsonb_array_length(p_rows)]);
  -- The operations: tenant, consultation and number of windows.
  t_tenant text[];
  t_consultation text[];
  t_count int[];
  -- Every window of every operation, in operation then window order: its operation, totals row, rule, key,
  -- window, length, amount and max.
  x_take int[];
  x_row int[];
  x_rule text[];
  x_k text[];
  x_window text[];
  x_ms bigint[];
  x_amount numeric[];
  x_max numeric[];
  -- Every mark, likewise: its operation, window key, key and how long it is kept.
  m_take int[];
  m_key text[];
  m_k text[];
  m_keep bigint[];
  n_marks int;
  -- The events kept: the index of a window (e_w) or of a mark (e_m), and its time.
  e_w int[] := '{}';
  e_w_at timestamptz[] := '{}';
  e_m int[] := '{}';
  e_m_at timestamptz[] := '{}';
  v_clock timestamptz;
  v_now timestamptz;
  v_tenant text;
  v_fits boolean;
  v_used numeric[];
  v_cursor timestamptz[];
  v_first int;
  v_last int;
  v_ms bigint;
  v_cut timestamptz;
  v_lo timestamptz;
  v_hi timestamptz;
  v_base numeric;
  v_sign int;
  v_sum numeric;
  v_row_used numeric;
  v_row_cursor timestamptz;
  wp int := 1;
  mp int := 1;
  i int;
  j int;
  r int;
  w_i int;
BEGIN
  INSERT INTO window_totals (tenant_id, window_key, window_ms, used, expired_through)
    SELECT x.r ->> 0, x.r ->> 1, 0, 0, NULL FROM jsonb_array_elements(p_rows) AS x(r)
     ORDER BY (x.r ->> 0) COLLATE "C", (x.r ->> 1) COLLATE "C"
    ON CONFLICT (tenant_id, window_key) DO UPDATE SET used = window_totals.used WHERE false;
  SELECT array_agg(x.r ->> 0 ORDER BY x.o), array_agg(x.r ->> 1 ORDER BY x.o) INTO r_tenant, r_key
    FROM jsonb_array_elements(p_rows) WITH ORDINALITY AS x(r, o);
  FOR r IN 1 .. n_rows LOOP
    SELECT t.window_ms, t.used, t.expired_through INTO v_ms, v_row_used, v_row_cursor
      FROM window_totals t WHERE t.tenant_id = r_tenant[r] AND t.window_key = r_key[r];
    IF NOT FOUND THEN
      RAISE EXCEPTION 'window_take_batch: a totals row of the batch is missing';
    END IF;
    r_ms[r] := v_ms;
    r_used[r] := v_row_used;
    r_cursor[r] := v_row_cursor;
  END LOOP;
  SELECT array_agg(t.v ->> 't' ORDER BY t.o), array_agg(t.v ->> 'c' ORDER BY t.o),
         array_agg(coalesce(jsonb_array_length(t.v -> 'w'), 0) ORDER BY t.o)
    INTO t_tenant, t_consultation, t_count
    FROM jsonb_array_elements(p_takes) WITH ORDINALITY AS t(v, o);
  SELECT coalesce(array_agg(t.o::int ORDER BY t.o, w.o), '{}'), array_agg((w.v ->> 0)::int ORDER BY t.o, w.o),
         array_agg(w.v ->> 1 ORDER BY t.o, w.o), array_agg(w.v ->> 2 ORDER BY t.o, w.o),
         array_agg(w.v ->> 3 ORDER BY t.o, w.o), array_agg((w.v ->> 4)::bigint ORDER BY t.o, w.o),
         array_agg((w.v ->> 5)::numeric ORDER BY t.o, w.o), array_agg((w.v ->> 6)::numeric ORDER BY t.o, w.o)
    INTO x_take, x_row, x_rule, x_k, x_window, x_ms, x_amount, x_max
    FROM jsonb_array_elements(p_takes) WITH ORDINALITY AS t(v, o)
    CROSS JOIN LATERAL jsonb_array_elements(t.v -> 'w') WITH ORDINALITY AS w(v, o);
  SELECT coalesce(array_agg(t.o::int ORDER BY t.o, m.o), '{}'), array_agg(m.v ->> 0 ORDER BY t.o, m.o),
         array_agg(m.v ->> 1 ORDER BY t.o, m.o), array_agg((m.v ->> 2)::bigint ORDER BY t.o, m.o)
    INTO m_take, m_key, m_k, m_keep
    FROM jsonb_array_elements(p_takes) WITH ORDINALITY AS t(v, o)
    CROSS JOIN LATERAL jsonb_array_elements(t.v -> 'm') WITH ORDINALITY AS m(v, o);
  n_marks := coalesce(array_length(m_take, 1), 0);
  v_clock := window_now();
  FOR i IN 1 .. n_takes LOOP
    v_tenant := t_tenant[i];
    v_first := wp;
    v_last := wp + t_count[i] - 1;
    wp := v_last + 1;
    v_used := '{}';
    v_cursor := '{}';
    v_fits := true;
    -- Its time never goes back (were PostgreSQL's clock stepped back, it takes at the latest time one of its
    -- windows has seen), so an event is never inserted before events already counted.
    v_now := v_clock;
    FOR w_i IN v_first .. v_last LOOP
      r := x_row[w_i];
      IF r_tenant[r] IS DISTINCT FROM v_tenant THEN
        RAISE EXCEPTION 'window_take_batch: a window of another tenant';
      END IF;
      IF w_i > v_first AND r = ANY (x_row[v_first:w_i - 1]) THEN
        RAISE EXCEPTION 'window_take_batch: an operation names a window twice';
      END IF;
      IF r_cursor[r] IS NOT NULL THEN
        v_now := greatest(v_now, r_cursor[r] + r_ms[r] * interval '1 millisecond');
      END IF;
    END LOOP;
    FOR w_i IN v_first .. v_last LOOP
      j := w_i - v_first + 1;
      r := x_row[w_i];
      v_ms := x_ms[w_i];
      v_cut := v_now - v_ms * interval '1 millisecond';
      IF r_cursor[r] IS NOT NULL AND r_ms[r] = v_ms AND r_cursor[r] >= v_cut THEN
        v_used[j] := r_used[r];
        v_cursor[j] := r_cursor[r];
      ELSE
        IF r_cursor[r] IS NULL OR r_ms[r] <> v_ms THEN
          -- A new row, or one of another window length: the sum of the events still in the window.
          v_base := 0;
          v_sign := 1;
          v_lo := v_cut;
          v_hi := 'infinity';
        ELSE
          -- Its running total, less the events that left since its cursor.
          v_base := r_used[r];
          v_sign := -1;
          v_lo := r_cursor[r];
          v_hi := v_cut;
        END IF;
        v_sum := (SELECT coalesce(sum(e.amount), 0) FROM window_events e
                   WHERE e.tenant_id = v_tenant AND e.window_key = r_key[r]
                     AND e.at > v_lo AND e.at <= v_hi AND e.given_back_at IS NULL);
        IF r_pending[r] THEN
          v_sum := v_sum + (SELECT coalesce(sum(x_amount[p.n]), 0) FROM unnest(e_w, e_w_at) AS p(n, at)
                             WHERE x_row[p.n] = r AND p.at > v_lo AND p.at <= v_hi);
        END IF;
        v_used[j] := v_base + v_sign * v_sum;
        v_cursor[j] := v_cut;
      END IF;
      IF NOT coalesce(x_amount[w_i] >= 0 AND v_used[j] + x_amount[w_i] <= x_max[w_i], false) THEN
        v_fits := false;
      END IF;
    END LOOP;
    FOR w_i IN v_first .. v_last LOOP
      j := w_i - v_first + 1;
      r := x_row[w_i];
      r_ms[r] := x_ms[w_i];
      r_cursor[r] := v_cursor[j];
      r_used[r] := v_used[j];
      IF v_fits THEN
        r_used[r] := r_used[r] + x_amount[w_i];
        r_pending[r] := true;
        e_w := e_w || w_i;
        e_w_at := e_w_at || v_now;
      END IF;
    END LOOP;
    WHILE mp <= n_marks AND m_take[mp] = i LOOP
      IF v_fits THEN
        e_m := e_m || mp;
        e_m_at := e_m_at || v_now;
      END IF;
      mp := mp + 1;
    END LOOP;
    take := i;
    taken := v_fits;
    used_before := v_used;
    at := v_now;
    RETURN NEXT;
  END LOOP;
  IF cardinality(e_w) + cardinality(e_m) > 0 THEN
    INSERT INTO window_events (tenant_id, window_key, rule_id, "key", "window", window_ms, at, consultation_id, amount, expires_at)
      SELECT r_tenant[x_row[p.n]], r_key[x_row[p.n]], x_rule[p.n], x_k[p.n], x_window[p.n], x_ms[p.n], p.at,
             t_consultation[x_take[p.n]], x_amount[p.n], p.at + greatest(x_ms[p.n], 604800000) * interval '1 millisecond'
        FROM unnest(e_w, e_w_at) AS p(n, at)
      UNION ALL
      SELECT t_tenant[m_take[p.n]], m_key[p.n], NULL, m_k[p.n], NULL, NULL, p.at,
             t_consultation[m_take[p.n]], 0, p.at + m_keep[p.n] * interval '1 millisecond'
        FROM unnest(e_m, e_m_at) AS p(n, at);
  END IF;
  -- Each totals row the batch read, written back by its key.
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
