import type { Pool } from 'pg';
import { auditStreamId } from '@arbiter/audit-streams';
import { activeTraceparent } from '@arbiter/telemetry';
import { isIntegerIn } from '@arbiter/input';
import type { PartitionedTable } from './partitions/plan';

/**
 * The seal outbox (docs/operations.md "Seal relay"): the verdict and registry databases each hold a
 * `seal_outbox` table of decisions waiting to be sealed in the ledger, written with the change they
 * record. Both serve it to the worker on their internal API with the same three operations, which
 * live here once: lease (FOR UPDATE SKIP LOCKED, oldest first), done (delete what the ledger
 * acknowledged) and release (hand a lease back at once). All three are internal operations across
 * tenants (`...AnyTenant`): the worker relays every tenant's rows, each sealed into its own tenant's
 * stream.
 */

/** One seal as the ledger's `POST /internal/v1/seals` takes it. */
export interface SealRequest {
  stream_id: string;
  tenant_id: string;
  /** `service:verdict` or `service:registry` */
  actor: string;
  custom_payload: { [key: string]: unknown };
  /** The entity id; the ledger seals one fact per (stream_id, client_ref). */
  client_ref: string;
}

/** An outbox row under lease: its id (for done and release) and the seal it stands for. */
export interface LeasedSeal {
  /** The row id (a decimal integer). */
  id: string;
  /** Times the row was leased, this lease included. */
  attempts: number;
  seal: SealRequest;
  /** The W3C traceparent of the request that wrote the row, when it was traced (docs/operations.md "Tracing"). */
  traceparent?: string;
}

/** The answer of a lease: the rows, oldest first, and the lease's deadline (which also names it). */
export interface SealLease {
  /** ISO 8601, millisecond precision; after it the rows are free again. */
  leased_until: string;
  items: LeasedSeal[];
}

export interface SealLeaseRequest {
  /** At most this many rows (1 to 1000; default 100). */
  limit?: number;
  /** How long the lease holds, in ms (1000 to 3600000; default 60000). */
  lease_ms?: number;
}

export interface SealDoneRequest {
  /** Rows the ledger acknowledged (at most 1000 ids). */
  ids: string[];
}

export interface SealDoneAnswer {
  deleted: number;
}

export interface SealReleaseRequest {
  /** Rows to hand back (at most 1000 ids). */
  ids: string[];
  /** The lease they were taken under: a row leased again since then stays with its new holder. */
  leased_until: string;
}

export interface SealReleaseAnswer {
  released: number;
}

export const SEAL_LEASE_LIMITS = {
  limit: { min: 1, max: 1000, default: 100 },
  leaseMs: { min: 1000, max: 3_600_000, default: 60_000 },
} as const;
const MAX_IDS = 1000;
const ROW_ID = /^[1-9][0-9]{0,17}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Body = Record<string, unknown> | null | undefined;

/** What is wrong with a lease body, or null (an absent body takes the defaults). */
export function sealLeaseProblem(body: unknown): string | null {
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) return 'body must be a JSON object';
  const b = body as Body;
  const { limit, leaseMs } = SEAL_LEASE_LIMITS;
  if (b?.limit !== undefined && !isIntegerIn(b.limit, limit.min, limit.max))
    return `limit must be an integer from ${limit.min} to ${limit.max}`;
  if (b?.lease_ms !== undefined && !isIntegerIn(b.lease_ms, leaseMs.min, leaseMs.max))
    return `lease_ms must be an integer from ${leaseMs.min} to ${leaseMs.max}`;
  const unknown = Object.keys(b ?? {}).find((k) => k !== 'limit' && k !== 'lease_ms');
  return unknown ? `${unknown} is not a field of a lease request` : null;
}

function idsProblem(ids: unknown): string | null {
  if (!Array.isArray(ids) || ids.length > MAX_IDS || !ids.every((id) => typeof id === 'string' && ROW_ID.test(id))) {
    return `ids must be an array of at most ${MAX_IDS} outbox row ids (decimal strings)`;
  }
  return null;
}

/** What is wrong with a done body, or null. */
export function sealDoneProblem(body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'body must be a JSON object';
  const b = body as Body;
  const unknown = Object.keys(b!).find((k) => k !== 'ids');
  return unknown ? `${unknown} is not a field of a done request` : idsProblem(b!.ids);
}

