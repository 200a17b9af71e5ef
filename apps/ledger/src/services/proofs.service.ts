import { mintTenantId, type AuthenticatedIdentity, type TenantId } from '@arbiter/auth';
import type { CanonicalText } from '@arbiter/canonical';
import { bytesToBase64 } from '@arbiter/crypto';
import { AppError } from '@arbiter/http';
import { auditStreamTenant } from '@arbiter/audit-streams';
import {
  consistencyRanges,
  factLeaf,
  inclusionRanges,
  perfectSubtrees,
  rangeHash,
  toDigest,
  verifyConsistency,
  verifyInclusion,
  type LeafRange,
  type NodeHash,
} from '@arbiter/merkle';
import type { SigningKey } from '@arbiter/keystore';
import type { Histogram } from 'prom-client';
import { CHECKPOINT_SIGNATURE_ALG, checkpointSigningInput, type UnsignedCheckpoint } from '../domain/checkpoint-format';
import { computeFactHash } from '../domain/fact-hash';
import type { Checkpoint, ConsistencyProof, InclusionProof } from '../models/proofs';
import type { AuditInclusion, CitedFact } from '../models/internal';
import { presentFact } from '../presenters/ledger';
import type { FactRecord, LedgerRepository, OwnedStream } from '../repositories/ledger.repository';
import { notFound, validationError } from '../domain/errors';
import type { LedgerKeys } from '../keys';
import type { FactsService } from './facts.service';
import { storedTreeError, type MerkleTree } from './merkle-tree.service';

/** An inclusion proof without its fact_id: what the internal evidence route puts beside the fact. */
export type FactInclusion = Omit<InclusionProof, 'fact_id'>;

/**
 * Checkpoints and Merkle proofs of a stream (docs/evidence.md "Proofs"; RFC 9162 section 2.1).
 * Leaf i of a stream is its fact at seq i + 1; the tree of size N is that of its first N facts.
 *
 * Fail closed (docs/adr/0009-merkle-storage.md): every proof is checked against the root of the
 * same size before it is answered, and the fact's leaf against the fact's own content, so a stored
 * node on the fact's side of the tree that disagrees with the facts is refused (500), never signed.
 * A stored node elsewhere in the tree can only be caught by a checkpoint an auditor kept (the
 * consistency proof from it fails) or by a proof of a fact below that node.
 */
