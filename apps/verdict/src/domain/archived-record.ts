import { verifyEs256Jws, type JWK } from '@arbiter/crypto';
import { normativeHash } from './consultation-builder';
import type { ConsultationRecord } from './consultation-record';

/** A key of the tenant's ring as the check needs it: its kid and public JWK. */
export interface RingKey {
  kid: string;
  publicJwk: JWK;
}

/** The claims of the signed verdict that must name the record they sign (docs/operations.md "Archive", "Reads"). */
const BOUND_CLAIMS = [
  ['jti', 'id'],
  ['tenant_id', 'tenant_id'],
  ['verdict', 'verdict'],
  ['normative_hash', 'normative_hash'],
  ['context_hash', 'context_hash'],
] as const;

/**
 * What makes an archived record not the one the gateway signed, or null when it is (docs/operations.md "Archive",
 * "Reads"; ADR 0035): its `signed_verdict` verifies under the tenant's key named by `signing_kid` (the header's kid
 * too), its claims name this record (id, tenant, verdict, both hashes), and the record hashes to its
 * `normative_hash`. Whoever can write the archive cannot sign with the tenant's key, which only the gateway holds.
 */
export async function archivedRecordProblem(
  record: ConsultationRecord,
  expected: { id: string; tenant_id: string },
  ring: readonly RingKey[],
): Promise<string | null> {
  if (!record || typeof record !== 'object') return 'the line holds no record';
  if (record.id !== expected.id || record.tenant_id !== expected.tenant_id) return 'the record is not the one asked for';
  const key = ring.find((k) => k.kid === record.signing_kid);
  if (!key) return `no key ${String(record.signing_kid)} in the tenant's ring`;
  let claims: Record<string, unknown>;
  try {
    const verified = await verifyEs256Jws(record.signed_verdict, key.publicJwk);
    if (verified.header.kid !== key.kid) return `the signature names key ${String(verified.header.kid)}, not ${key.kid}`;
    claims = verified.payload;
  } catch {
    return `signed_verdict does not verify under ${key.kid}`;
  }
  const differs = BOUND_CLAIMS.filter(([claim, member]) => claims[claim] !== record[member]).map(([claim]) => claim);
  if (differs.length) return `the signed claims differ from the record: ${differs.join(', ')}`;
  let hash: string;
  try {
    hash = normativeHash(record);
  } catch {
    return 'the record cannot be hashed';
  }
  return hash === record.normative_hash ? null : 'the record does not hash to its normative_hash';
}