/** What is wrong with a release body, or null. */
export function sealReleaseProblem(body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'body must be a JSON object';
  const b = body as Body;
  const unknown = Object.keys(b!).find((k) => k !== 'ids' && k !== 'leased_until');
  if (unknown) return `${unknown} is not a field of a release request`;
  if (typeof b!.leased_until !== 'string' || !ISO_MS.test(b!.leased_until) || Number.isNaN(Date.parse(b!.leased_until))) {
    return "leased_until must be the lease answer's leased_until (ISO 8601 with milliseconds, UTC)";
  }
  return idsProblem(b!.ids);
}

/**
 * The seal_outbox partitions of either service (docs/operations.md "Partitions"): keyed by `created_at`; a row leaves
 * when the ledger acknowledged it, so a partition goes only empty. Each partition is filled to half its pages
 * (`fillfactor = 50`, ADR 0039): a row is written three times (inserted with its change, leased, deleted), and the
 * lease, which changes no indexed column, then finds room on the row's own page and is a HOT update, logged as the
 * few bytes it changes instead of a second copy of the row and a second index entry.
 */
export const SEAL_OUTBOX_PARTITIONS: PartitionedTable = {
  table: 'seal_outbox',
  key: 'created_at',
  archive: null,
  gates: ['empty'],
  offsets: [0],
  storage: 'fillfactor = 50',
};

interface LeasedRow {
  id: string;
  tenant_id: string;
  stream_id: string;
  client_ref: string;
  payload: { [key: string]: unknown };
  attempts: number;
  leased_until: Date;
  traceparent: string | null;
}

/**
 * Orders outbox row ids (bigint as decimal text, no leading zeros: `id::text`) as the numbers they
 * are: a shorter id is smaller, ids of one length compare as text. No BigInt per comparison.
 */
export function compareRowIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The three relay operations over one service's `seal_outbox`, on its pool. */
export class SealOutboxStore {
  /**
   * @param actor the `actor` of every seal this service makes (`service:verdict`, `service:registry`).
   */
  constructor(
    private readonly pool: Pool,
    private readonly actor: string,
  ) {}

  /**
   * Leases up to `limit` free rows (lease null or past), oldest first, for `leaseMs`: one statement,
   * FOR UPDATE SKIP LOCKED, so concurrent callers take disjoint sets. Each leased row's attempts goes up by one.
   */
  async leaseAnyTenant(limit: number, leaseMs: number): Promise<SealLease> {
    const { rows } = await this.pool.query<LeasedRow>(
      `WITH picked AS (
         SELECT id FROM seal_outbox WHERE leased_until IS NULL OR leased_until <= now()
          ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE seal_outbox s SET leased_until = now() + $2::int * interval '1 millisecond', attempts = s.attempts + 1
         FROM picked WHERE s.id = picked.id
       RETURNING s.id::text AS id, s.tenant_id, s.stream_id, s.client_ref, s.payload, s.attempts, s.leased_until, s.traceparent`,
      [limit, leaseMs],
    );
    rows.sort((a, b) => compareRowIds(a.id, b.id));
    // Every row of one statement gets the same deadline (now() is the transaction's start).
    const leasedUntil = rows[0]?.leased_until ?? new Date(Date.now() + leaseMs);
    return {
      leased_until: leasedUntil.toISOString(),
      items: rows.map((r) => ({
        id: r.id,
        attempts: r.attempts,
        seal: { stream_id: r.stream_id, tenant_id: r.tenant_id, actor: this.actor, custom_payload: r.payload, client_ref: r.client_ref },
        ...(r.traceparent ? { traceparent: r.traceparent } : {}),
      })),
    };
  }

  /** Deletes rows the ledger acknowledged (whoever holds their lease now: they are sealed). */
  async doneAnyTenant(ids: readonly string[]): Promise<number> {
    if (!ids.length) return 0;
    const { rowCount } = await this.pool.query('DELETE FROM seal_outbox WHERE id = ANY($1::bigint[])', [ids]);
    return rowCount ?? 0;
  }

