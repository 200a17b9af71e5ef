import type { Logger } from 'pino';
import { factLeaf, foldPerfect, isDigestText, sameHash, type NodeHash, type Subtree } from '@arbiter/merkle';
import { LeafBlocks, type CompletedBlock } from '../domain/leaf-blocks';
import { AppError } from '@arbiter/http';
import { BAND, completedNodes, FAN, mergeRanges, sourceLevel, sourceRange } from '../domain/merkle-layout';
import {
  appendedStreamAnyTenant,
  type AppendedStream,
  type IndexRange,
  type MerkleRepository,
  type StoredNode,
  type TreeStream,
} from '../repositories/merkle.repository';
import { streamKeyText, type StreamKey } from '../repositories/ledger.repository';

/** Stored nodes computed per statement: 64 nodes of the lowest stored level read 64·FAN facts. */
const COMPUTE_CHUNK = 64;

/**
 * A stored tree that disagrees with itself or with the facts (a missing fact, a node that differs
 * from the one recomputed). The service fails closed: nothing is signed or answered from it.
 */
export function storedTreeError(streamId: string, what: string): AppError {
  return new AppError(500, 'INTERNAL_ERROR', `The stored Merkle tree of stream ${streamId} disagrees with its facts: ${what}`);
}

/**
 * The hashes of any perfect subtree of a stream's tree (docs/adr/0009-merkle-storage.md), from the
 * facts (leaves) and the stored nodes of levels BAND, 2·BAND, ... (4, 8, 12, ...): each subtree is
 * folded from at most FAN (16) hashes of one level, so a proof reads a few index ranges whatever the stream's size.
 *
 * Stored nodes are written twice over, both idempotent: after each commit, the filler (noteAppended)
 * stores the nodes that became complete, off the seal path; and whenever a read finds a node
 * missing (the process stopped between a commit and its filling, a node deleted), it computes it
 * from the level below and stores it. A node found stored when one is inserted is compared with
 * the one computed: a difference is a stored tree that lies, and fails closed.
 *
 * The filler folds a completed 16-leaf block from the fact hashes the seal queue just committed
 * when this process appended the whole block (domain/leaf-blocks.ts), and stores the blocks of every
 * stream in one statement; the rest (a block another replica shared, the levels above) it reads
 * from the level below, stream by stream.
 */
export class MerkleTree {
  /** By streamKeyText: the stream and the range of facts whose nodes are still to be stored from the database, from `level` up. */
  private readonly pending = new Map<string, { stream: StreamKey; from: number; to: number; level: number }>();
  /** Blocks folded from memory, waiting for the next drain. */
  private blocks: Array<{ stream: StreamKey; block: CompletedBlock }> = [];
  private readonly leafBlocks = new LeafBlocks();
  private running: Promise<void> | null = null;

  constructor(
    private readonly repo: MerkleRepository,
    private readonly logger?: Logger,
  ) {}

  /** The hashes of these perfect subtrees, in order; each lies within the stream's committed facts. */
  async subtrees(stream: TreeStream, subtrees: readonly Subtree[]): Promise<NodeHash[]> {
    const bySource = new Map<number, IndexRange[]>();
    for (const s of subtrees) {
      const level = sourceLevel(s.level);
      bySource.set(level, [...(bySource.get(level) ?? []), sourceRange(s)]);
    }
    // One read per source level, all at once.
    const levels = new Map(
      await Promise.all(
        [...bySource].map(async ([level, ranges]) => [level, await this.level(stream, level, mergeRanges(ranges))] as const),
      ),
    );
    return subtrees.map((s) => {
      const source = levels.get(sourceLevel(s.level))!;
      const { start, end } = sourceRange(s);
      const hashes: NodeHash[] = [];
      for (let i = start; i < end; i++) hashes.push(source.get(i)!);
      return foldPerfect(hashes);
    });
  }

  /**
   * After a commit that grew a stream from `from` to `to` facts, whose fact hashes (seq from + 1 to
   * `to`, when the caller has them) are `factHashes`: stores the nodes that became complete, later
   * and off the seal path (it waits for none of it).
   */
  noteAppended(stream: StreamKey, from: number, to: number, factHashes?: readonly string[]): void {
    const key = streamKeyText(stream.tenantId, stream.streamId);
    const completed = factHashes?.length === to - from ? this.leafBlocks.append(key, from, factHashes) : null;
    if (completed === null) {
      this.leafBlocks.forget(key);
      this.pend(key, stream, from, to, BAND);
    } else {
      for (const block of completed) this.blocks.push({ stream, block });
      // The levels above the blocks come from the stored level below them.
      if (Math.floor(from / FAN ** 2) !== Math.floor(to / FAN ** 2)) this.pend(key, stream, from, to, 2 * BAND);
    }
    if (this.blocks.length || this.pending.size) this.kick();
  }

  private pend(key: string, stream: StreamKey, from: number, to: number, level: number): void {
    if (Math.floor(from / FAN ** (level / BAND)) === Math.floor(to / FAN ** (level / BAND))) return; // no node of that level completed
    const known = this.pending.get(key);
    this.pending.set(
      key,
      known
        ? { stream, from: Math.min(known.from, from), to: Math.max(known.to, to), level: Math.min(known.level, level) }
        : { stream, from, to, level },
    );
  }

