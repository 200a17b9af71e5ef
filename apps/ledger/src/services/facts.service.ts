import type { AuthenticatedIdentity } from '@arbiter/auth';
import type { CanonicalText } from '@arbiter/canonical';
import type { Counter } from 'prom-client';
import { assertStorable, canonicalPayload, PayloadError, STREAM_ID_PATTERN } from '../domain/payload';
import type { LedgerRepository, OwnedStream } from '../repositories/ledger.repository';
import type { Fact, FactList, StreamPage } from '../models/ledger';
import { forbidden, notFound, validationError } from '../http/errors';
import type { SealQueue } from './seal-queue.service';
import { parseSealBody } from '../http/seal-request';
import { presentFact, presentListEntry, presentStream } from '../presenters/ledger';
import { readCursor, readLimit, toPage } from '../http/pagination';

export interface ListFactsQuery {
  limit?: number;
  offset?: number;
}

/** Sealing and reading facts and streams (docs/ledger-formats.md "Contract"). Tenant isolation: another tenant's ids answer 404. */
export class FactsService {
  constructor(
    private readonly repo: LedgerRepository,
    private readonly queue: SealQueue,
    /** ledger_seals_total, by result (created, replayed). */
    private readonly seals: Counter<'result'>,
  ) {}

  /**
   * POST /streams/<stream_id>/facts, from the fast lane and the tsoa route alike (http/seal-route.ts).
   * Seals a fact; `created` is false when client_ref matched an earlier fact (answered with 200).
   * The raw body is parsed and validated here, once, and everything the caller sent is checked before
   * the seal joins a group commit, so that no request can fail the statement that carries other
   * callers' seals (docs/ledger-formats.md).
   */
  async seal(caller: AuthenticatedIdentity, streamId: string, raw: unknown): Promise<{ fact: Fact; created: boolean }> {
    const body = parseSealBody(raw);
    assertStreamId(streamId);
    let payloadText: CanonicalText;
    try {
      for (const field of ['tenant_id', 'actor', 'client_ref'] as const) {
        const value = body[field];
        if (value !== undefined) assertStorable(value, field);
      }
      payloadText = canonicalPayload(body.custom_payload);
    } catch (err) {
      if (err instanceof PayloadError) throw validationError(err.message, err.field);
      throw err;
    }
    if (body.tenant_id !== caller.tenant_id) {
      throw forbidden(`tenant_id ${body.tenant_id} is not the tenant of this API key`);
    }
    const outcome = await this.queue.seal({
      tenantId: caller.tenant_id,
      streamId,
      actor: body.actor,
      payloadText,
      clientRef: body.client_ref ?? null,
    });
    this.seals.inc({ result: outcome.created ? 'created' : 'replayed' });
    return { fact: presentFact(outcome.fact), created: outcome.created };
  }

  /**
   * Facts in chain order. offset counts facts from the start of the chain; since positions are
   * dense (1..n, enforced by the chain), page k is the index range (offset, offset + limit].
   */
  async listFacts(caller: AuthenticatedIdentity, streamId: string, q: ListFactsQuery): Promise<FactList> {
    const limit = readLimit(q.limit);
    const offset = q.offset ?? 0;
    if (!Number.isSafeInteger(offset) || offset < 0) throw validationError('offset must be a non-negative integer', 'offset');
    const stream = await this.ownedStream(caller, streamId);
    const upto = Math.min(stream.head_seq, offset + limit);
    const rows = upto > offset ? await this.repo.chainPage(stream, offset, upto, limit) : [];
    return { facts: rows.map(presentListEntry), count: stream.head_seq, limit, offset };
  }

  async getFact(caller: AuthenticatedIdentity, factId: string): Promise<Fact> {
    const fact = await this.repo.findFact(caller.tenant_id, factId);
    if (!fact) throw notFound('Fact', factId);
    return presentFact(fact);
  }

  /** A tenant's streams, oldest first. Another tenant's list answers 404 like its records. */
  async listStreams(caller: AuthenticatedIdentity, tenantId: string, q: { limit?: number; cursor?: string }): Promise<StreamPage> {
    if (tenantId !== caller.tenant_id) throw notFound('Tenant', tenantId);
    const limit = readLimit(q.limit);
    const after = readCursor(q.cursor);
    const rows = await this.repo.listStreams(caller.tenant_id, limit + 1, after && { created_at_ms: after.at, stream_id: after.id });
    return toPage(rows, limit, (s) => ({ at: s.created_at_ms, id: s.stream_id }), presentStream);
  }

  async ownedStream(caller: AuthenticatedIdentity, streamId: string): Promise<OwnedStream> {
    assertStreamId(streamId);
    const stream = await this.repo.findStream(caller.tenant_id, streamId);
    if (!stream) throw notFound('Stream', streamId);
    return stream;
  }
}

function assertStreamId(streamId: string): void {
  if (!STREAM_ID_PATTERN.test(streamId)) {
    throw validationError('stream_id must be 1-128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit', 'stream_id');
  }
}
