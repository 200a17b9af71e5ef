// A ledger stream and the ledger's answer about one of its facts, made for tests without the code under
// test: fact hashes with the `canonicalize` package and node:crypto (docs/ledger-formats.md "fact_hash"),
// the RFC 9162 section 2.1 tree and audit path written out here, the checkpoint signed with a node:crypto
// Ed25519 key (docs/evidence.md "Checkpoints").
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { CitedFactProof, LedgerFactView } from './ledger-citation';

const GENESIS = `sha256:${'0'.repeat(64)}`;
const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const bytes = (digest: string) => Buffer.from(digest.slice(7), 'hex');
const hex = (b: Buffer) => `sha256:${b.toString('hex')}`;

/** The KYC service's principal, which seals the fixture's facts unless a test says otherwise. */
export const KYC_SEALER = 'agn-00000000000000000000c0de';

export function factHashOf(f: Omit<LedgerFactView, 'fact_hash' | 'parent_fact_id' | 'sequence'>): string {
  // sealed_by is a member when the fact has one (docs/ledger-formats.md "fact_hash").
  const sealedBy = f.sealed_by === null || f.sealed_by === undefined ? {} : { sealed_by: f.sealed_by };
  const text = canonicalize({
    fact_id: f.fact_id,
    stream_id: f.stream_id,
    tenant_id: f.tenant_id,
    actor: f.actor,
    sealed_at_ms: f.sealed_at_ms,
    ...sealedBy,
    custom_payload: f.custom_payload,
    prev_hash: f.prev_hash,
  })!;
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** A stream of facts with these payloads, chained from the genesis value, sealed by `sealedBy(i)` (null: before sealers were recorded). */
export function makeStream(
  tenantId: string,
  streamId: string,
  payloads: Array<Record<string, unknown>>,
  sealedBy: (i: number) => string | null = () => KYC_SEALER,
): LedgerFactView[] {
  const facts: LedgerFactView[] = [];
  payloads.forEach((custom_payload, i) => {
    const prev = facts[i - 1];
    const base = {
      fact_id: `fct-${(i + 1).toString(16).padStart(24, '0')}`,
      stream_id: streamId,
      tenant_id: tenantId,
      actor: 'agent:kyc',
      sealed_by: sealedBy(i),
      sealed_at_ms: 1_795_000_000_000 + i,
      custom_payload,
      prev_hash: prev ? prev.fact_hash : GENESIS,
    };
    facts.push({ ...base, fact_hash: factHashOf(base), parent_fact_id: prev ? prev.fact_id : null, sequence: i + 1 });
  });
  return facts;
}

const leaf = (factHash: string) => sha(Buffer.from([0]), bytes(factHash));
const split = (n: number) => 2 ** Math.floor(Math.log2(n - 1));
function root(leaves: Buffer[]): Buffer {
  if (leaves.length === 1) return leaves[0];
  const k = split(leaves.length);
  return sha(Buffer.from([1]), root(leaves.slice(0, k)), root(leaves.slice(k)));
}
function path(m: number, leaves: Buffer[]): Buffer[] {
  if (leaves.length === 1) return [];
  const k = split(leaves.length);
  return m < k ? [...path(m, leaves.slice(0, k)), root(leaves.slice(k))] : [...path(m - k, leaves.slice(k)), root(leaves.slice(0, k))];
}

/** A ledger key pair and its published set (GET /.well-known/ledger-keys). */
export function ledgerKey(kid = 'ledger:2026') {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  return {
    kid,
    privateKey,
    keys: {
      keys: [
        { kid, kty: 'OKP', crv: 'Ed25519', x: jwk.x!, alg: 'EdDSA', use: 'sig', not_before: '2026-01-01T00:00:00.000Z', not_after: null },
      ],
    },
  };
}

/** The ledger's answer about fact `index` of `facts` (the whole stream), its checkpoint signed with `key`. */
export function citedProof(facts: LedgerFactView[], index: number, key: ReturnType<typeof ledgerKey>): CitedFactProof {
  const leaves = facts.map((f) => leaf(f.fact_hash));
  const unsigned = {
    stream_id: facts[0].stream_id,
    tree_size: facts.length,
    root_hash: hex(root(leaves)),
    created_at_ms: 1_795_000_100_000,
    key_id: key.kid,
    signature_alg: 'Ed25519',
  };
  const signature = sign(null, Buffer.from(canonicalize(unsigned)!, 'utf8'), key.privateKey).toString('base64');
  return {
    fact: facts[index],
    parent: index > 0 ? facts[index - 1] : null,
    leaf_index: index,
    tree_size: facts.length,
    inclusion_path: path(index, leaves).map(hex),
    checkpoint: { ...unsigned, signature },
  };
}