  /** Resolves when the filler has nothing left to do (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stores every node of a stream, from `fromLevel` up, that is complete between `from` and `to` facts and not stored yet. */
  async fill(stream: TreeStream, from: number, to: number, fromLevel = BAND): Promise<void> {
    for (let level = fromLevel; ; level += BAND) {
      const range = completedNodes(level, from, to);
      if (range.end <= range.start) return;
      await this.level(stream, level, [range]);
    }
  }

  private kick(): void {
    if (this.running) return;
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.pending.size || this.blocks.length) this.kick();
    });
  }

  private async drain(): Promise<void> {
    // What is noted from here on waits for the next drain: a level above a block is filled after the block is stored.
    const blocks = this.blocks;
    this.blocks = [];
    const pending = [...this.pending];
    this.pending.clear();
    try {
      await this.storeBlocks(blocks);
    } catch (err) {
      // Nothing is lost: a proof that needs a missing node computes and stores it.
      this.logger?.warn({ err, blocks: blocks.length }, 'merkle node filling failed; proofs will compute the nodes');
    }
    for (const [, { stream, from, to, level }] of pending) {
      try {
        await this.fill(appendedStreamAnyTenant(stream), from, to, level);
      } catch (err) {
        // Nothing is lost: a proof that needs a missing node computes and stores it.
        this.logger?.warn(
          { err, tenant_id: stream.tenantId, stream_id: stream.streamId },
          'merkle node filling failed; proofs will compute the nodes',
        );
      }
    }
  }

  /** The level-BAND nodes of blocks folded from memory, every stream's in one statement; a stored node that differs fails as `level` does. */
  private async storeBlocks(blocks: Array<{ stream: StreamKey; block: CompletedBlock }>): Promise<void> {
    if (!blocks.length) return;
    const nodes = blocks.map(({ stream, block }) => ({
      stream: appendedStreamAnyTenant(stream),
      level: BAND,
      idx: block.idx,
      hash: foldPerfect(block.factHashes.map(factLeaf)),
    }));
    const mine = new Map(nodes.map((n) => [nodeKey(n.stream, n.idx), n.hash]));
    for (const s of await this.repo.insertNodesAnyTenant(nodes)) {
      if (!sameHash(s.hash, mine.get(nodeKey(s.stream, s.idx))!))
        throw storedTreeError(s.stream.stream_id, `stored node ${s.idx} of level ${s.level} differs from the one its children make`);
    }
  }

  /** The hashes at one level (0: the leaves; otherwise a stored level) with indices in the ranges. */
  private async level(stream: TreeStream, level: number, ranges: IndexRange[]): Promise<Map<number, NodeHash>> {
    const wanted = ranges.reduce((n, r) => n + r.end - r.start, 0);
    if (level === 0) {
      const facts = await this.repo.leafHashes(stream, ranges);
      if (facts.size !== wanted) throw storedTreeError(stream.stream_id, `${wanted - facts.size} of the facts it needs are missing`);
      const leaves = new Map<number, NodeHash>();
      for (const [i, factHash] of facts) {
        if (!isDigestText(factHash)) throw storedTreeError(stream.stream_id, `the fact at seq ${i + 1} has a malformed fact_hash`);
        leaves.set(i, factLeaf(factHash));
      }
      return leaves;
    }
    const found = await this.repo.nodes(stream, level, ranges);
    for (const [idx, hash] of found)
      if (hash.length !== 32) throw storedTreeError(stream.stream_id, `node ${idx} of level ${level} is not 32 bytes`);
    if (found.size === wanted) return found;
    const missing: number[] = [];
    for (const r of ranges) for (let i = r.start; i < r.end; i++) if (!found.has(i)) missing.push(i);
    for (let c = 0; c < missing.length; c += COMPUTE_CHUNK) {
      const chunk = missing.slice(c, c + COMPUTE_CHUNK);
      const below = await this.level(stream, level - BAND, mergeRanges(chunk.map((i) => ({ start: i * FAN, end: (i + 1) * FAN }))));
      const computed: StoredNode[] = chunk.map((idx) => {
        const children: NodeHash[] = [];
        for (let j = idx * FAN; j < (idx + 1) * FAN; j++) children.push(below.get(j)!);
        return { idx, hash: foldPerfect(children) };
      });
      const stored = await this.repo.insertNodes(stream, level, computed);
      const mine = new Map(computed.map((n) => [n.idx, n.hash]));
      for (const s of stored) {
        if (!sameHash(s.hash, mine.get(s.idx)!))
          throw storedTreeError(stream.stream_id, `stored node ${s.idx} of level ${level} differs from the one its children make`);
      }
      for (const n of computed) found.set(n.idx, n.hash);
    }
    return found;
  }
}

const nodeKey = (stream: AppendedStream, idx: number) => `${streamKeyText(stream.tenant_id, stream.stream_id)}/${idx}`;
