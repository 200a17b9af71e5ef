import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { mintTenantId, type AuthenticatedIdentity } from '@arbiter/auth';
import type { CanonicalText } from '@arbiter/canonical';
import { isRowFault } from '@arbiter/db';
import { AppError } from '@arbiter/http';
import type { Counter } from 'prom-client';
import { isReservedStream, SERVICE_SEALER } from '@arbiter/audit-streams';
import { assertStorable, canonicalPayload, PayloadError, STREAM_ID_PATTERN } from '../domain/payload';
import type { LedgerRepository, OwnedStream } from '../repositories/ledger.repository';
import type { Fact, FactList, SealFactBody, StreamPage } from '../models/ledger';
import type { ServiceSealAnswer, ServiceSealResult } from '../models/internal';
import { forbidden, notFound, validationError } from '../domain/errors';
import type { SealOutcome, SealQueue, SealRequest } from './seal-queue.service';
import { parseSealBody } from '../domain/seal-request';
import { atSeal, invalidSeals, parseServiceSeal, parseServiceSealEnvelope } from '../domain/service-seal-request';
import { presentFact, presentListEntry, presentStream } from '../presenters/ledger';
import { readCursor, readLimit, toPage } from '../domain/pagination';

export interface ListFactsQuery {
  limit?: number;
  offset?: number;
}

/**
 * Sealing and reading facts and streams (docs/ledger-formats.md "Contract"). Stream ids live in the
 * caller's tenant's namespace ("Stream identity"): another tenant's streams are never looked at, so a
 * name only another tenant uses answers as a name nobody uses. Another tenant's fact or bundle ids answer 404.
 */
export class FactsService {
  constructor(
    private readonly repo: LedgerRepository,
    private readonly queue: SealQueue,
    /** ledger_seals_total, by caller (tenant, service) and result (created, replayed, refused). */
    private readonly seals: Counter<'caller' | 'result'>,
    private readonly logger?: Pick<Logger, 'error'>,
  ) {}

  /**
   * POST /streams/<stream_id>/facts, from the fast lane and the tsoa route alike (http/seal-route.ts).
   * Seals a fact; `created` is false when client_ref matched an earlier fact (answered with 200).
   * The raw body is parsed and validated here, once, and everything the caller sent is checked before
   * the seal joins a group commit, so that no request can fail the statement that carries other
   * callers' seals (docs/ledger-formats.md).
   */
  async seal(caller: AuthenticatedIdentity, streamId: string, raw: unknown): Promise<{ fact: Fact; created: boolean }> {
    // After the credentials and the permission (both doors check them first), before the body.
    if (isReservedStream(streamId)) {
      throw forbidden(
        `Streams whose id starts with arbiter. (in any case) are sealed by the Arbiter services only (docs/ledger-formats.md "Service seals")`,
      );
    }
    const body = parseSealBody(raw);
    assertStreamId(streamId);
    const payloadText = checkedPayload(body);
    if (body.tenant_id !== caller.tenant_id) {
      throw forbidden(`tenant_id ${body.tenant_id} is not the tenant of this API key`);
    }
    const outcome = await this.queue.seal({
      tenantId: caller.tenant_id,
      streamId,
      actor: body.actor,
      // docs/ledger-formats.md "sealed_by": the key's principal, whatever `actor` says.
      sealedBy: caller.principal.id,
      payloadText,
      clientRef: body.client_ref ?? null,
    });
    this.seals.inc({ caller: 'tenant', result: outcome.created ? 'created' : 'replayed' });
    return { fact: presentFact(outcome.fact), created: outcome.created };
  }

  /**
   * POST /internal/v1/seals (docs/ledger-formats.md "Service seals"): the services' audit facts, in
   * batches. Every seal is checked as a public seal is (shape, payload size and depth, storable
   * strings), plus its audit stream and client_ref, before any joins the seal queue: one invalid
   * seal refuses the whole request with 400 naming `seals[i].<field>`, and nothing is sealed. The
   * valid batch then goes through the same group commit as tenant seals, in request order (so the
   * facts of one stream keep it), and each seal is answered on its own: the fact (created now, or
   * earlier under its client_ref), or the refusal of a seal the database would not store alone.
   * A failure that is no one seal's (the database away) fails the request (500): the caller
   * retries it whole, and client_ref makes the seals already committed answer their facts.
   */
  async sealForServices(raw: unknown): Promise<ServiceSealAnswer> {
    const seals = parseServiceSealEnvelope(raw);
    const requests: SealRequest[] = [];
    const problems: Array<{ field: string; message: string }> = [];
    seals.forEach((seal, i) => {
      try {
        const { streamId, body } = parseServiceSeal(seal);
        const payloadText = checkedPayload(body);
        // The service credential vouches for the tenant; the stream id names the same one, and lives in its namespace.
        requests.push({
          tenantId: mintTenantId(body.tenant_id),
          streamId,
          actor: body.actor,
          sealedBy: SERVICE_SEALER,
          payloadText,
          clientRef: body.client_ref,
        });
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 400) throw err;
        problems.push(atSeal(i, err));
      }
    });
    if (problems.length) throw invalidSeals(problems, seals.length);
    const settled = await Promise.allSettled(requests.map((r) => this.queue.seal(r)));
    const batchFailure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected' && !sealRefusal(s.reason));
    if (batchFailure) throw batchFailure.reason;
    const results = settled.map((s) => this.serviceResult(s));
    // Counted once per result kind and batch, not once per seal.
    const counts = { created: 0, replayed: 0, refused: 0 };
    for (const r of results) counts[!r.ok ? 'refused' : r.created ? 'created' : 'replayed'] += 1;
    for (const [result, n] of Object.entries(counts)) if (n) this.seals.inc({ caller: 'service', result }, n);
    return { results };
  }

  private serviceResult(s: PromiseSettledResult<SealOutcome>): ServiceSealResult {
    if (s.status === 'fulfilled') {
      const { fact, created } = s.value;
      return { ok: true, fact_id: fact.fact_id, stream_id: fact.stream_id, seq: fact.seq, fact_hash: fact.fact_hash, created };
    }
    const err = s.reason as unknown;
    if (err instanceof AppError && err.status < 500) return { ok: false, status: err.status, code: err.code, message: err.message };
    // A row the database refused for a reason that is not its values (a constraint): logged like any 500.
    const errorId = randomUUID();
    this.logger?.error({ err, errorId }, 'service seal refused by the database');
    return { ok: false, status: 500, code: 'INTERNAL_ERROR', message: `The database refused this seal (error id ${errorId})` };
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

/**
 * What every seal's values must satisfy beyond its shape (docs/ledger-formats.md "Limits and
 * validation"): storable strings, and custom_payload's size, depth and canonical form. Returns the
 * payload's canonical text, the form it is hashed and stored in.
 */
function checkedPayload(body: SealFactBody): CanonicalText {
  try {
    for (const field of ['tenant_id', 'actor', 'client_ref'] as const) {
      const value = body[field];
      if (value !== undefined) assertStorable(value, field);
    }
    return canonicalPayload(body.custom_payload);
  } catch (err) {
    if (err instanceof PayloadError) throw validationError(err.message, err.field);
    throw err;
  }
}

/** Whether a seal's rejection is that seal's alone (an AppError, or a row the database refused in isolation). */
function sealRefusal(err: unknown): boolean {
  return err instanceof AppError || isRowFault(err);
}

function assertStreamId(streamId: string): void {
  if (!STREAM_ID_PATTERN.test(streamId)) {
    throw validationError('stream_id must be 1-128 letters, digits, ".", "_", ":" or "-", starting with a letter or digit', 'stream_id');
  }
}
