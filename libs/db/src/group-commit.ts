/**
 * Group commit: callers hand in rows and are answered only after the batch holding their row has
 * committed, so a response never gets ahead of durability. No artificial delay: the first row
 * goes out at once; rows arriving while batches are in flight form the next batch, which grows
 * with load (docs/development.md: one INSERT per request caps throughput; batching lifts it).
 */
export interface GroupCommitOptions {
  /** Largest batch written at once. */
  maxBatch?: number;
  /** Batches in flight at once (each holds a pool connection). */
  maxInFlight?: number;
  /** Observes each batch size (metrics). */
  onBatch?: (size: number) => void;
}

interface Pending<R> {
  row: R;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class GroupCommitWriter<R> {
  private queue: Pending<R>[] = [];
  private inFlight = 0;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;
  private idle: Array<() => void> = [];
  private closed = false;

  constructor(
    private readonly flush: (rows: R[]) => Promise<void>,
    private readonly opts: GroupCommitOptions = {},
  ) {
    this.maxBatch = opts.maxBatch ?? 500;
    this.maxInFlight = opts.maxInFlight ?? 2;
  }

  /** Resolves once the row is committed; rejects if its batch failed. */
  write(row: R): Promise<void> {
    if (this.closed) return Promise.reject(new Error('writer is closed'));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
      this.pump();
    });
  }

  /** Rows waiting or being written. */
  get pending(): number {
    return this.queue.length + this.inFlight;
  }

  /** Stops taking rows and waits until every accepted row is written (graceful shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.queue.length === 0 && this.inFlight === 0) return;
    await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      this.opts.onBatch?.(batch.length);
      this.flush(batch.map((p) => p.row))
        .then(
          () => batch.forEach((p) => p.resolve()),
          (err) => batch.forEach((p) => p.reject(err)),
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
          if (this.queue.length === 0 && this.inFlight === 0) this.idle.splice(0).forEach((r) => r());
        });
    }
  }
}
