import { canonicalJson, sha256Hex, verbatim, ZERO_DIGEST, type CanonicalText } from '@arbiter/canonical';

// docs/ledger-formats.md "fact_hash": the hash of a fact is
//   "sha256:" + hex(SHA-256(UTF-8(JCS({actor, custom_payload, fact_id, prev_hash, sealed_at_ms, sealed_by, stream_id, tenant_id}))))
// with JCS = RFC 8785. `sealed_by` (the authenticated principal that sealed the fact) is a member only
// when the fact has one: facts sealed before the ledger recorded it (sealed_by null) hash the other
// seven members, as they always did (docs/adr/0016-ledger-sealers-and-stream-namespaces.md). The first fact of a stream
// has prev_hash = GENESIS_PREV_HASH.

/** prev_hash of the first fact of every stream: "sha256:" + 64 zeros. */
export const GENESIS_PREV_HASH = ZERO_DIGEST;

/** The fields fact_hash covers besides custom_payload. */
export interface FactHashFields {
  fact_id: string;
  stream_id: string;
  tenant_id: string;
  actor: string;
  sealed_at_ms: number;
  prev_hash: string;
  /** The sealing principal; null or absent for a fact sealed before the ledger recorded it. */
  sealed_by?: string | null;
}

/**
 * The exact text fact_hash is computed over. The payload is stored as its canonical text, so that
 * text is spliced in as it is (verbatim) rather than parsed and written again.
 */
export function factHashPreimage(f: FactHashFields, canonicalPayload: CanonicalText): CanonicalText {
  // Members in RFC 8785 order, so that the writer does not sort them; sealed_by sorts between
  // sealed_at_ms and stream_id, and is a member only when the fact has one.
  const members: Record<string, unknown> = {
    actor: f.actor,
    custom_payload: verbatim(canonicalPayload),
    fact_id: f.fact_id,
    prev_hash: f.prev_hash,
    sealed_at_ms: f.sealed_at_ms,
  };
  if (f.sealed_by !== null && f.sealed_by !== undefined) members.sealed_by = f.sealed_by;
  members.stream_id = f.stream_id;
  members.tenant_id = f.tenant_id;
  return canonicalJson(members);
}

export function computeFactHash(f: FactHashFields, canonicalPayload: CanonicalText): string {
  return `sha256:${sha256Hex(factHashPreimage(f, canonicalPayload))}`;
}

/** The same hash from a parsed payload (what an outside verifier does). */
export function computeFactHashFromValue(f: FactHashFields, payload: unknown): string {
  return computeFactHash(f, canonicalJson(payload));
}
