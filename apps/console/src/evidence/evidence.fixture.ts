// Test material for the console's evidence verifier, made with Node's own crypto (node:crypto signing,
// @arbiter/merkle's reference tree): another implementation than the WebCrypto code it checks. Imported
// by specs only, never by the browser bundle.
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { auditStreamId, consultationSealPayload, SERVICE_SEALER, VERDICT_SEAL_ACTOR } from '@arbiter/audit-streams';
import { canonicalJson, sha256Digest } from '@arbiter/canonical';
import { GENESIS_PREV_HASH, ledgerFactHash, type EvidencePack, type TrustFile } from '@arbiter/client';
import { factLeaf, inclusionPath, toDigest, treeRoot } from '@arbiter/merkle';

type Rec = Record<string, unknown>;

export const TENANT = 'tnt-0123456789abcdef01234567';

export interface Material {
  record: Rec;
  evidence: Rec & { ledger: Rec & { fact: Rec; checkpoint: Rec; inclusion_path: string[] } };
  trust: TrustFile;
  keys: { verdict: KeyObject; ledger: KeyObject };
}

const b64url = (b: Buffer) => b.toString('base64url');

function esKey(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    privateKey,
    jwk: {
      kid,
      kty: 'EC',
      crv: 'P-256',
      x: jwk.x!,
      y: jwk.y!,
      alg: 'ES256',
      use: 'sig',
      not_before: '2026-01-01T00:00:00.000Z',
      not_after: null,
    },
  };
}

function edKey(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    privateKey,
    jwk: { kid, kty: 'OKP', crv: 'Ed25519', x: jwk.x!, alg: 'EdDSA', use: 'sig', not_before: '2026-01-01T00:00:00.000Z', not_after: null },
  };
}

/** A signed verdict over `claims` with `key` (JWS compact, ES256, r||s). */
export function signJws(claims: Rec, kid: string, key: KeyObject): string {
  const head = `${b64url(Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid })))}.${b64url(Buffer.from(JSON.stringify(claims)))}`;
  return `${head}.${b64url(sign('sha256', Buffer.from(head), { key, dsaEncoding: 'ieee-p1363' }))}`;
}

/** The checkpoint members signed with `key` (Ed25519 over RFC 8785 without `signature`). */
export function signCheckpoint(unsigned: Rec, key: KeyObject): Rec {
  return { ...unsigned, signature: sign(null, Buffer.from(canonicalJson(unsigned)), key).toString('base64') };
}

