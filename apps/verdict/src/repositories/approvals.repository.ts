import type { Pool, PoolClient } from 'pg';
import { mintTenantId, type TenantId } from '@arbiter/auth';
import type { Approval } from '../models/approvals';
import type { ForeignEventBody } from '@arbiter/internal-api';
import { insertSealRow, type NewSealRow } from '@arbiter/db';
import type { ApprovalFilter, ApprovalPosition } from '../domain/approval-query';
export type { ApprovalFilter, ApprovalPosition };

/** A one-shot approval as the check needs it. */
export interface OneShotRow {
  id: string;
  requester: string;
  /** Whom the approved consultation acted for (its on_behalf_of, else its caller): the only one it may be used for. */
  requester_principal: string;
  /** The approved consultation's context_hash: the operation and its context Facts. */
  context_hash: string;
  authorizes_until_ms: number;
  /** The triggering rule versions the approval lifts, by rule id. */
  rule_versions: Record<string, string>;
}

/** An outbox row: the registry event body without scope_ids (the relay adds them) and the idempotency key (the row's). */
export type OutboxEvent = Required<Pick<ForeignEventBody, 'type' | 'entity_type' | 'entity_id' | 'actor_id'>> & { data: object };

export interface OutboxRow {
  id: string;
  tenant_id: TenantId;
  idempotency_key: string;
  event: OutboxEvent;
  attempts: number;
}

/**
 * Approvals and their outbox (raw SQL on the service pool, like the consultations). Every query
 * takes a TenantId except the `...AnyTenant` ones: `findAnyTenant` and `lockAnyTenant`, whose
 * caller decides 404 versus 403, and the outbox relay's `claimDueAnyTenant` (and the updates of the
 * rows it claimed, by their ids).
 */
export class ApprovalRepository {
  constructor(private readonly pool: Pool) {}