export class ProofsService {
  constructor(
    private readonly facts: FactsService,
    private readonly repo: LedgerRepository,
    private readonly tree: MerkleTree,
    private readonly keys: LedgerKeys,
    /** ledger_proof_duration_seconds, by kind (checkpoint, inclusion, consistency). */
    private readonly latency?: Histogram<'kind'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** GET /streams/{stream_id}/checkpoint: the signed tree head at tree_size (default: the current size). */
  async checkpoint(caller: AuthenticatedIdentity, streamId: string, treeSize?: number): Promise<Checkpoint> {
    return this.timed('checkpoint', async () => {
      const stream = await this.facts.ownedStream(caller, streamId);
      const size = readSize(treeSize ?? stream.head_seq, 'tree_size', 1, stream.head_seq);
      const signer = this.signer();
      const [root] = await this.rangeHashes(stream, [{ start: 0, end: size }]);
      return this.sign(await signer, stream.stream_id, size, root);
    });
  }

  /** GET /facts/{fact_id}/inclusion: the fact's inclusion proof at tree_size (default: the current size). */
  async inclusion(caller: AuthenticatedIdentity, factId: string, treeSize?: number): Promise<InclusionProof> {
    return this.timed('inclusion', async () => {
      const fact = await this.repo.findFact(caller.tenant_id, factId);
      if (!fact) throw notFound('Fact', factId);
      const stream = await this.repo.findStream(caller.tenant_id, fact.stream_id);
      if (!stream) throw notFound('Fact', factId);
      return { fact_id: fact.fact_id, ...(await this.prove(stream, fact, treeSize)) };
    });
  }

  /**
   * GET /internal/v1/inclusion: the fact sealed under client_ref in an audit stream, with its
   * inclusion proof (the verdict's evidence route; the service credential reads any tenant's
   * audit stream). The stream is `arbiter.<tenant_id>.<kind>` in that tenant's namespace
   * (docs/ledger-formats.md "Stream identity"): a stream of that id in another tenant's namespace is
   * never looked at. 404 while no fact has that client_ref.
   */
  async byClientRefAnyTenant(streamId: string, clientRef: string, treeSize?: number): Promise<AuditInclusion> {
    return this.timed('inclusion', async () => {
      const owner = auditStreamTenant(streamId);
      if (owner === null) throw validationError(`stream_id must be an audit stream, arbiter.<tenant_id>.<kind>`, 'stream_id');
      // Trust boundary: the services write each tenant's audit stream in that tenant's namespace.
      const tenantId = mintTenantId(owner);
      const fact = await this.repo.findByClientRef(tenantId, streamId, clientRef);
      if (!fact) throw notFound('Fact', clientRef);
      const stream = await this.repo.findStream(tenantId, streamId);
      if (!stream) throw notFound('Fact', clientRef);
      return { fact: presentFact(fact), ...(await this.prove(stream, fact, treeSize)) };
    });
  }

  /**
   * GET /internal/v1/tenants/{tenant_id}/facts/{fact_id}: a fact of the tenant, the fact before it and
   * its inclusion proof at the stream's current size (the verdict gateway's ledger citations,
   * docs/ledger-formats.md "Cited facts"). Another tenant's fact is not found, as an unknown one.
   */
  async cited(tenantId: TenantId, factId: string): Promise<CitedFact> {
    return this.timed('inclusion', async () => {
      const fact = await this.repo.findFact(tenantId, factId);
      if (!fact) throw notFound('Fact', factId);
      const [stream, parent] = await Promise.all([
        this.repo.findStream(tenantId, fact.stream_id),
        fact.parent_fact_id ? this.repo.findFact(tenantId, fact.parent_fact_id) : Promise.resolve(null),
      ]);
      if (!stream) throw notFound('Fact', factId);
      // Fail closed: a chain with a hole proves nothing about the fact after it.
      if (fact.parent_fact_id && !parent)
        throw new AppError(500, 'INTERNAL_ERROR', `Fact ${fact.fact_id} names a parent ${fact.parent_fact_id} its stream does not hold`);
      return { fact: presentFact(fact), parent: parent ? presentFact(parent) : null, ...(await this.prove(stream, fact, undefined)) };
    });
  }

  /** GET /streams/{stream_id}/consistency?from=M&to=N (1 ≤ M ≤ N ≤ the current size). */
  async consistency(
    caller: AuthenticatedIdentity,
    streamId: string,
    from: number | undefined,
    to: number | undefined,
  ): Promise<ConsistencyProof> {
    return this.timed('consistency', async () => {
      const stream = await this.facts.ownedStream(caller, streamId);
      if (from === undefined) throw validationError('from is required', 'from');
      if (to === undefined) throw validationError('to is required', 'to');
      const n = readSize(to, 'to', 1, stream.head_seq);
      const m = readSize(from, 'from', 1, n);
      const ranges = m === n ? [] : consistencyRanges(m, n);
      const [firstRoot, secondRoot, ...path] = await this.rangeHashes(stream, [{ start: 0, end: m }, { start: 0, end: n }, ...ranges]);
      if (!verifyConsistency(m, n, firstRoot, secondRoot, path))
        throw storedTreeError(stream.stream_id, `the consistency proof from ${m} to ${n} does not verify`);
      return { from: m, to: n, consistency_path: path.map(toDigest) };
    });
  }

  private async prove(stream: OwnedStream, fact: FactRecord, treeSize: number | undefined): Promise<FactInclusion> {
    const leafIndex = fact.seq - 1;
    const size = readSize(treeSize ?? stream.head_seq, 'tree_size', fact.seq, stream.head_seq);
    // The leaf is the fact's hash; a fact whose stored hash is not that of its content proves nothing.
    const recomputed = computeFactHash(fact, fact.payload_text as CanonicalText);
    if (recomputed !== fact.fact_hash)
      throw storedTreeError(stream.stream_id, `fact ${fact.fact_id} does not hash to its stored fact_hash`);
    const signer = this.signer();
    const [root, ...path] = await this.rangeHashes(stream, [{ start: 0, end: size }, ...inclusionRanges(leafIndex, size)]);
    if (!verifyInclusion(leafIndex, size, factLeaf(fact.fact_hash), path, root)) {
      throw storedTreeError(stream.stream_id, `the inclusion proof of leaf ${leafIndex} at size ${size} does not verify`);
    }
    return {
      leaf_index: leafIndex,
      tree_size: size,
      inclusion_path: path.map(toDigest),
      checkpoint: this.sign(await signer, stream.stream_id, size, root),
    };
  }

  /** MTH of each range (ranges the RFC's recursion produces), from one batch of subtree reads. */
  private async rangeHashes(stream: OwnedStream, ranges: LeafRange[]): Promise<NodeHash[]> {
    const subtrees = ranges.flatMap(perfectSubtrees);
    const hashes = await this.tree.subtrees(stream, subtrees);
    const byKey = new Map(subtrees.map((s, i) => [`${s.level}/${s.index}`, hashes[i]] as const));
    return ranges.map((range) => rangeHash(range, (s) => byKey.get(`${s.level}/${s.index}`)!));
  }

  /** The current key with the time it was asked for, read while the tree is (it is one more round trip). */
  private signer(): Promise<{ key: SigningKey<(message: string) => Uint8Array>; now: number }> {
    const now = this.now();
    const pending = this.keys.signer(new Date(now)).then((key) => ({ key, now }));
    // Awaited only after the tree is read: a failure meanwhile must not be an unhandled rejection.
    pending.catch(() => undefined);
    return pending;
  }

  private sign(
    { key: signer, now }: { key: SigningKey<(message: string) => Uint8Array>; now: number },
    streamId: string,
    treeSize: number,
    root: NodeHash,
  ): Checkpoint {
    const unsigned: UnsignedCheckpoint = {
      stream_id: streamId,
      tree_size: treeSize,
      root_hash: toDigest(root),
      // Only differs from now when another replica's clock, ahead of ours, made the current key.
      created_at_ms: Math.max(now, signer.notBeforeMs),
      key_id: signer.kid,
      signature_alg: CHECKPOINT_SIGNATURE_ALG,
    };
    return { ...unsigned, signature: bytesToBase64(signer.sign(checkpointSigningInput(unsigned))) };
  }

  private async timed<T>(kind: string, work: () => Promise<T>): Promise<T> {
    const end = this.latency?.startTimer({ kind });
    try {
      return await work();
    } finally {
      end?.();
    }
  }
}

/** A tree size from a query: an integer in [min, max], else 400 naming the parameter. */
function readSize(value: number, name: string, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw validationError(
      max < min
        ? `${name}: this stream has no tree of that size (it holds ${max} facts)`
        : `${name} must be an integer from ${min} to ${max}`,
      name,
    );
  }
  return value;
}
