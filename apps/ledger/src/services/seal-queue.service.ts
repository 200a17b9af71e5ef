import type { Pool } from 'pg';
import type { TenantId } from '@arbiter/auth';
import type { CanonicalText } from '@arbiter/canonical';
import { newId } from '@arbiter/db';
import type { AppError } from '@arbiter/http';
import { computeFactHash, GENESIS_PREV_HASH } from '../domain/fact-hash';
import type { AppendGroup, AppendResult, FactRecord, LedgerRepository, NewFactRow } from '../repositories/ledger.repository';
import { notFound, validationError } from '../http/errors';

/** A validated seal: the caller's tenant (= body tenant_id) and the payload's canonical text. */
export interface SealRequest {
  tenantId: TenantId;
  streamId: string;
  actor: string;
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
  tenant_id: TenantId;
  head_seq: number;
  head_fact_id: string | null;
  head_hash: string;
  head_sealed_at_ms: number;
}

/** One stream's seals in one flush. */
interface Group {
  streamId: string;
  batch: Pending[];
  /** Facts already sealed under the client_refs of this batch (found after a conflict). */
  known: Map<string, FactRecord>;
}

interface Plan {
  outcomes: Array<SealOutcome | AppError>;
  rows: NewFactRow[];
  owner: TenantId;
  next: Head;
}

export interface SealQueueOptions {
  /** Most seals committed in one statement, over all its streams. */
  maxBatch: number;
  /** Flushes in flight at once (each holds one pool connection while it runs). */
  concurrency?: number;
  /** false: every flush takes the locked path (tests pin both paths). Default true. */
  optimistic?: boolean;
  /** How long a stream that lost an optimistic race stays on the locked path. */
  contendedMs?: number;
  /** Most stream heads (and contended streams) remembered. */
  maxCachedHeads?: number;
  now?: () => number;
  /** Observes the number of seals in each flush (metrics). */
  onFlush?: (size: number) => void;
  /** After a commit grew a stream from `from` to `to` facts (the Merkle node filler). */
  onAppended?: (streamId: string, from: number, to: number) => void;
}

