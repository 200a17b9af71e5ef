// Reads the key history a verifier needs to extend its trust (docs/evidence.md "Trusted keys"): the
// ledger's transition statements and the tenant's keys stream with the checkpoint of all its facts.
// Nothing here is trusted: extendTrust (trust.ts) checks it against keys the verifier already holds.
import { ArbiterError } from '../errors';
import type { LedgerClient } from '../ledger-client';
import type { LedgerKeySet } from '../types';
import { keysStreamOf } from './audit-streams';
import type { KeyHistory, TenantKeyHistory } from './trust';

/** The tenant's keys stream from its first fact, and the checkpoint of exactly those facts (a key with `read` of the tenant). */
export async function fetchTenantKeyHistory(ledger: LedgerClient, tenantId: string): Promise<TenantKeyHistory> {
  const stream = keysStreamOf(tenantId);
  try {
    const facts = await ledger.listAllFacts(stream);
    // The stream only grows: the checkpoint of the size read covers exactly the facts read.
    const checkpoint = facts.length ? await ledger.getCheckpoint(stream, { treeSize: facts.length }) : null;
    return { stream_id: stream, facts, checkpoint };
  } catch (err) {
    // A tenant whose keys predate the keys stream (or whose first key is not sealed yet) has none.
    if (err instanceof ArbiterError && err.status === 404) return { stream_id: stream, facts: [], checkpoint: null };
    throw err;
  }
}

/** Both parts: the ledger's transitions (from its published key set, read once here or given) and the tenant's keys stream. */
export async function fetchKeyHistory(
  ledger: LedgerClient,
  tenantId: string,
  ledgerKeys?: LedgerKeySet,
): Promise<KeyHistory & { keys_stream: TenantKeyHistory }> {
  const keys = ledgerKeys ?? (await ledger.keys());
  return { ledger_transitions: keys.transitions ?? [], keys_stream: await fetchTenantKeyHistory(ledger, tenantId) };
}
