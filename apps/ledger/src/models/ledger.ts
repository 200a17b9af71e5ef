/**
 * Request and response shapes of the ledger contract (docs/ledger-formats.md "Contract");
 * tsoa validates requests and writes openapi.json from these. Formats: docs/ledger-formats.md.
 */

/** Seal request (docs/ledger-formats.md "Seal request body"). Unknown fields are refused with 400. */
export interface SealFactBody {
  /**
   * Must be the tenant of the API key (otherwise 403 FORBIDDEN).
   * @minLength 1
   * @maxLength 128
   */
  tenant_id: string;
  /**
   * Who makes the declaration.
   * @minLength 1
   * @maxLength 256
   */
  actor: string;
  /** Business data, a JSON object: at most 65536 bytes as canonical JSON, nested at most 32 deep. */
  custom_payload: { [key: string]: unknown };
  /**
   * Idempotency key, unique per stream: a retry with the same client_ref answers the original fact with 200.
   * @minLength 1
   * @maxLength 255
   */
  client_ref?: string;
}

/** A sealed fact (docs/ledger-formats.md "Fact"). */
export interface Fact {
  /** `fct-` prefix */
  fact_id: string;
  /** The stream's id in its tenant's namespace: (tenant_id, stream_id) names the stream. */
  stream_id: string;
  tenant_id: string;
  /** Who makes the declaration, as the sealer wrote it (free text). */
  actor: string;
  /**
   * The authenticated principal that sealed the fact: the API key's principal id (`agn-…`, `hum-…`), or
   * `service:internal` for the services' audit facts. null for facts sealed before the ledger recorded it.
   */
  sealed_by: string | null;
  /** Milliseconds since the epoch (an int64: it does not fit in 32 bits). @isLong */
  sealed_at_ms: number;
  sealed_at_iso: string;
  custom_payload: { [key: string]: unknown };
  /**
   * `sha256:<64 hex>` over the RFC 8785 JSON of {fact_id, stream_id, tenant_id, actor, sealed_at_ms, sealed_by, custom_payload, prev_hash}
   * (without sealed_by when it is null).
   */
  fact_hash: string;
  /** fact_hash of the previous fact; `sha256:` + 64 zeros for the first fact of a stream. */
  prev_hash: string;
  /** Id of the previous fact; null for the first fact of a stream. */
  parent_fact_id: string | null;
  /**
   * Position in the stream's chain, from 1.
   * @isInt
   */
  sequence: number;
  client_ref: string | null;
}

/** Fact entries in the list response carry only these fields (docs/ledger-formats.md "Fact"). */
export interface FactListEntry {
  fact_id: string;
  /** Milliseconds since the epoch (an int64: it does not fit in 32 bits). @isLong */
  sealed_at_ms: number;
  sealed_at_iso: string;
  actor: string;
  /** The authenticated principal that sealed the fact (null before the ledger recorded it); fact_hash covers it. */
  sealed_by: string | null;
  custom_payload: { [key: string]: unknown };
}

export interface FactList {
  /** Facts in chain order, starting after `offset`. */
  facts: FactListEntry[];
  /**
   * Number of facts in the whole stream (not only on this page).
   * @isInt
   */
  count: number;
  /** @isInt */
  limit: number;
  /** @isInt */
  offset: number;
}

/** A signed proof bundle (docs/ledger-formats.md "Proof bundle"), plus tenant_id, which the fact hashes cover. */
export interface ProofBundle {
  /** `bnd-` prefix */
  bundle_id: string;
  stream_id: string;
  tenant_id: string;
  /** @isInt */
  bundle_version: number;
  head_fact_id: string;
  head_hash: string;
  /** Fact ids in chain order, from the first fact to head_fact_id. */
  facts_manifest: string[];
  /** Milliseconds since the epoch (an int64: it does not fit in 32 bits). @isLong */
  created_at_ms: number;
  created_at_iso: string;
  /** Base64 Ed25519 signature over the RFC 8785 JSON of this object without `signature`. */
  signature: string;
  signature_alg: 'ed25519';
  /** kid of the signing key, published at /.well-known/ledger-keys. */
  key_id: string;
}

/** A bundle in a list: everything but the manifest and signature (GET /bundles/{bundle_id} has them). */
export interface BundleSummary {
  bundle_id: string;
  stream_id: string;
  tenant_id: string;
  /** @isInt */
  bundle_version: number;
  head_fact_id: string;
  head_hash: string;
  /**
   * Length of facts_manifest.
   * @isInt
   */
  fact_count: number;
  /** Milliseconds since the epoch (an int64: it does not fit in 32 bits). @isLong */
  created_at_ms: number;
  created_at_iso: string;
  signature_alg: 'ed25519';
  key_id: string;
}

