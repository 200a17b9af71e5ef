import { isoOf } from '../domain/bundle-format';
import type { FactRecord, StreamRow } from '../repositories/ledger.repository';
import type { BundleRow } from '../repositories/bundles.repository';
import type { BundleSummary, Fact, FactListEntry, ProofBundle, Stream } from '../models/ledger';

// Stored payload text is canonical JSON; parsing it gives exactly what the hash covers.
const payloadOf = (f: FactRecord) => JSON.parse(f.payload_text) as Fact['custom_payload'];

export function presentFact(f: FactRecord): Fact {
  return {
    fact_id: f.fact_id,
    stream_id: f.stream_id,
    tenant_id: f.tenant_id,
    actor: f.actor,
    sealed_by: f.sealed_by,
    sealed_at_ms: f.sealed_at_ms,
    sealed_at_iso: isoOf(f.sealed_at_ms),
    custom_payload: payloadOf(f),
    fact_hash: f.fact_hash,
    prev_hash: f.prev_hash,
    parent_fact_id: f.parent_fact_id,
    sequence: f.seq,
    client_ref: f.client_ref,
  };
}

/**
 * docs/ledger-formats.md "Fact": list entries carry fact_id, sealed_at_ms, sealed_at_iso, actor and
 * custom_payload, and sealed_by, which fact_hash covers: with it a list page is enough to recompute the chain.
 */
export function presentListEntry(f: FactRecord): FactListEntry {
  return {
    fact_id: f.fact_id,
    sealed_at_ms: f.sealed_at_ms,
    sealed_at_iso: isoOf(f.sealed_at_ms),
    actor: f.actor,
    sealed_by: f.sealed_by,
    custom_payload: payloadOf(f),
  };
}

export function presentStream(s: StreamRow): Stream {
  return {
    stream_id: s.stream_id,
    tenant_id: s.tenant_id,
    fact_count: s.head_seq,
    head_fact_id: s.head_fact_id,
    head_hash: s.head_hash,
    created_at_ms: s.created_at_ms,
    created_at_iso: isoOf(s.created_at_ms),
    updated_at_ms: s.updated_at_ms,
    updated_at_iso: isoOf(s.updated_at_ms),
  };
}

/** The bundle exactly as signed: every signed field, then the signature. */
export function presentBundle(b: BundleRow): ProofBundle {
  const created = Number(b.created_at_ms);
  return {
    bundle_id: b.bundle_id,
    stream_id: b.stream_id,
    tenant_id: b.tenant_id,
    bundle_version: b.bundle_version,
    head_fact_id: b.head_fact_id,
    head_hash: b.head_hash,
    facts_manifest: b.facts_manifest,
    created_at_ms: created,
    created_at_iso: isoOf(created),
    signature: b.signature,
    signature_alg: b.signature_alg as ProofBundle['signature_alg'],
    key_id: b.key_id,
  };
}

export function presentBundleSummary(b: Omit<BundleRow, 'facts_manifest' | 'signature'>): BundleSummary {
  const created = Number(b.created_at_ms);
  return {
    bundle_id: b.bundle_id,
    stream_id: b.stream_id,
    tenant_id: b.tenant_id,
    bundle_version: b.bundle_version,
    head_fact_id: b.head_fact_id,
    head_hash: b.head_hash,
    fact_count: Number(b.fact_count),
    created_at_ms: created,
    created_at_iso: isoOf(created),
    signature_alg: b.signature_alg as BundleSummary['signature_alg'],
    key_id: b.key_id,
  };
}
