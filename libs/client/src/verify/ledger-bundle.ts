// Verifies a ledger proof bundle and the facts it covers from API output alone (docs/ledger-formats.md
// "Verifying a bundle"; scripts/verify-ledger-bundle.mjs is the dependency-free reference):
// shape, key window, Ed25519 signature (RFC 8032) over the canonical bundle without `signature`, and
// the fact_hash chain from the genesis value to the signed head.
import { sha256Digest } from '@arbiter/canonical';
import { ed25519SignatureValid, ledgerKeyAt } from './ledger-signature';
import { ReportBuilder, type VerificationReport } from './report';

type Rec = Record<string, unknown>;

export const GENESIS_PREV_HASH = `sha256:${'0'.repeat(64)}`;
const BUNDLE_FIELDS = [
  'bundle_id',
  'stream_id',
  'tenant_id',
  'bundle_version',
  'head_fact_id',
  'head_hash',
  'facts_manifest',
  'created_at_ms',
  'created_at_iso',
  'signature_alg',
  'key_id',
];

export interface LedgerBundleInput {
  bundle: unknown;
  /** GET /.well-known/ledger-keys */
  keys: unknown;
  /** The stream's facts in chain order: list entries (GET /streams/{id}/facts) or full facts (GET /facts/{id}). */
  facts: unknown[];
  /** Called every 1000 facts on long chains. */
  onProgress?: (verified: number, total: number) => void;
  /**
   * The tenant whose data the caller expects (a trust file's `tenant_id`): a bundle of another tenant fails the
   * `tenant` check. Two tenants may each have a stream of one name, and the ledger's keys sign both.
   */
  tenantId?: string;
}

export interface LedgerBundleReport extends VerificationReport {
  facts_verified: number;
  facts_in_manifest: number;
}

/**
 * fact_hash (docs/ledger-formats.md "fact_hash"): the seven members, plus `sealed_by` when the fact has
 * one (a fact sealed before the ledger recorded its sealer shows `sealed_by: null`, or no member at all
 * in output saved before then, and hashes without it).
 */
export function ledgerFactHash(fact: Rec, bundle: Rec, prevHash: string): string {
  const sealedBy = fact.sealed_by ?? null;
  return sha256Digest({
    fact_id: fact.fact_id,
    stream_id: bundle.stream_id,
    tenant_id: bundle.tenant_id,
    actor: fact.actor,
    sealed_at_ms: fact.sealed_at_ms,
    ...(sealedBy === null ? {} : { sealed_by: sealedBy }),
    custom_payload: fact.custom_payload,
    prev_hash: prevHash,
  });
}

/** Extracts facts from parsed files: pages `{facts: [...]}`, arrays of facts, or single facts. */
export function factsFromDocuments(docs: unknown[]): unknown[] {
  return docs.flatMap((d) =>
    Array.isArray(d) ? d : d && typeof d === 'object' && Array.isArray((d as Rec).facts) ? ((d as Rec).facts as unknown[]) : [d],
  );
}

