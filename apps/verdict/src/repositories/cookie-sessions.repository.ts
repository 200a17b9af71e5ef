import type { Pool } from 'pg';
import type { TenantOwned } from '@arbiter/auth';

export interface CookieSessionRow {
  token_hash: string;
  tenant_id: string;
  principal_id: string;
  key_id: string;
  key_hash: string;
  expires_at: Date;
}

/**
 * Session cookies by the hash of their value. A session is found by its secret alone (the secret
 * names the tenant, like an API key's hash), so the reads carry no tenant filter: they are
 * authentication itself, and the caller compares the row's tenant with its key's. A session is
 * created for an authenticated identity's tenant. Raw pg: a cookie check reads one row by primary
 * key on the check path.
 */
export class CookieSessionRepository {
  constructor(private readonly pool: Pool) {}

  async create(row: TenantOwned<CookieSessionRow>): Promise<void> {
    await this.pool.query(
      'INSERT INTO cookie_sessions (token_hash, tenant_id, principal_id, key_id, key_hash, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [row.token_hash, row.tenant_id, row.principal_id, row.key_id, row.key_hash, row.expires_at],
    );
  }

  /** The session when it exists and has not expired. */
  async findLive(tokenHash: string): Promise<CookieSessionRow | null> {
    const { rows } = await this.pool.query<CookieSessionRow>(
      'SELECT token_hash, tenant_id, principal_id, key_id, key_hash, expires_at FROM cookie_sessions WHERE token_hash = $1 AND expires_at > now()',
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  /** Ends a live session; false when there was none. */
  async deleteLive(tokenHash: string): Promise<boolean> {
    const { rows } = await this.pool.query('DELETE FROM cookie_sessions WHERE token_hash = $1 RETURNING expires_at > now() AS live', [
      tokenHash,
    ]);
    return rows[0]?.live === true;
  }

  /** Housekeeping across tenants: sessions past expires_at, whoever's. */
  async deleteExpiredAnyTenant(): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM cookie_sessions WHERE expires_at <= now()');
    return rowCount ?? 0;
  }
}
