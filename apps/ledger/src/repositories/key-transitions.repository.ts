import type { SqlClient } from '@arbiter/keystore';
import type { KeyTransition } from '../domain/key-transition';

/**
 * The transition statements of the ledger's own key ring (ledger_key_transitions; docs/ledger-formats.md
 * "Key transitions"). Service data, like the key ring itself: no tenant's, published to everyone.
 */
export class KeyTransitionsRepository {
  constructor(private readonly db: SqlClient) {}

  /** Writes a statement on the caller's connection: the rotation's own transaction. */
  static async insert(db: SqlClient, t: KeyTransition): Promise<void> {
    await db.query('INSERT INTO ledger_key_transitions (kid, created_at, statement) VALUES ($1, $2, $3::jsonb)', [
      t.key.kid,
      new Date(t.created_at_ms),
      JSON.stringify(t),
    ]);
  }

  /** Every statement, oldest first. */
  async list(): Promise<KeyTransition[]> {
    const { rows } = await this.db.query('SELECT statement FROM ledger_key_transitions ORDER BY created_at, kid');
    return (rows as { statement: KeyTransition }[]).map((r) => r.statement);
  }
}