export function verifyLedgerBundle(input: LedgerBundleInput): LedgerBundleReport {
  const bundle = (input.bundle ?? {}) as Rec;
  const report = new ReportBuilder(`bundle ${typeof bundle.bundle_id === 'string' ? bundle.bundle_id : '(no id)'}`);
  let factsVerified = 0;
  const manifest = Array.isArray(bundle.facts_manifest) ? (bundle.facts_manifest as unknown[]) : [];
  const done = (): LedgerBundleReport => ({ ...report.build(), facts_verified: factsVerified, facts_in_manifest: manifest.length });

  // 1. Shape: every signed field, nothing unsigned, a known version and algorithm.
  if (!input.bundle || typeof input.bundle !== 'object') return (report.fail('shape', 'the bundle is not a JSON object'), done());
  const known = new Set([...BUNDLE_FIELDS, 'signature']);
  const missing = [...known].filter((f) => !(f in bundle));
  if (missing.length) return (report.fail('shape', `the bundle has no ${missing.join(', ')}`), done());
  const unknown = Object.keys(bundle).filter((f) => !known.has(f));
  if (unknown.length)
    return (
      report.fail('shape', `the bundle has unknown fields ${unknown.join(', ')}: they would not be covered by the signature`),
      done()
    );
  if (bundle.bundle_version !== 1) return (report.fail('shape', `bundle_version ${show(bundle.bundle_version)} is not 1`), done());
  if (bundle.signature_alg !== 'ed25519')
    return (report.fail('shape', `signature_alg ${show(bundle.signature_alg)} is not ed25519`), done());
  if (manifest.length === 0) return (report.fail('shape', 'facts_manifest is not a non-empty array'), done());
  if (typeof bundle.created_at_ms !== 'number' || new Date(bundle.created_at_ms).toISOString() !== bundle.created_at_iso) {
    return (report.fail('shape', 'created_at_iso is not created_at_ms in ISO 8601'), done());
  }
  report.pass(
    'shape',
    `version 1 bundle of stream ${bundle.stream_id} of tenant ${show(bundle.tenant_id)}, ${manifest.length} facts, head ${bundle.head_fact_id}`,
  );
  if (input.tenantId !== undefined && bundle.tenant_id !== input.tenantId)
    return (
      report.fail(
        'tenant',
        `the bundle is of tenant ${show(bundle.tenant_id)}, not of ${input.tenantId} whose trust file was given: the ledger's keys sign every tenant's bundles, so they cannot vouch that this data is that tenant's`,
      ),
      done()
    );

  // 2. Key: published, Ed25519, valid when the bundle was made.
  const keyLookup = ledgerKeyAt(input.keys, bundle.key_id, bundle.created_at_ms as number, 'bundle');
  // (The shape check made created_at_iso the ISO form of created_at_ms, which the messages show.)
  if (!keyLookup.ok) return (report.fail('key', keyLookup.message), done());
  const key = keyLookup.key;
  report.pass('key', keyLookup.message);

  // 3. Signature over the canonical bundle without `signature`.
  const unsigned: Rec = {};
  for (const f of BUNDLE_FIELDS) unsigned[f] = bundle[f];
  const signatureOk = ed25519SignatureValid(key, unsigned, bundle.signature);
  if (typeof signatureOk === 'string') return (report.fail('signature', signatureOk), done());
  if (
    !report.expect(
      'signature',
      signatureOk,
      `Ed25519 signature valid with key ${String(key.kid)}`,
      `the Ed25519 signature does not verify with key ${String(key.kid)}: a signed field of the bundle was changed, or it was signed by another key`,
    )
  )
    return done();

  // 4. The chain: genesis → … → head_hash, in manifest order.
  const facts = input.facts as Rec[];
  if (facts.length < manifest.length)
    return (report.fail('chain', `the bundle covers ${manifest.length} facts but ${facts.length} were given`), done());
  let prevHash = GENESIS_PREV_HASH;
  let prevId: unknown = null;
  for (let i = 0; i < manifest.length; i++) {
    const fact = facts[i] ?? {};
    const at = `fact ${String(fact.fact_id)} (position ${i + 1})`;
    if (fact.fact_id !== manifest[i]) {
      const elsewhere = manifest.indexOf(fact.fact_id);
      const hint = elsewhere >= 0 ? `; the manifest has it at position ${elsewhere + 1}: the facts are out of order` : '';
      return (report.fail('chain', `chain broken at ${at}: the manifest has ${manifest[i]} at this position${hint}`), done());
    }
    if (typeof fact.sealed_at_ms !== 'number' || new Date(fact.sealed_at_ms).toISOString() !== fact.sealed_at_iso) {
      return (report.fail('chain', `chain broken at ${at}: sealed_at_iso is not sealed_at_ms`), done());
    }
    let hash: string;
    try {
      hash = ledgerFactHash(fact, bundle, prevHash);
    } catch (err) {
      return (report.fail('chain', `chain broken at ${at}: ${(err as Error).message}`), done());
    }
    for (const [name, expected] of [
      ['prev_hash', prevHash],
      ['parent_fact_id', prevId],
      ['fact_hash', hash],
      ['stream_id', bundle.stream_id],
      ['tenant_id', bundle.tenant_id],
    ] as const) {
      if (name in fact && fact[name] !== expected) {
        const what =
          name === 'fact_hash' ? ': its content (actor, sealed_at_ms, sealed_by or custom_payload) differs from what was sealed' : '';
        return (report.fail('chain', `chain broken at ${at}: ${name} is ${show(fact[name])}, expected ${show(expected)}${what}`), done());
      }
    }
    prevHash = hash;
    prevId = fact.fact_id;
    if ('fact_hash' in fact) factsVerified = i + 1;
    if ((i + 1) % 1000 === 0) input.onProgress?.(i + 1, manifest.length);
  }
  if (prevId !== bundle.head_fact_id)
    return (report.fail('chain', `the manifest ends at ${String(prevId)}, not at head_fact_id ${bundle.head_fact_id}`), done());
  if (prevHash !== bundle.head_hash) {
    return (
      report.fail(
        'chain',
        `the recomputed chain ends at ${prevHash}, not at the signed head_hash ${bundle.head_hash}: a fact differs from what was sealed ` +
          '(list entries carry no fact_hash; give full facts from GET /facts/{fact_id} to find which)',
      ),
      done()
    );
  }
  factsVerified = manifest.length;
  input.onProgress?.(manifest.length, manifest.length);
  report.pass('chain', `${manifest.length} facts chain from the genesis hash to the signed head_hash ${bundle.head_hash}`);
  const later = facts.length - manifest.length;
  if (later > 0) report.info('chain', `${later} facts sealed after the bundle were not checked`);
  return done();
}

const show = (v: unknown) => JSON.stringify(v) ?? 'absent';