/**
 * Appends seals to streams with group commit (docs/ledger-formats.md; docs/development.md).
 *
 * Seals queue per stream. Whenever a flush slot is free, one flush takes the queued seals of every
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
 * A client_ref used before fails the optimistic statement on unique (stream_id, client_ref); the
 * flush then takes the locked path, which looks client_refs up under the lock and answers those
 * seals with the original facts. Unique (stream_id, seq) refuses a fork or duplicate position in
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
      const queue = this.queues.get(request.streamId);
      if (queue) queue.push({ request, resolve, reject });
      else this.queues.set(request.streamId, [{ request, resolve, reject }]);
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
      const groups = this.take();
      if (groups.length === 0) return;
      this.opts.onFlush?.(groups.reduce((n, g) => n + g.batch.length, 0));
      const flush: Promise<void> = this.flush(groups).finally(() => {
        for (const g of groups) this.writing.delete(g.streamId);
        this.flushes.delete(flush);
        this.pump();
      });
      this.flushes.add(flush);
    }
  }

  /** Queued seals of streams not being written, up to maxBatch, taking streams in arrival order. */
  private take(): Group[] {
    const groups: Group[] = [];
    let room = this.opts.maxBatch;
    for (const [streamId, queue] of this.queues) {
      if (room === 0) break;
      if (this.writing.has(streamId)) continue;
      const batch = queue.splice(0, room);
      room -= batch.length;
      this.queues.delete(streamId);
      // A stream with seals left goes to the back: others get their turn in the next statement.
      if (queue.length) this.queues.set(streamId, queue);
      this.writing.add(streamId);
      groups.push({ streamId, batch, known: new Map() });
    }
    return groups;
  }

  /**
   * Appends the groups; when the statement fails, isolates the seal that failed it
   * (docs/ledger-formats.md: one request's bad row never fails another). A failure that a row's values can
   * cause (rowFailure) splits the seals still waiting in two halves, in arrival order, and flushes
   * each half on its own, recursively: every half is chained afresh after the head the previous one
   * left, so the good seals are committed in their order and only the failing seal gets an error,
   * after about 2·log2(batch) extra statements per bad seal. Any other failure (the database is
   * away) fails the seals still waiting: retrying them one by one would only multiply the load.
   */
  private async flush(groups: Group[]): Promise<void> {
    try {
      const now = this.now();
      const optimistic = this.opts.optimistic === false ? [] : groups.filter((g) => (this.contendedUntil.get(g.streamId) ?? 0) <= now);
      const locked = groups.filter((g) => !optimistic.includes(g));
      if (optimistic.length) locked.push(...(await this.appendOptimistically(optimistic)));
      if (locked.length) await this.appendLocked(locked);
    } catch (err) {
      // Heads are read again next time: a failed statement may have left this process's view stale.
      for (const g of groups) this.heads.delete(g.streamId);
      const waiting = groups.flatMap((g) => g.batch.filter((p) => !p.settled));
      if (waiting.length > 1 && rowFailure(err)) {
        const half = Math.ceil(waiting.length / 2);
        await this.flush(regroup(waiting.slice(0, half)));
        await this.flush(regroup(waiting.slice(half)));
        return;
      }
      const answer = waiting.length === 1 && rowFailure(err) ? refusedRow(err) : err;
      for (const p of waiting) reject(p, answer);
    }
  }

  /** One optimistic statement for the groups; settles those appended and returns the others. */
  private async appendOptimistically(groups: Group[]): Promise<Group[]> {
    const unknown = groups.filter((g) => !this.heads.has(g.streamId)).map((g) => g.streamId);
    if (unknown.length) for (const h of await this.repo.readHeadsAnyTenant(unknown)) this.remember(h.stream_id, h);
    const nowMs = this.now();
    const writes: Array<{ group: Group; plan: Plan; append: AppendGroup }> = [];
    for (const group of groups) {
      const head = this.heads.get(group.streamId) ?? null;
      const plan = this.plan(group, head, nowMs);
      if (plan.rows.length === 0) settle(group, plan.outcomes); // only other tenants' seals
      else writes.push({ group, plan, append: { streamId: group.streamId, tenantId: plan.owner, expectedSeq: head ? head.head_seq : null, facts: plan.rows } });
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
      if (result.appended.has(group.streamId)) {
        this.remember(group.streamId, plan.next);
        settle(group, plan.outcomes);
        this.appended(group.streamId, plan);
        continue;
      }
      // Another replica appended first: keep the head it left and take the lock for a while.
      const current = result.currentHeads.get(group.streamId);
      if (current) this.remember(group.streamId, current);
      else this.heads.delete(group.streamId);
      this.contend(group.streamId, nowMs);
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
      const ids = groups.map((g) => g.streamId);
      const heads = new Map((await this.repo.lockHeadsAnyTenant(client, ids)).map((h) => [h.stream_id, h] as const));
      const missing = groups.filter((g) => !heads.has(g.streamId));
      if (missing.length) {
        // docs/ledger-formats.md: a stream belongs to the tenant of its first fact.
        await this.repo.createStreams(client, missing.map((g) => ({ streamId: g.streamId, tenantId: g.batch[0].request.tenantId })), nowMs);
        for (const h of await this.repo.lockHeadsAnyTenant(client, missing.map((g) => g.streamId))) heads.set(h.stream_id, h);
      }
      const pairs = groups.flatMap((g) => [...new Set(g.batch.map((p) => p.request.clientRef).filter((r): r is string => r !== null))].map((clientRef) => ({ streamId: g.streamId, clientRef })));
      if (pairs.length) {
        const byStream = new Map(groups.map((g) => [g.streamId, g] as const));
        for (const f of await this.repo.findByClientRefsAnyTenant(client, pairs)) byStream.get(f.stream_id)!.known.set(f.client_ref as string, f);
      }
      plans = groups.map((group) => ({ group, plan: this.plan(group, heads.get(group.streamId)!, nowMs) }));
      const appends = plans.filter(({ plan }) => plan.rows.length).map(({ group, plan }) => ({ streamId: group.streamId, tenantId: plan.owner, expectedSeq: null, facts: plan.rows }));
      if (appends.length) await this.repo.appendLocked(client, appends, nowMs);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    for (const { group, plan } of plans) {
      this.remember(group.streamId, plan.next);
      settle(group, plan.outcomes);
      this.appended(group.streamId, plan);
    }
  }

  private appended(streamId: string, plan: Plan): void {
    if (plan.rows.length) this.opts.onAppended?.(streamId, plan.rows[0].seq - 1, plan.next.head_seq);
  }

  /** Chains the group's seals after `head` (null: a new stream, owned by the first seal's tenant). */
  private plan(group: Group, head: Head | null, nowMs: number): Plan {
    const { streamId, batch, known } = group;
    const owner = head?.tenant_id ?? batch[0].request.tenantId;
    let seq = head?.head_seq ?? 0;
    let prevHash = head?.head_hash ?? GENESIS_PREV_HASH;
    let prevId = head?.head_fact_id ?? null;
    // Chain time never goes backwards, even across replicas with skewed clocks.
    const sealedAt = Math.max(nowMs, head?.head_sealed_at_ms ?? 0);
    const sealedHere = new Map<string, FactRecord>();
    const rows: NewFactRow[] = [];
    const outcomes = batch.map(({ request: r }): SealOutcome | AppError => {
      // Another tenant's stream does not exist for this caller (docs/identity.md).
      if (r.tenantId !== owner) return notFound('Stream', streamId);
      const existing = r.clientRef ? (known.get(r.clientRef) ?? sealedHere.get(r.clientRef)) : undefined;
      if (existing) return { fact: existing, created: false };
      seq += 1;
      const fact_id = newId('fct-');
      const fact_hash = computeFactHash({ fact_id, stream_id: streamId, tenant_id: owner, actor: r.actor, sealed_at_ms: sealedAt, prev_hash: prevHash }, r.payloadText);
      const row: NewFactRow = {
        fact_id,
        seq,
        actor: r.actor,
        sealed_at_ms: sealedAt,
        payload_text: r.payloadText,
        prev_hash: prevHash,
        fact_hash,
        parent_fact_id: prevId,
        client_ref: r.clientRef,
      };
      rows.push(row);
      const fact: FactRecord = { ...row, stream_id: streamId, tenant_id: owner };
      if (r.clientRef) sealedHere.set(r.clientRef, fact);
      prevHash = fact_hash;
      prevId = fact_id;
      return { fact, created: true };
    });
    const next: Head = rows.length
      ? { tenant_id: owner, head_seq: seq, head_fact_id: prevId, head_hash: prevHash, head_sealed_at_ms: sealedAt }
      : (head ?? { tenant_id: owner, head_seq: 0, head_fact_id: null, head_hash: GENESIS_PREV_HASH, head_sealed_at_ms: 0 });
    return { outcomes, rows, owner, next };
  }

  private remember(streamId: string, head: Head): void {
    this.heads.delete(streamId); // re-insert: the Map's order is then least recently used first
    this.heads.set(streamId, head);
    if (this.heads.size > (this.opts.maxCachedHeads ?? 10_000)) this.heads.delete(this.heads.keys().next().value as string);
  }

  private contend(streamId: string, nowMs: number): void {
    this.contendedUntil.delete(streamId);
    this.contendedUntil.set(streamId, nowMs + (this.opts.contendedMs ?? 2000));
    if (this.contendedUntil.size > (this.opts.maxCachedHeads ?? 10_000)) this.contendedUntil.delete(this.contendedUntil.keys().next().value as string);
  }
}

function settle(group: Group, outcomes: Array<SealOutcome | AppError>): void {
  group.batch.forEach((p, i) => {
    const o = outcomes[i];
    p.settled = true;
    if ('fact' in o) p.resolve(o);
    else p.reject(o);
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
    const group = byStream.get(p.request.streamId);
    if (group) group.batch.push(p);
    else byStream.set(p.request.streamId, { streamId: p.request.streamId, batch: [p], known: new Map() });
  }
  return [...byStream.values()];
}

/**
 * Whether a row's values can have failed the statement (PostgreSQL SQLSTATE classes, appendix A):
 * 22 data exception (e.g. 22021 a byte sequence the encoding refuses, 22P02 text that is not JSON),
 * 23 integrity constraint violation (the client_ref conflict is handled before this), 54 program
 * limit exceeded (e.g. an index row too large). Connection failures, shutdowns and lock timeouts
 * are not any one seal's doing.
 */
export function rowFailure(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^(22|23|54)/.test(code);
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
  return e?.code === '23505' && e.constraint === 'facts_stream_id_client_ref_key';
}
