/**
 * Isolating the rows that fail a batch (docs/development.md "Batches and the rows that fail them"): a batch
 * is written in one statement or one request, which succeeds or fails as a whole. When it fails because
 * of a row's own data, the batch is split in two halves, each written on its own, recursively, until each
 * faulty row stands alone: the good rows commit, each faulty row gets its own error, and one bad row among
 * n costs about 2·log2(n) more writes instead of n. A failure that no row caused (the connection, a
 * shutdown, a service away) is not split: retrying row by row would only multiply the load.
 *
 * Used by the verdict gateway's group commit of consultations, the ledger's seal queue and the worker's
 * seal relay.
 */

/** What became of one row: committed (with what the write answered for it, if it answers per row), or refused. */
export type RowOutcome<T> = { ok: true; value: T | undefined } | { ok: false; error: unknown };

export interface BisectOptions<R> {
  /** Whether a failure can be a single row's doing (only then is the batch split). */
  isRowFault(err: unknown): boolean;
  /**
   * A failure no row caused, met while splitting:
   * - 'throw' (default): it ends the work and bisectOnRowFault rejects with it, as for the whole batch
   *   (a caller that retries the whole batch, such as a job);
   * - 'fail-part': the rows of the part that met it get it as their outcome and the other parts are still
   *   written (each row is a caller waiting for its own answer). A failure of the whole batch then gives
   *   every row the error.
   */
  otherFault?: 'throw' | 'fail-part';
  /**
   * The rows of a part that a failed write left uncommitted, when a write can commit part of what it was
   * given before it fails (default: all of them). Only these are split and retried; the others count as
   * committed.
   */
  uncommitted?(rows: R[]): R[];
}

/**
 * Writes `rows` with `write`, isolating row faults by halving (see above). Resolves with one outcome per
 * row, in the order of `rows`; an empty batch writes nothing. `write` may answer one value per row of
 * the part it was given, in order (the outcome's `value`).
 */
export async function bisectOnRowFault<R, T = void>(
  rows: readonly R[],
  write: (part: R[]) => Promise<readonly T[] | void>,
  opts: BisectOptions<R>,
): Promise<RowOutcome<T>[]> {
  const outcomes: RowOutcome<T>[] = new Array(rows.length);
  const failPart = opts.otherFault === 'fail-part';

  const writePart = async (part: number[]): Promise<void> => {
    let answer: readonly T[] | void;
    try {
      answer = await write(part.map((i) => rows[i]));
    } catch (err) {
      let left = part;
      if (opts.uncommitted) {
        const uncommitted = new Set(opts.uncommitted(part.map((i) => rows[i])));
        left = part.filter((i) => uncommitted.has(rows[i]));
        for (const i of part) if (!uncommitted.has(rows[i])) outcomes[i] = { ok: true, value: undefined };
      }
      const rowFault = opts.isRowFault(err);
      if (!rowFault && !failPart) throw err;
      if (rowFault && left.length > 1) {
        const mid = left.length >>> 1;
        await writePart(left.slice(0, mid));
        await writePart(left.slice(mid));
        return;
      }
      for (const i of left) outcomes[i] = { ok: false, error: err };
      return;
    }
    part.forEach((i, k) => (outcomes[i] = { ok: true, value: answer ? answer[k] : undefined }));
  };

  if (rows.length > 0) await writePart(rows.map((_, i) => i));
  return outcomes;
}
