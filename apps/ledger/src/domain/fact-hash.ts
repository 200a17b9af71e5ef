import { canonicalJson, sha256Hex, ZERO_DIGEST } from '@arbiter/canonical';

// docs/ledger-formats.md "fact_hash": the hash of a fact is
//   "sha256:" + hex(SHA-256(UTF-8(JCS({actor, custom_payload, fact_id, prev_hash, sealed_at_ms, stream_id, tenant_id}))))
// with JCS = RFC 8785. The first fact of a stream has prev_hash = GENESIS_PREV_HASH.

/** prev_hash of the first fact of every stream: "sha256:" + 64 zeros. */
export const GENESIS_PREV_HASH = ZERO_DIGEST;

/** The fields fact_hash covers, with custom_payload already in its canonical (RFC 8785) text. */
export interface FactHashFields {
  fact_id: string;
  stream_id: string;
  tenant_id: string;
  actor: string;
  sealed_at_ms: number;
  prev_hash: string;
}

/**
 * The exact bytes (as a string) fact_hash is computed over. Built by concatenation because the
 * payload is stored as canonical text: RFC 8785 section 3.2.3 orders members by UTF-16 code units,
 * which gives the fixed order below, and section 3.2.2.2 serialises strings exactly as ECMAScript's
 * JSON.stringify does (for strings without lone surrogates, which sealing rejects). sealed_at_ms is
 * a safe integer, whose ES serialisation is its decimal digits. fact-hash.spec.ts checks this
 * against the RFC 8785 library on arbitrary inputs.
 */
export function factHashPreimage(f: FactHashFields, canonicalPayload: string): string {
  return (
    `{"actor":${JSON.stringify(f.actor)},"custom_payload":${canonicalPayload},"fact_id":${JSON.stringify(f.fact_id)},` +
    `"prev_hash":${JSON.stringify(f.prev_hash)},"sealed_at_ms":${String(f.sealed_at_ms)},` +
    `"stream_id":${JSON.stringify(f.stream_id)},"tenant_id":${JSON.stringify(f.tenant_id)}}`
  );
}

export function computeFactHash(f: FactHashFields, canonicalPayload: string): string {
  return `sha256:${sha256Hex(factHashPreimage(f, canonicalPayload))}`;
}

/** The same hash from a parsed payload, through the RFC 8785 library (what an outside verifier does). */
export function computeFactHashFromValue(f: FactHashFields, payload: unknown): string {
  return computeFactHash(f, canonicalJson(payload));
}