export interface BundlePage {
  items: BundleSummary[];
  /** Opaque; null on the last page. */
  next_cursor: string | null;
}

/** docs/ledger-formats.md "Verification result"; a broken chain is valid false, not an error status. */
export interface VerificationResult {
  valid: boolean;
  /**
   * Facts verified before finishing or failing.
   * @isInt
   */
  facts_verified: number;
  /** Present when valid is false; names the fact where the chain breaks. */
  error?: string;
  /** Present when valid is false: the fact named in `error`. */
  broken_fact_id?: string;
  stream_id: string;
  /** The head the walk checked against (the stream's head when verify started). */
  head_fact_id: string | null;
  head_hash: string;
}

export interface Stream {
  stream_id: string;
  tenant_id: string;
  /** @isInt */
  fact_count: number;
  head_fact_id: string | null;
  head_hash: string;
  /** Milliseconds since the epoch (an int64: it does not fit in 32 bits). @isLong */
  created_at_ms: number;
  created_at_iso: string;
  /** Milliseconds since the epoch (an int64: it does not fit in 32 bits). @isLong */
  updated_at_ms: number;
  updated_at_iso: string;
}

export interface StreamPage {
  items: Stream[];
  /** Opaque; null on the last page. */
  next_cursor: string | null;
}

export type CheckStatus = string;

/** GET /health (docs/ledger-formats.md "Health check"): 200 when every dependency answers, 503 with the same body otherwise. */
export interface Health {
  status: 'ok' | 'degraded';
  service: 'ledger';
  /** Milliseconds since the epoch (an int64: it does not fit in 32 bits). @isLong */
  time_ms: number;
  time_iso: string;
  /** 'ok' or the reason a dependency failed: database, redis, signing_key. */
  checks: { [name: string]: CheckStatus };
}

/** A published Ed25519 key (RFC 8037 OKP JWK) with its validity window. */
export interface LedgerPublicKey {
  kid: string;
  kty: string;
  crv: string;
  /** base64url of the 32-byte public key */
  x: string;
  alg: string;
  use: string;
  /** ISO 8601; bundles created at or after this instant may be signed with the key. */
  not_before: string;
  /** ISO 8601, or null while the key is current; a key is valid on [not_before, not_after). */
  not_after: string | null;
}

/** A key of a transition statement: the new key's public half (RFC 8037). */
export interface LedgerTransitionKey {
  kid: string;
  /** `OKP` */
  kty: string;
  /** `Ed25519` */
  crv: string;
  /** base64url of the 32-byte public key */
  x: string;
}

/** One signature of a transition statement. */
export interface LedgerTransitionSignature {
  key_id: string;
  /** base64 Ed25519 over the RFC 8785 JSON of the statement without `signatures` */
  signature: string;
}

/**
 * A rotation of the ledger's key ring (docs/ledger-formats.md "Key transitions"), signed by the keys it
 * retires and by the key it introduces: a verifier trusting a retired key learns the new one from it.
 */
export interface LedgerKeyTransition {
  /** `ledger_key_transition` */
  type: string;
  mode: 'scheduled' | 'emergency';
  /**
   * The rotation instant, ms since the epoch: the new key's not_before, each retired key's not_after.
   * @isLong
   */
  created_at_ms: number;
  key: LedgerTransitionKey;
  retired: { kid: string; not_after: string }[];
  /** `Ed25519` */
  signature_alg: string;
  signatures: LedgerTransitionSignature[];
}

export interface LedgerKeySet {
  /** Every key the ledger ever signed with, oldest first; retired keys stay. */
  keys: LedgerPublicKey[];
  /**
   * Every rotation since the ledger's first key, oldest first (docs/ledger-formats.md "Key transitions").
   * Always sent; optional because key sets saved before transitions existed lack it.
   */
  transitions?: LedgerKeyTransition[];
}

export interface RotateKeysBody {
  /** scheduled: this year's key, refused when it exists; emergency: a new `<year>.<n>` key at once. */
  mode: 'scheduled' | 'emergency';
}

export interface KeyRotation {
  mode: 'scheduled' | 'emergency';
  /** kid of the new signing key */
  key_id: string;
  /** kids retired by this rotation (still published) */
  retired: string[];
  keys: LedgerPublicKey[];
}
