-- The window store's one call per batch (docs/verdicts.md "Windows and outcomes"; ADR 0033, second amendment).
-- Hand-written (ADR 0003).
--
-- window_batch: the peeks and the takes a gateway gathered while its previous call was in flight, in one
-- statement (one round trip for all of them; one commit, and a durable one only when the batch holds a take).
--
-- The peeks come first, each read by window_peek, unchanged: without a lock and without writing, each window's use
-- at one reading of the clock, from its totals row and the events that left since its cursor (a missing row, or one
-- of another window length, from the events still in the window). They are given as parallel arrays, one element
-- per window: p_peek the 1-based number of the peek it belongs to (the windows of one peek contiguous, in its window
-- order, the peeks in order), p_tenant, p_window_key, p_window_ms. Answers one row per peek, in order: kind 'peek',
-- n its number, taken NULL, used each of its windows' use.
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
  n_windows int := coalesce(array_length(p_peek, 1), 0);
  v_first int := 1;
  i int;
BEGIN
  FOR i IN 1 .. n_windows LOOP
    -- The last window of its peek: read the peek's windows [v_first, i].
    IF i = n_windows OR p_peek[i + 1] IS DISTINCT FROM p_peek[i] THEN
      kind := 'peek';
      n := p_peek[i];
      taken := NULL;
      SELECT array_agg(w.used ORDER BY w.o) INTO used
        FROM window_peek(p_tenant[i], p_window_key[v_first:i], p_window_ms[v_first:i]) WITH ORDINALITY AS w(used, o);
      RETURN NEXT;
      v_first := i + 1;
    END IF;
  END LOOP;
  IF p_takes IS NOT NULL AND jsonb_array_length(p_takes) > 0 THEN
    RETURN QUERY SELECT 'take'::text, b.take, b.taken, b.used_before FROM window_take_batch(p_rows, p_takes) AS b;
  END IF;
END;
$$;
