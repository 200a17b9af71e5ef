import { FAN } from './merkle-layout';

/** A FAN-leaf block of a stream completed by an append: the node of level BAND at `idx`, and its leaves' fact hashes. */
export interface CompletedBlock {
  idx: number;
  factHashes: string[];
}

interface Frontier {
  /** Leaves known so far: the stream's size after the last append seen. */
  end: number;
  /** fact_hash of the leaves of the incomplete block, from its first leaf (end - end % FAN) on. */
  leaves: string[];
}

/**
 * The fact hashes of each stream's last, incomplete FAN-leaf block, as this process's seal queue
 * appended them (docs/adr/0021-sealing-in-batches.md "Decision"): the filler then folds a
 * completed block from memory instead of reading its 16 facts back. Only an unbroken run of appends
 * is trusted: an append that does not start where the last one ended (another replica appended in
 * between, the process restarted, the stream was forgotten) answers null, and the block it touches is
 * filled from the database as before; a run restarts at the next append that begins a block.
 * At most `maxStreams` streams are remembered (least recently appended forgotten first).
 */
export class LeafBlocks {
  private readonly frontiers = new Map<string, Frontier>();

  constructor(private readonly maxStreams = 10_000) {}

  /**
   * The stream grew from `from` to `from + factHashes.length` facts (the hashes of seq from + 1 on,
   * in order). Answers the blocks this completed, or null when the run is broken (see above).
   */
  append(key: string, from: number, factHashes: readonly string[]): CompletedBlock[] | null {
    let frontier = this.frontiers.get(key);
    this.frontiers.delete(key); // re-inserted below: the Map's order is least recently appended first
    if (!frontier || frontier.end !== from) {
      if (from % FAN !== 0) return null;
      frontier = { end: from, leaves: [] };
    }
    const completed: CompletedBlock[] = [];
    for (const hash of factHashes) {
      frontier.leaves.push(hash);
      frontier.end += 1;
      if (frontier.end % FAN === 0) {
        completed.push({ idx: frontier.end / FAN - 1, factHashes: frontier.leaves });
        frontier.leaves = [];
      }
    }
    this.frontiers.set(key, frontier);
    if (this.frontiers.size > this.maxStreams) this.frontiers.delete(this.frontiers.keys().next().value as string);
    return completed;
  }

  /** Forgets a stream (its next append starts a run only at a block boundary). */
  forget(key: string): void {
    this.frontiers.delete(key);
  }
}
