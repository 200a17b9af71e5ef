-- The window store's one call per batch (docs/verdicts.md "Windows and outcomes"; ADR 0033, second amendment).
-- Hand-written (ADR 0003).
--
-- window_batch: the peeks and the takes a gateway gathered while its previous call was in flight, in one
-- statement (one round trip for all of them; one commit, and a durable one only when the batch holds a take).
--
-- The peeks come first, exactly as window_peek reads a window: without a lock and without writing, each
-- window's use at one reading of the clock (window_now()), from its totals row and the events that left since
-- its cursor (a missing row, or one of another window length, from the events still in the window). They are
-- given as parallel arrays, one element per window: p_peek the 1-based number of the peek it belongs to (the
-- windows of one peek contiguous, in its window order), p_tenant, p_window_key, p_window_ms. Answers one row per
-- peek, in order: kind 'peek', n its number, taken NULL, used each of its windows' use.
--
-- The takes follow, handed to window_take_batch unchanged (p_rows and p_takes as it reads them; NULL or an empty
-- array when there is none, and then nothing is locked or written): the same locks in the same order, the same
-- all-or-nothing decision of each take in order. Answers one row per take: kind 'take', n its number among the
-- takes, taken, used its windows' use before it.
CREATE FUNCTION window_batch(
  p_peek int[], p_tenant text[], p_window_key text[], p_window_ms bigint[],
  p_rows jsonb, p_takes jsonb
)
RETURNS TABLE (kind text, n int, taken boolean, used numeric[])
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz;
  v_key text;
  v_tenant text;
  v_ms bigint;
  v_cut timestamptz;
  v_row_ms bigint;
  v_row_used numeric;
  v_cursor timestamptz;
  v_used numeric;
  v_acc numeric[] := '{}';
  v_peek int := NULL;
  i int;
BEGIN
  IF coalesce(array_length(p_peek, 1), 0) > 0 THEN
    v_now := window_now();
    FOR i IN 1 .. array_length(p_peek, 1) LOOP
      IF v_peek IS DISTINCT FROM p_peek[i] THEN
        IF v_peek IS NOT NULL THEN
          kind := 'peek'; n := v_peek; taken := NULL; used := v_acc;
          RETURN NEXT;
        END IF;
        v_peek := p_peek[i];
        v_acc := '{}';
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
      v_acc := v_acc || v_used;
    END LOOP;
    kind := 'peek'; n := v_peek; taken := NULL; used := v_acc;
    RETURN NEXT;
  END IF;
  IF p_takes IS NOT NULL AND jsonb_array_length(p_takes) > 0 THEN
    RETURN QUERY SELECT 'take'::text, b.take, b.taken, b.used_before FROM window_take_batch(p_rows, p_takes) AS b;
  END IF;
END;
$$;
