import type { Pool } from 'pg';
import type { TenantId } from '@arbiter/auth';
import { auditStreamId } from '@arbiter/audit-streams';
import { insertSealRow } from '@arbiter/db';

/** An erasure as stored and answered (docs/operations.md "Erasure"). */
export interface ErasureRow {
  tenant_id: string;
  subject_digest: string;
  erased_at: Date;
  erased_by: string;
}

/**
 * The tenant secrets, the subjects' keys and the erasures (docs/verdicts.md "Sensitive fields"): every key stored
 * wrapped under KEY_ENCRYPTION_KEY, every query within one tenant.
 */
export class SubjectKeysRepository {
  constructor(private readonly pool: Pool) {}

  /** The tenant's wrapped secret: the one stored, or `wrapped` when this call stored it first. */
  async tenantSecret(tenantId: TenantId, wrapped: () => string): Promise<string> {
    const found = await this.pool.query<{ wrapped_secret: string }>('SELECT wrapped_secret FROM subject_secrets WHERE tenant_id = $1', [
      tenantId,
    ]);
    if (found.rows[0]) return found.rows[0].wrapped_secret;
    // Two replicas at once: one INSERT wins, and both read the winner.
    await this.pool.query('INSERT INTO subject_secrets (tenant_id, wrapped_secret) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      tenantId,
      wrapped(),
    ]);
    const again = await this.pool.query<{ wrapped_secret: string }>('SELECT wrapped_secret FROM subject_secrets WHERE tenant_id = $1', [
      tenantId,
    ]);
    return again.rows[0].wrapped_secret;
  }

  async findKeys(tenantId: TenantId, digest: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ wrapped_keys: string }>(
      'SELECT wrapped_keys FROM subject_keys WHERE tenant_id = $1 AND subject_digest = $2',
      [tenantId, digest],
    );
    return rows[0]?.wrapped_keys ?? null;
  }

  /** The subject's wrapped keys: the ones stored, or `wrapped` when this call stored them first. */
  async keys(tenantId: TenantId, digest: string, wrapped: () => string): Promise<string> {
    const found = await this.findKeys(tenantId, digest);
    if (found !== null) return found;
    const { rows } = await this.pool.query<{ wrapped_keys: string }>(
      `WITH ins AS (
         INSERT INTO subject_keys (tenant_id, subject_digest, wrapped_keys) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING wrapped_keys
       )
       SELECT wrapped_keys FROM ins
       UNION ALL SELECT wrapped_keys FROM subject_keys WHERE tenant_id = $1 AND subject_digest = $2
       LIMIT 1`,
      [tenantId, digest, wrapped()],
    );
    // Another first use committed meanwhile, after this statement's snapshot: read it in a new one.
    if (!rows[0]) return (await this.findKeys(tenantId, digest))!;
    return rows[0].wrapped_keys;
  }

  /**
   * Erases a subject in one transaction: its key row goes (every value sealed under it is then unrecoverable), the
   * open resolve sessions holding its values lose them, and the first erasure is recorded with its seal_outbox row
   * (arbiter.<tenant_id>.erasures, client_ref the digest). Answers the first erasure, whether this call made it, and
   * how many key rows it deleted.
   */
  async erase(
    tenantId: TenantId,
    digest: string,
    by: string,
    at: Date,
    sealing: boolean,
  ): Promise<{ erasure: ErasureRow; created: boolean; keysDeleted: number }> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const deleted = await client.query('DELETE FROM subject_keys WHERE tenant_id = $1 AND subject_digest = $2', [tenantId, digest]);
      await client.query(
        "UPDATE resolve_sessions SET sealed_values = NULL WHERE tenant_id = $1 AND sealed_values IS NOT NULL AND sealed_values->>'subject' = $2",
        [tenantId, digest],
      );
      const inserted = await client.query<ErasureRow>(
        `INSERT INTO erasures (tenant_id, subject_digest, erased_at, erased_by) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING RETURNING tenant_id, subject_digest, erased_at, erased_by`,
        [tenantId, digest, at, by],
      );
      let erasure = inserted.rows[0];
      if (erasure && sealing) {
        await insertSealRow(client, {
          tenant_id: tenantId,
          stream_id: auditStreamId(tenantId, 'erasures'),
          client_ref: digest,
          payload: { subject_commitment: digest, erased_at: erasure.erased_at.toISOString() },
        });
      }
      if (!erasure) {
        const first = await client.query<ErasureRow>(
          'SELECT tenant_id, subject_digest, erased_at, erased_by FROM erasures WHERE tenant_id = $1 AND subject_digest = $2',
          [tenantId, digest],
        );
        erasure = first.rows[0];
      }
      await client.query('COMMIT');
      return { erasure, created: inserted.rows.length === 1, keysDeleted: deleted.rowCount ?? 0 };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /** The tenant's erasures, newest first, after a (erased_at, digest) position; limit + 1 rows (the caller pages). */
  async listErasures(tenantId: TenantId, limit: number, after?: { at: Date; digest: string }): Promise<ErasureRow[]> {
    const { rows } = await this.pool.query<ErasureRow>(
      `SELECT tenant_id, subject_digest, erased_at, erased_by FROM erasures
        WHERE tenant_id = $1 AND ($2::timestamptz IS NULL OR (erased_at, subject_digest) < ($2, $3))
        ORDER BY erased_at DESC, subject_digest DESC LIMIT $4`,
      [tenantId, after?.at ?? null, after?.digest ?? '', limit + 1],
    );
    return rows;
  }

  /**
   * `keys reencrypt` for the tenant secrets and subject keys (docs/operations.md "Rotating `KEY_ENCRYPTION_KEY`"):
   * every wrapped key `rewrap` answers a new blob for is replaced, in one transaction holding the rows, across every
   * tenant (an operator command). `rewrap(blob, aad)` answers null for a key already current.
   */
  async rewrapAllAnyTenant(rewrap: (blob: string, aad: string) => string | null): Promise<SubjectKeyReencryption> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const secrets = await client.query<{ tenant_id: string; wrapped_secret: string }>(
        'SELECT tenant_id, wrapped_secret FROM subject_secrets ORDER BY tenant_id FOR UPDATE',
      );
      const keys = await client.query<{ tenant_id: string; subject_digest: string; wrapped_keys: string }>(
        'SELECT tenant_id, subject_digest, wrapped_keys FROM subject_keys ORDER BY tenant_id, subject_digest FOR UPDATE',
      );
      let reencrypted = 0;
      for (const row of secrets.rows) {
        const next = rewrap(row.wrapped_secret, row.tenant_id);
        if (next === null) continue;
        await client.query('UPDATE subject_secrets SET wrapped_secret = $2 WHERE tenant_id = $1', [row.tenant_id, next]);
        reencrypted++;
      }
      for (const row of keys.rows) {
        const next = rewrap(row.wrapped_keys, `${row.tenant_id}:${row.subject_digest}`);
        if (next === null) continue;
        await client.query('UPDATE subject_keys SET wrapped_keys = $3 WHERE tenant_id = $1 AND subject_digest = $2', [
          row.tenant_id,
          row.subject_digest,
          next,
        ]);
        reencrypted++;
      }
      await client.query('COMMIT');
      const total = secrets.rows.length + keys.rows.length;
      return { keys: total, reencrypted, alreadyCurrent: total - reencrypted };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
}

/** What `keys reencrypt` did to the tenant secrets and subject keys of sensitive fields. */
export interface SubjectKeyReencryption {
  /** Tenant secrets and subject key rows, of every tenant. */
  keys: number;
  reencrypted: number;
  alreadyCurrent: number;
}
