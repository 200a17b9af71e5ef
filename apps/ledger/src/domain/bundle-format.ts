import { canonicalJson } from '@arbiter/canonical';

/** Version of the proof bundle format (docs/ledger-formats.md "Versioning"). */
export const BUNDLE_VERSION = 1;
/** The only signature algorithm of version-1 bundles (docs/ledger-formats.md "Proof bundle"). */
export const SIGNATURE_ALG = 'ed25519';

/** Every field of a bundle except `signature`: exactly what the signature covers. */
export interface UnsignedBundle {
  bundle_id: string;
  stream_id: string;
  tenant_id: string;
  bundle_version: number;
  head_fact_id: string;
  head_hash: string;
  facts_manifest: string[];
  created_at_ms: number;
  created_at_iso: string;
  signature_alg: string;
  key_id: string;
}

/**
 * docs/ledger-formats.md: Ed25519 over the UTF-8 bytes of the RFC 8785 JSON of the bundle without
 * `signature`. key_id and signature_alg are inside, so neither can be swapped after signing.
 */
export function bundleSigningInput(bundle: UnsignedBundle): string {
  const {
    bundle_id,
    stream_id,
    tenant_id,
    bundle_version,
    head_fact_id,
    head_hash,
    facts_manifest,
    created_at_ms,
    created_at_iso,
    signature_alg,
    key_id,
  } = bundle;
  return canonicalJson({
    bundle_id,
    stream_id,
    tenant_id,
    bundle_version,
    head_fact_id,
    head_hash,
    facts_manifest,
    created_at_ms,
    created_at_iso,
    signature_alg,
    key_id,
  });
}

/** ISO 8601 with millisecond precision, UTC (docs/ledger-formats.md "Conventions": every time in ms and ISO 8601). */
export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}
