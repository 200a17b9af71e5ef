-- The window store's calls, one per kind of gathered operation (docs/verdicts.md "Windows and outcomes"; ADR 0033,
-- third amendment): the gathered peeks call window_peek_batch, the gathered takes window_take_batch
-- (20261230110000), each kind its own function. Hand-written (ADR 0003).
--
-- window_peek_batch: the peeks a gateway gathered while its previous batch of peeks was in flight, in one statement,
-- each read by one call of window_peek, unchanged: without a lock and without writing, each window's use at one reading of the
-- clock. Parallel arrays, one element per window: p_peek the 1-based number of the peek it belongs to (the windows of
-- one peek contiguous, in its window order, the peeks in order), p_tenant, p_window_key, p_window_ms. Answers one row
-- per peek, in order: n its number, used each of its windows' use.
CREATE FUNCTION window_peek_batch(p_peek int[], p_tenant text[], p_window_key text[], p_window_ms bigint[])
RETURNS TABLE (n int, used numeric[])
LANGUAGE sql AS $$
  -- One call of window_peek per peek, with that peek's windows in order: one reading of the clock for all of them.
  SELECT g.peek,
         (SELECT array_agg(u.used ORDER BY u.o) FROM window_peek(g.tenant, g.window_keys, g.window_ms) WITH ORDINALITY AS u(used, o))
    FROM (SELECT w.peek, min(w.tenant) AS tenant,
                 array_agg(w.window_key ORDER BY w.i) AS window_keys, array_agg(w.window_ms ORDER BY w.i) AS window_ms
            FROM unnest(p_peek, p_tenant, p_window_key, p_window_ms) WITH ORDINALITY AS w(peek, tenant, window_key, window_ms, i)
           GROUP BY w.peek) AS g
   ORDER BY g.peek
$$;

-- window_batch (20270101100000) is no longer called: it took peeks and takes together, which no gateway gathers.
-- It stays for the gateways of the previous version during a rolling upgrade; the next release's migrations drop it.
COMMENT ON FUNCTION window_batch(int[], text[], text[], bigint[], jsonb, jsonb) IS
  'superseded by window_peek_batch and window_take_batch; kept for gateways of the previous version during an upgrade';
