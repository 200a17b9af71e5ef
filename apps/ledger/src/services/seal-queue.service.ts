import type { Pool } from 'pg';
import type { TenantId } from '@arbiter/auth';
import type { CanonicalText } from '@arbiter/canonical';
import { bisectOnRowFault, isRowFault, newId } from '@arbiter/db';
import { computeFactHash, GENESIS_PREV_HASH } from '../domain/fact-hash';
import {
  streamKeyText,
  type AppendGroup,
  type AppendResult,
  type FactRecord,
  type LedgerRepository,
  type NewFactRow,
  type StreamKey,
} from '../repositories/ledger.repository';
import { validationError } from '../domain/errors';

/**
 * A validated seal: the caller's tenant (= body tenant_id, the namespace of streamId), the
 * authenticated principal that seals it, and the payload's canonical text.
 */
export interface SealRequest {
  tenantId: TenantId;
  streamId: string;
  actor: string;
  /** The authenticated sealer (docs/ledger-formats.md "sealed_by"): a principal id, or the service identity. */
  sealedBy: string;
  payloadText: CanonicalText;
  clientRef: string | null;
}

export interface SealOutcome {
  fact: FactRecord;
  /** false when client_ref matched an existing fact (a retry): nothing was written. */
  created: boolean;
}

interface Pending {
  request: SealRequest;
  resolve(outcome: SealOutcome): void;
  reject(err: unknown): void;
  /** Set when resolved or rejected: a failed flush retries only the seals still waiting. */
  settled?: boolean;
}

/** What this process last knew of a stream's head. */
interface Head {
  head_seq: number;
  head_fact_id: string | null;
  head_hash: string;
  head_sealed_at_ms: number;
}

/** One stream's seals in one flush. */
interface Group extends StreamKey {
  /** streamKeyText of the stream: the key of every per-stream map here. */
  key: string;
  batch: Pending[];
  /** Facts already sealed under the client_refs of this batch (found after a conflict). */
  known: Map<string, FactRecord>;
}

interface Plan {
  outcomes: SealOutcome[];
  rows: NewFactRow[];
  next: Head;
}

export interface SealQueueOptions {
  /** Most seals committed in one statement, over all its streams. */
  maxBatch: number;
  /** Flushes in flight at once (each holds one pool connection while it runs). */
  concurrency?: number;
  /**
   * While a flush is in flight, another starts beside it only when at least this many seals wait for
   * one (default 64): fewer gather for the next flush instead, since a statement and its commit cost
   * the database and this process about as much as tens of seals. A large flush (a service batch)
   * then holds up no more than this many others.
   */
  parallelFrom?: number;
  /** false: every flush takes the locked path (tests pin both paths). Default true. */
  optimistic?: boolean;
  /** How long a stream that lost an optimistic race stays on the locked path. */
  contendedMs?: number;
  /** Most stream heads (and contended streams) remembered. */
  maxCachedHeads?: number;
  now?: () => number;
  /** Observes the number of seals in each flush (metrics). */
  onFlush?: (size: number) => void;
  /** After a commit grew a stream from `from` to `to` facts, whose fact hashes (seq from + 1 to `to`) are `factHashes` (the Merkle node filler). */
  onAppended?: (stream: StreamKey, from: number, to: number, factHashes: string[]) => void;
}

/**
 * Appends seals to streams with group commit (docs/ledger-formats.md; docs/development.md).
 *
 * Seals queue per stream, a stream being a (tenant, stream id) pair. Whenever a flush slot is free, one flush takes the queued seals of every
 * stream not already being written (up to maxBatch) and appends them together: one commit (one WAL
 * flush) for many seals of many streams, and no timer (seals gather while earlier flushes run). A
 * stream is in at most one flush at a time, so this process keeps each stream's arrival order.
 * Callers' promises settle after the commit.
 *
 * Linearisation is the database's, whatever the number of replicas. Two paths:
 * - optimistic (the usual case, one replica per stream at a time): the process remembers each
 *   stream's head, chains the batch after it, and ONE autocommitted statement moves the head (or
 *   creates the stream) only if it is still where the process saw it, inserting the facts only
 *   then (LedgerRepository.appendStreams). One round trip per flush.
 * - locked: a stream that lost such a race (another replica appended first) is contended for
 *   contendedMs; its seals lock the heads FOR UPDATE in a transaction, in stream_id order, chain
 *   after what they read and commit. No work is wasted on races, at the price of a few round trips.
 * A client_ref used before fails the optimistic statement on unique (tenant_id, stream_id, client_ref); the
 * flush then takes the locked path, which looks client_refs up under the lock and answers those
 * seals with the original facts. Unique (tenant_id, stream_id, seq) refuses a fork or duplicate position in
 * every case.
 */