  /** Frees rows still held under this lease at once (a row leased again since stays with its new holder). */
  async releaseAnyTenant(ids: readonly string[], leasedUntil: Date): Promise<number> {
    if (!ids.length) return 0;
    const { rowCount } = await this.pool.query(
      'UPDATE seal_outbox SET leased_until = NULL WHERE id = ANY($1::bigint[]) AND leased_until = $2',
      [ids, leasedUntil],
    );
    return rowCount ?? 0;
  }

  /** Rows waiting, of every tenant (leased or not). */
  async sizeAnyTenant(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM seal_outbox');
    return Number(rows[0].n);
  }
}

/** The custom_payload of an approval decision's seal (verdict and registry approvals alike). */
export interface ApprovalSealPayload {
  approval_id: string;
  kind: 'verdict' | 'registry';
  /** Verdict approvals: the consultation the approval is about. */
  consultation_id?: string;
  decision: 'approved' | 'rejected';
  /** The deciding principal's id. */
  decider: string;
  decided_at: string;
  /** When the approval granted an override. */
  override_id?: string;
}

/** A row to write: tenant, stream, reference and payload. */
export interface NewSealRow {
  tenant_id: string;
  stream_id: string;
  client_ref: string;
  payload: object;
}

/** The seal row of an approval decision: client_ref `<approval_id>:<decision>`; optional fields absent, never null. */
export function approvalSealRow(
  tenantId: string,
  p: {
    approval_id: string;
    kind: 'verdict' | 'registry';
    consultation_id?: string | null;
    decision: 'approved' | 'rejected';
    decider: string;
    decided_at: string;
    override_id?: string | null;
  },
): NewSealRow {
  const payload: ApprovalSealPayload = {
    approval_id: p.approval_id,
    kind: p.kind,
    ...(p.consultation_id ? { consultation_id: p.consultation_id } : {}),
    decision: p.decision,
    decider: p.decider,
    decided_at: p.decided_at,
    ...(p.override_id ? { override_id: p.override_id } : {}),
  };
  return { tenant_id: tenantId, stream_id: auditStreamId(tenantId, 'approvals'), client_ref: `${p.approval_id}:${p.decision}`, payload };
}

/** The custom_payload of a verdict key ring change (docs/ledger-formats.md "The keys stream"). */
export interface KeySealPayload {
  kid: string;
  /** The public half: an EC P-256 JWK's kty, crv, x, y. */
  public_jwk: { kty: string; crv: string; x: string; y?: string };
  not_before: string;
  /** `first` (the tenant's first key), `scheduled` (yearly) or `emergency`. */
  mode: 'first' | 'scheduled' | 'emergency';
  /** The keys this change closed, each with its not_after (= not_before of the new key). */
  retired: { kid: string; not_after: string }[];
}

/** The seal row of a key ring change in `arbiter.<tenant_id>.keys`: client_ref = the new kid. */
export function keySealRow(
  tenantId: string,
  p: {
    kid: string;
    publicJwk: Record<string, unknown>;
    notBefore: Date;
    mode: KeySealPayload['mode'];
    retired: { kid: string; notAfter: Date }[];
  },
): NewSealRow {
  const { kty, crv, x, y } = p.publicJwk as KeySealPayload['public_jwk'];
  const payload: KeySealPayload = {
    kid: p.kid,
    public_jwk: { kty, crv, x, ...(y === undefined ? {} : { y }) },
    not_before: p.notBefore.toISOString(),
    mode: p.mode,
    retired: p.retired.map((r) => ({ kid: r.kid, not_after: r.notAfter.toISOString() })),
  };
  return { tenant_id: tenantId, stream_id: auditStreamId(tenantId, 'keys'), client_ref: p.kid, payload };
}

/** Anything that runs a query: a pool or a client inside a transaction. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/** Writes one row, on the caller's transaction, with the active span's traceparent (tracing on). */
export async function insertSealRow(db: Queryable, row: NewSealRow): Promise<void> {
  await db.query('INSERT INTO seal_outbox (tenant_id, stream_id, client_ref, payload, traceparent) VALUES ($1, $2, $3, $4, $5)', [
    row.tenant_id,
    row.stream_id,
    row.client_ref,
    JSON.stringify(row.payload),
    activeTraceparent(),
  ]);
}
