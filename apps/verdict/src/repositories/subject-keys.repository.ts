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
    return rows[0].wrapped_keys;
  }

  /**
   * Erases a subject in one transaction: its key row goes (every value sealed under it is then unrecoverable), the
   * open resolve sessions holding its values lose them, and the first erasure is recorded with its seal_outbox row
   * (arbiter.<tenant_id>.erasures, client_ref the digest). Answers the first erasure and whether this call made it.
   */
  async erase(
    tenantId: TenantId,
    digest: string,
    by: string,
    at: Date,
    sealing: boolean,
  ): Promise<{ erasure: ErasureRow; created: boolean }> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('DELETE FROM subject_keys WHERE tenant_id = $1 AND subject_digest = $2', [tenantId, digest]);
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
      return { erasure, created: inserted.rows.length === 1 };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
}