export class SealQueue {
  private readonly queues = new Map<string, Pending[]>();
  private readonly writing = new Set<string>();
  private readonly heads = new Map<string, Head>();
  private readonly contendedUntil = new Map<string, number>();
  private readonly flushes = new Set<Promise<void>>();
  private pumpScheduled = false;
  private readonly now: () => number;

  constructor(
    private readonly pool: Pool,
    private readonly repo: LedgerRepository,
    private readonly opts: SealQueueOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  seal(request: SealRequest): Promise<SealOutcome> {
    return new Promise<SealOutcome>((resolve, reject) => {
      const key = streamKeyText(request.tenantId, request.streamId);
      const queue = this.queues.get(key);
      if (queue) queue.push({ request, resolve, reject });
      else this.queues.set(key, [{ request, resolve, reject }]);
      if (!this.pumpScheduled) {
        // After the current tick, so seals arriving together share the first statement.
        this.pumpScheduled = true;
        queueMicrotask(() => {
          this.pumpScheduled = false;
          this.pump();
        });
      }
    });
  }

  /** Resolves when every queued seal has settled (graceful shutdown). */
  async idle(): Promise<void> {
    while (this.flushes.size || this.queues.size) {
      if (this.flushes.size) await Promise.allSettled([...this.flushes]);
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private pump(): void {
    while (this.flushes.size < (this.opts.concurrency ?? 4)) {
      if (this.flushes.size > 0 && !this.waitingAtLeast(this.opts.parallelFrom ?? 64)) return;
      const groups = this.take();
      if (groups.length === 0) return;
      this.opts.onFlush?.(groups.reduce((n, g) => n + g.batch.length, 0));
      const flush: Promise<void> = this.flush(groups).finally(() => {
        for (const g of groups) this.writing.delete(g.key);
        this.flushes.delete(flush);
        this.pump();
      });
      this.flushes.add(flush);
    }
  }

  /** Whether at least `n` queued seals belong to streams not being written (what a flush could take now). */
  private waitingAtLeast(n: number): boolean {
    let waiting = 0;
    for (const [key, queue] of this.queues) {
      if (this.writing.has(key)) continue;
      waiting += queue.length;
      if (waiting >= n) return true;
    }
    return false;
  }

  /** Queued seals of streams not being written, up to maxBatch, taking streams in arrival order. */
  private take(): Group[] {
    const groups: Group[] = [];
    let room = this.opts.maxBatch;
    for (const [key, queue] of this.queues) {
      if (room === 0) break;
      if (this.writing.has(key)) continue;
      const batch = queue.splice(0, room);
      room -= batch.length;
      this.queues.delete(key);
      // A stream with seals left goes to the back: others get their turn in the next statement.
      if (queue.length) this.queues.set(key, queue);
      this.writing.add(key);
      const { tenantId, streamId } = batch[0].request;
      groups.push({ key, tenantId, streamId, batch, known: new Map() });
    }
    return groups;
  }

  /**
   * Appends the groups; when the statement fails, isolates the seal that failed it
   * (docs/ledger-formats.md: one request's bad row never fails another). A failure that a row's values can
   * cause (isRowFault) splits the seals still waiting in two halves, in arrival order, and appends
   * each half on its own, recursively (bisectOnRowFault, libs/db): every half is chained afresh after
   * the head the previous one left, so the good seals are committed in their order and only the
   * failing seal gets an error, after about 2·log2(batch) extra statements per bad seal. Any other
   * failure (the database is away) fails the seals still waiting: retrying them one by one would only
   * multiply the load.
   */
  private async flush(groups: Group[]): Promise<void> {
    const seals = groups.flatMap((g) => g.batch);
    const outcomes = await bisectOnRowFault(seals, (part) => this.append(part.length === seals.length ? groups : regroup(part)), {
      // SQLSTATE classes 22, 23 and 54; the client_ref conflict (a 23505) is handled before this.
      isRowFault,
      otherFault: 'fail-part',
      // A flush may have committed some streams (the optimistic statement) before another part failed.
      uncommitted: (part) => part.filter((p) => !p.settled),
    });
    // A row failure reaches a seal only once it stands alone: the caller's value failed the statement.
    outcomes.forEach((o, i) => {
      if (!o.ok) reject(seals[i], isRowFault(o.error) ? refusedRow(o.error) : o.error);
    });
  }

  /** One attempt at appending the groups' seals; settles those it committed. */
  private async append(groups: Group[]): Promise<void> {
    try {
      const now = this.now();
      const optimistic = this.opts.optimistic === false ? [] : groups.filter((g) => (this.contendedUntil.get(g.key) ?? 0) <= now);
      const locked = groups.filter((g) => !optimistic.includes(g));
      if (optimistic.length) locked.push(...(await this.appendOptimistically(optimistic)));
      if (locked.length) await this.appendLocked(locked);
    } catch (err) {
      // Heads are read again next time: a failed statement may have left this process's view stale.
      for (const g of groups) this.heads.delete(g.key);
      throw err;
    }
  }

  /** One optimistic statement for the groups; settles those appended and returns the others. */
  private async appendOptimistically(groups: Group[]): Promise<Group[]> {
    const unknown = groups.filter((g) => !this.heads.has(g.key));
    if (unknown.length) for (const h of await this.repo.readHeads(unknown)) this.remember(streamKeyText(h.tenant_id, h.stream_id), h);
    const nowMs = this.now();
    const writes: Array<{ group: Group; plan: Plan; append: AppendGroup }> = [];
    for (const group of groups) {
      const head = this.heads.get(group.key) ?? null;
      const plan = this.plan(group, head, nowMs);
      writes.push({
        group,
        plan,
        append: { streamId: group.streamId, tenantId: group.tenantId, expectedSeq: head ? head.head_seq : null, facts: plan.rows },
      });
    }
    if (writes.length === 0) return [];
    let result: AppendResult;
    try {
      result = await this.repo.appendStreams(
        writes.map((w) => w.append),
        nowMs,
      );
    } catch (err) {
      // A client_ref used before: the locked path looks them up and answers the retries.
      if (isClientRefConflict(err)) return writes.map((w) => w.group);
      throw err;
    }
    const lost: Group[] = [];
    for (const { group, plan } of writes) {
      if (result.appended.has(group.key)) {
        this.remember(group.key, plan.next);
        settle(group, plan.outcomes);
        this.appended(group, plan);
        continue;
      }
      // Another replica appended first: keep the head it left and take the lock for a while.
      const current = result.currentHeads.get(group.key);
      if (current) this.remember(group.key, current);
      else this.heads.delete(group.key);
      this.contend(group.key, nowMs);
      lost.push(group);
    }
    return lost;
  }

  /**
   * The locked path: one transaction locks every head of the groups (creating new streams inside
   * it, so no one sees a stream without its facts), chains after what it read, and commits.
   * A deadlock (a replica creating the same new stream at the same moment) is retried.
   */
  private async appendLocked(groups: Group[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.appendLockedOnce(groups);
      } catch (err) {
        if ((err as { code?: string }).code !== '40P01' || attempt >= 3) throw err;
        for (const g of groups) g.known.clear();
      }
    }
  }

  private async appendLockedOnce(groups: Group[]): Promise<void> {
    const client = await this.pool.connect();
    let plans: Array<{ group: Group; plan: Plan }> = [];
    try {
      await client.query('BEGIN');
      const nowMs = this.now();
      const keyOf = (h: { tenant_id: string; stream_id: string }) => streamKeyText(h.tenant_id, h.stream_id);
      const heads = new Map((await this.repo.lockHeads(client, groups)).map((h) => [keyOf(h), h] as const));
      const missing = groups.filter((g) => !heads.has(g.key));
      if (missing.length) {
        // docs/ledger-formats.md "Stream identity": a stream is born in its tenant's namespace with its first fact.
        await this.repo.createStreams(client, missing, nowMs);
        for (const h of await this.repo.lockHeads(client, missing)) heads.set(keyOf(h), h);
      }
      const refs = groups.flatMap((g) =>
        [...new Set(g.batch.map((p) => p.request.clientRef).filter((r): r is string => r !== null))].map((clientRef) => ({
          tenantId: g.tenantId,
          streamId: g.streamId,
          clientRef,
        })),
      );
      if (refs.length) {
        const byStream = new Map(groups.map((g) => [g.key, g] as const));
        for (const f of await this.repo.findByClientRefs(client, refs)) byStream.get(keyOf(f))!.known.set(f.client_ref as string, f);
      }
      plans = groups.map((group) => ({ group, plan: this.plan(group, heads.get(group.key)!, nowMs) }));
      const appends = plans
        .filter(({ plan }) => plan.rows.length)
        .map(({ group, plan }) => ({ streamId: group.streamId, tenantId: group.tenantId, expectedSeq: null, facts: plan.rows }));
      if (appends.length) await this.repo.appendLocked(client, appends, nowMs);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    for (const { group, plan } of plans) {
      this.remember(group.key, plan.next);
      settle(group, plan.outcomes);
      this.appended(group, plan);
    }
  }

  private appended(stream: StreamKey, plan: Plan): void {
    if (plan.rows.length && this.opts.onAppended) {
      this.opts.onAppended(
        { tenantId: stream.tenantId, streamId: stream.streamId },
        plan.rows[0].seq - 1,
        plan.next.head_seq,
        plan.rows.map((r) => r.fact_hash),
      );
    }
  }

  /** Chains the group's seals after `head` (null: a new stream of the group's tenant). */
  private plan(group: Group, head: Head | null, nowMs: number): Plan {
    const { streamId, tenantId, batch, known } = group;
    let seq = head?.head_seq ?? 0;
    let prevHash = head?.head_hash ?? GENESIS_PREV_HASH;
    let prevId = head?.head_fact_id ?? null;
    // Chain time never goes backwards, even across replicas with skewed clocks.
    const sealedAt = Math.max(nowMs, head?.head_sealed_at_ms ?? 0);
    const sealedHere = new Map<string, FactRecord>();
    const rows: NewFactRow[] = [];
    const outcomes = batch.map(({ request: r }): SealOutcome => {
      const existing = r.clientRef ? (known.get(r.clientRef) ?? sealedHere.get(r.clientRef)) : undefined;
      if (existing) return { fact: existing, created: false };
      seq += 1;
      const fact_id = newId('fct-');
      const fact_hash = computeFactHash(
        {
          fact_id,
          stream_id: streamId,
          tenant_id: tenantId,
          actor: r.actor,
          sealed_by: r.sealedBy,
          sealed_at_ms: sealedAt,
          prev_hash: prevHash,
        },
        r.payloadText,
      );
      const row: NewFactRow = {
        fact_id,
        seq,
        actor: r.actor,
        sealed_by: r.sealedBy,
        sealed_at_ms: sealedAt,
        payload_text: r.payloadText,
        prev_hash: prevHash,
        fact_hash,
        parent_fact_id: prevId,
        client_ref: r.clientRef,
      };
      rows.push(row);
      const fact: FactRecord = { ...row, stream_id: streamId, tenant_id: tenantId };
      if (r.clientRef) sealedHere.set(r.clientRef, fact);
      prevHash = fact_hash;
      prevId = fact_id;
      return { fact, created: true };
    });
    const next: Head = rows.length
      ? { head_seq: seq, head_fact_id: prevId, head_hash: prevHash, head_sealed_at_ms: sealedAt }
      : (head ?? { head_seq: 0, head_fact_id: null, head_hash: GENESIS_PREV_HASH, head_sealed_at_ms: 0 });
    return { outcomes, rows, next };
  }

  private remember(key: string, head: Head): void {
    const { head_seq, head_fact_id, head_hash, head_sealed_at_ms } = head;
    this.heads.delete(key); // re-insert: the Map's order is then least recently used first
    this.heads.set(key, { head_seq, head_fact_id, head_hash, head_sealed_at_ms });
    if (this.heads.size > (this.opts.maxCachedHeads ?? 10_000)) this.heads.delete(this.heads.keys().next().value as string);
  }

  private contend(key: string, nowMs: number): void {
    this.contendedUntil.delete(key);
    this.contendedUntil.set(key, nowMs + (this.opts.contendedMs ?? 2000));
    if (this.contendedUntil.size > (this.opts.maxCachedHeads ?? 10_000))
      this.contendedUntil.delete(this.contendedUntil.keys().next().value as string);
  }
}

function settle(group: Group, outcomes: SealOutcome[]): void {
  group.batch.forEach((p, i) => {
    p.settled = true;
    p.resolve(outcomes[i]);
  });
}

function reject(p: Pending, err: unknown): void {
  p.settled = true;
  p.reject(err);
}

/** Seals in arrival order as one group per stream, keeping each stream's order. */
function regroup(seals: Pending[]): Group[] {
  const byStream = new Map<string, Group>();
  for (const p of seals) {
    const { tenantId, streamId } = p.request;
    const key = streamKeyText(tenantId, streamId);
    const group = byStream.get(key);
    if (group) group.batch.push(p);
    else byStream.set(key, { key, tenantId, streamId, batch: [p], known: new Map() });
  }
  return [...byStream.values()];
}

/**
 * The answer of the one seal that failed a statement on its own. A data exception is the caller's
 * value, which validation did not foresee: 400, with PostgreSQL's sentence about it (its message
 * only, not its detail). Anything else stays a server error (500 with an error id, logged).
 */
function refusedRow(err: unknown): unknown {
  const e = err as { code: string; message?: string };
  if (!e.code.startsWith('22')) return err;
  return validationError(`The database cannot store this seal: ${e.message ?? e.code}`);
}

function isClientRefConflict(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && e.constraint === 'facts_tenant_id_stream_id_client_ref_key';
}