  /** Runs `fn` in one transaction: the approval change and its outbox row commit together or not at all. */
  async transaction<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** A new approval of the tenant (its body's tenant_id is the same tenant), bound to its consultation's context_hash. */
  async insert(client: PoolClient, tenantId: TenantId, approval: Approval, contextHash: string): Promise<void> {
    await client.query(
      `INSERT INTO approvals (id, tenant_id, consultation_id, status, requester, requester_principal, dominating_rule_id, candidate_deciders, requested_at, body, context_hash, expires_at)
       VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        approval.id,
        tenantId,
        approval.consultation_id,
        approval.requester,
        approval.requester_principal,
        approval.dominating_rule_id,
        approval.candidate_deciders,
        approval.requested_at,
        JSON.stringify(approval),
        contextHash,
        approval.expires_at,
      ],
    );
  }

  async findByConsultation(tenantId: TenantId, consultationId: string): Promise<Approval | null> {
    const { rows } = await this.pool.query<{ body: Approval }>('SELECT body FROM approvals WHERE tenant_id = $1 AND consultation_id = $2', [
      tenantId,
      consultationId,
    ]);
    return rows[0]?.body ?? null;
  }

  async findAnyTenant(id: string): Promise<{ tenant_id: string; body: Approval } | null> {
    const { rows } = await this.pool.query<{ tenant_id: string; body: Approval }>('SELECT tenant_id, body FROM approvals WHERE id = $1', [
      id,
    ]);
    return rows[0] ?? null;
  }

  /**
   * Locks the approval row until the transaction ends: a second decider waits here and then sees
   * the first one's decision (README.md "Architecture": "an approval decided once" held by the database).
   */
  async lockAnyTenant(client: PoolClient, id: string): Promise<{ tenant_id: string; body: Approval } | null> {
    const { rows } = await client.query<{ tenant_id: string; body: Approval }>(
      'SELECT tenant_id, body FROM approvals WHERE id = $1 FOR UPDATE',
      [id],
    );
    return rows[0] ?? null;
  }

  /**
   * Records the approval's new state (an approval given towards the quorum, the decision, or its
   * expiry); only a pending row changes (a second guard behind the row lock).
   */
  async decide(client: PoolClient, tenantId: TenantId, approval: Approval): Promise<boolean> {
    const { rowCount } = await client.query(
      `UPDATE approvals SET status = $3, decided_at = $4, body = $5, authorizes_until = $6 WHERE tenant_id = $1 AND id = $2 AND status = 'pending'`,
      [tenantId, approval.id, approval.status, approval.decided_at, JSON.stringify(approval), approval.authorizes_until ?? null],
    );
    return rowCount === 1;
  }

  /**
   * The tenant's one-shot approvals (approved without a grant, unconsumed, still valid at `now`),
   * oldest decision first, at most `limit`.
   */
  /**
   * Of these grant overrides (each with the approval_id the registry holds for it), the ones a verdict approval of this
   * tenant does not stand behind: the approval is here and is not approved with that override among its grants (a
   * decision whose registry answer was lost, then rejected, expired or still pending). A grant of an approval not here
   * (the registry's own approvals) is not this gateway's to judge.
   */
  async grantsWithoutApproval(tenantId: string, grants: readonly { id: string; approval_id: string }[]): Promise<Set<string>> {
    const { rows } = await this.pool.query<{ id: string; status: string; override_ids: string[] }>(
      `SELECT id, status,
              ARRAY(SELECT g->>'override_id' FROM jsonb_array_elements(CASE WHEN jsonb_typeof(body->'grants') = 'array'
                                                                             THEN body->'grants' ELSE '[]'::jsonb END) g) AS override_ids
       FROM approvals WHERE tenant_id = $1 AND id = ANY($2::text[])`,
      [tenantId, [...new Set(grants.map((g) => g.approval_id))]],
    );
    const approvals = new Map(rows.map((r) => [r.id, r]));
    const out = new Set<string>();
    for (const g of grants) {
      const approval = approvals.get(g.approval_id);
      if (approval && !(approval.status === 'approved' && approval.override_ids.includes(g.id))) out.add(g.id);
    }
    return out;
  }

  async listOneShots(tenantId: TenantId, now: Date, limit: number): Promise<OneShotRow[]> {
    const { rows } = await this.pool.query<{
      id: string;
      requester: string;
      requester_principal: string;
      context_hash: string;
      authorizes_until: Date;
      triggers: Approval['triggers'];
    }>(
      `SELECT id, requester, requester_principal, context_hash, authorizes_until, body->'triggers' AS triggers FROM approvals
       WHERE tenant_id = $1 AND authorizes_until IS NOT NULL AND consumed_by IS NULL AND status = 'approved' AND authorizes_until > $2
         AND context_hash IS NOT NULL
       ORDER BY decided_at, id LIMIT $3`,
      [tenantId, now, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      requester: r.requester,
      requester_principal: r.requester_principal,
      context_hash: r.context_hash,
      authorizes_until_ms: r.authorizes_until.getTime(),
      rule_versions: Object.fromEntries((r.triggers ?? []).map((t) => [t.rule_id, t.rule_version_id])),
    }));
  }

  /**
   * Consumes a one-shot approval for a consultation. One conditional UPDATE: of two simultaneous
   * callers exactly one gets true (the row lock makes the second re-check `consumed_by IS NULL`).
   */
  async consumeOneShot(tenantId: TenantId, id: string, consultationId: string, at: Date): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE approvals SET consumed_by = $3, consumed_at = $4,
              body = body || jsonb_build_object('consumed_by', $3::text, 'consumed_at', $5::text)
       WHERE tenant_id = $1 AND id = $2 AND consumed_by IS NULL AND authorizes_until > $4`,
      [tenantId, id, consultationId, at, at.toISOString()],
    );
    return rowCount === 1;
  }

  /** Gives a consumed approval back when the consultation that consumed it could not be stored. */
  async releaseOneShot(tenantId: TenantId, id: string, consultationId: string): Promise<void> {
    await this.pool.query(
      `UPDATE approvals SET consumed_by = NULL, consumed_at = NULL,
              body = body || jsonb_build_object('consumed_by', NULL, 'consumed_at', NULL)
       WHERE tenant_id = $1 AND id = $2 AND consumed_by = $3`,
      [tenantId, id, consultationId],
    );
  }

  /**
   * Newest first, keyset-paginated on (requested_at, id); returns up to limit + 1 rows (the extra one says "more").
   * The status filter goes by the status at `at.now`: a pending row past its expiry (expires_at, else
   * requested_at + `at.ttlSeconds` for a row older than expiry) is `expired`, not `pending`.
   */
  async list(
    tenantId: TenantId,
    filter: ApprovalFilter,
    limit: number,
    at: { now: Date; ttlSeconds: number },
    after?: ApprovalPosition,
  ): Promise<Approval[]> {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace(/\?/g, `$${params.length}`));
    };
    if (filter.status === 'pending' || filter.status === 'expired') {
      params.push(at.now, at.ttlSeconds);
      const due = `COALESCE(expires_at, requested_at + $${params.length} * interval '1 second') <= $${params.length - 1}`;
      where.push(
        filter.status === 'pending' ? `status = 'pending' AND NOT (${due})` : `(status = 'expired' OR (status = 'pending' AND ${due}))`,
      );
    } else if (filter.status) add('status = ?', filter.status);
    if (filter.assignee) add('candidate_deciders @> ARRAY[?]::text[]', filter.assignee);
    if (filter.requester) add('(requester = ? OR requester_principal = ?)', filter.requester);
    if (filter.since) add('requested_at >= ?', filter.since);
    if (filter.until) add('requested_at <= ?', filter.until);
    if (filter.dominating_rule_id) add('dominating_rule_id = ?', filter.dominating_rule_id);
    if (after) {
      params.push(after.requested_at, after.id);
      where.push(`(requested_at, id) < ($${params.length - 1}, $${params.length})`);
    }
    params.push(limit + 1);
    const { rows } = await this.pool.query<{ body: Approval }>(
      `SELECT body FROM approvals WHERE ${where.join(' AND ')} ORDER BY requested_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => r.body);
  }

  /** Writes an event to the outbox inside the caller's transaction (a repeated key writes nothing). */
  async enqueue(client: PoolClient, tenantId: TenantId, idempotencyKey: string, event: OutboxEvent): Promise<void> {
    await client.query(
      'INSERT INTO approval_outbox (tenant_id, idempotency_key, event) VALUES ($1, $2, $3) ON CONFLICT (idempotency_key) DO NOTHING',
      [tenantId, idempotencyKey, JSON.stringify(event)],
    );
  }

  /** Writes the decision's seal_outbox row inside the caller's transaction (docs/operations.md "Seal relay"). */
  async addSeal(client: PoolClient, row: NewSealRow): Promise<void> {
    await insertSealRow(client, row);
  }

  /**
   * Due outbox rows, oldest first, locked for this relay pass (other replicas skip them). A row
   * waits while an older row of the same approval is still there, so `approval.requested` always
   * reaches the registry before `approval.resolved`.
   */
  async claimDueAnyTenant(client: PoolClient, limit: number): Promise<OutboxRow[]> {
    const { rows } = await client.query<Omit<OutboxRow, 'tenant_id'> & { tenant_id: string }>(
      `SELECT id::text AS id, tenant_id, idempotency_key, event, attempts FROM approval_outbox o
       WHERE next_attempt_at <= now()
         AND NOT EXISTS (SELECT 1 FROM approval_outbox e WHERE e.event->>'entity_id' = o.event->>'entity_id' AND e.id < o.id)
       ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [limit],
    );
    // Trust boundary: rows the database returned, written in their tenant's own transaction.
    return rows.map((r) => ({ ...r, tenant_id: mintTenantId(r.tenant_id) }));
  }

  async deleteOutbox(client: PoolClient, id: string): Promise<void> {
    await client.query('DELETE FROM approval_outbox WHERE id = $1', [id]);
  }

  async rescheduleOutbox(client: PoolClient, id: string, delayMs: number, error: string): Promise<void> {
    await client.query(
      `UPDATE approval_outbox SET attempts = attempts + 1, next_attempt_at = now() + ($2::int * interval '1 millisecond'), last_error = $3 WHERE id = $1`,
      [id, Math.round(delayMs), error.slice(0, 1000)],
    );
  }

  /** Rows still waiting, of every tenant. */
  async outboxSizeAnyTenant(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('SELECT count(*)::text AS n FROM approval_outbox');
    return Number(rows[0].n);
  }
}