/** A consultation, its record, its fact at leaf `leaf` of a 7-fact stream, the proof and the checkpoint. */
export function makeMaterial(leaf = 5): Material {
  const kid = `${TENANT}:1767225600`;
  const verdictKey = esKey(kid);
  const ledgerKey = edKey('ledger:2026');
  const requested = '2026-11-20T10:00:00.123Z';
  const base: Rec = {
    id: 'cns-fixture0001',
    tenant_id: TENANT,
    caller_principal_id: 'agn-0001',
    on_behalf_of: null,
    action: 'payments.refund',
    resource: 'order:42',
    scope_used: { env: 'prod' },
    parameters: { amount: 12 },
    context_snapshot: {},
    verdict: 'allowed',
    dominating_rule_id: null,
    cited_rule_version_ids: [],
    cited_entry_ids: [],
    requested_at: requested,
    verdict_ttl_seconds: 300,
    signing_kid: kid,
  };
  base.context_hash = sha256Digest({
    action: base.action,
    resource: base.resource,
    scope: base.scope_used,
    parameters: base.parameters,
    context: base.context_snapshot,
  });
  base.normative_hash = sha256Digest(base);
  const iat = Math.floor(Date.parse(requested) / 1000);
  const claims: Rec = {
    iss: 'arbiter-verdict',
    sub: base.caller_principal_id,
    jti: base.id,
    tenant_id: TENANT,
    verdict: base.verdict,
    action: base.action,
    resource: base.resource,
    scope: base.scope_used,
    parameters: base.parameters,
    on_behalf_of: null,
    context_hash: base.context_hash,
    normative_hash: base.normative_hash,
    dominating_rule_id: null,
    cited_rule_version_ids: [],
    iat,
    exp: iat + 300,
  };
  const record: Rec = { ...base, signed_verdict: signJws(claims, kid, verdictKey.privateKey) };

  const stream = auditStreamId(TENANT, 'consultations');
  const facts: Rec[] = [];
  let prev = GENESIS_PREV_HASH;
  for (let i = 0; i < 7; i++) {
    const payload = i === leaf ? consultationSealPayload(record as never) : { consultation_id: `cns-other${i}` };
    const fact: Rec = {
      fact_id: `fct-${String(i).padStart(4, '0')}`,
      stream_id: stream,
      tenant_id: TENANT,
      actor: VERDICT_SEAL_ACTOR,
      sealed_by: SERVICE_SEALER,
      sealed_at_ms: 1795000000000 + i,
      sealed_at_iso: new Date(1795000000000 + i).toISOString(),
      custom_payload: { ...payload },
      prev_hash: prev,
      parent_fact_id: i ? `fct-${String(i - 1).padStart(4, '0')}` : null,
      sequence: i + 1,
      client_ref: (payload as Rec).consultation_id,
    };
    fact.fact_hash = ledgerFactHash(fact, fact, prev);
    prev = fact.fact_hash as string;
    facts.push(fact);
  }
  const leaves = facts.map((f) => factLeaf(String(f.fact_hash)));
  const checkpoint = signCheckpoint(
    {
      stream_id: stream,
      tree_size: 7,
      root_hash: toDigest(treeRoot(leaves)),
      created_at_ms: 1795000001000,
      key_id: 'ledger:2026',
      signature_alg: 'Ed25519',
    },
    ledgerKey.privateKey,
  );
  const fact = facts[leaf];
  const evidence = {
    consultation_id: record.id,
    ledger: {
      stream_id: stream,
      fact_id: fact.fact_id,
      fact_hash: fact.fact_hash,
      leaf_index: leaf,
      tree_size: 7,
      inclusion_path: inclusionPath(leaf, leaves).map(toDigest),
      checkpoint,
      fact,
      keys: { keys: [ledgerKey.jwk], transitions: [] },
    },
  };
  const trust = {
    format: 'arbiter.trust',
    version: 1,
    tenant_id: TENANT,
    exported_at: '2026-11-22T09:00:00.000Z',
    source: { verdict_url: 'http://verdict.test', ledger_url: 'http://ledger.test' },
    jwks: { keys: [verdictKey.jwk] },
    ledger_keys: { keys: [ledgerKey.jwk] },
  } as unknown as TrustFile;
  return { record, evidence, trust, keys: { verdict: verdictKey.privateKey, ledger: ledgerKey.privateKey } };
}

/**
 * The same record and evidence as a version 2 evidence pack, for the SDK's verifyEvidencePack (the CLI's
 * `arbiter verify evidence`): the cross-check that both verifiers reach the same verdict and name the same check.
 */
export function packOf(record: unknown, evidence: unknown, jwks: unknown): EvidencePack {
  const ledger = ((evidence ?? {}) as Rec).ledger as Rec;
  return {
    format: 'arbiter.evidence-pack',
    version: 2,
    exported_at: '2026-11-27T00:00:00.000Z',
    source: { verdict_url: 'http://verdict.test', ledger_url: 'http://ledger.test', tenant_id: String((record as Rec).tenant_id) },
    consultation: record,
    jwks,
    rule_versions: [],
    approvals: [],
    approvals_available: false,
    ledger: {
      fact: ledger.fact,
      leaf_index: ledger.leaf_index,
      tree_size: ledger.tree_size,
      inclusion_path: ledger.inclusion_path,
      checkpoint: ledger.checkpoint,
      keys: ledger.keys,
    },
  } as unknown as EvidencePack;
}
