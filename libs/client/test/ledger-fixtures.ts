// A ledger stream made here as the ledger makes one: fact hashes over a hand-written RFC 8785
// (fixtures.ts `digest`, not @arbiter/canonical), Ed25519 keys and checkpoint signatures from
// node:crypto, Merkle roots and proofs from the RFC's recursive definitions (@arbiter/merkle's
// reference functions; the SDK verifies with its iterative verifiers).
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { consistencyProof, factLeaf, inclusionPath, toDigest, treeRoot } from '@arbiter/merkle';
import { digest, jcs } from './fixtures';

export interface LedgerTestKey {
  jwk: { kid: string; kty: string; crv: string; x: string; alg: string; use: string; not_before: string; not_after: string | null };
  privateKey: KeyObject;
}

export function makeLedgerKey(kid: string, notBefore = '2026-01-01T00:00:00.000Z', notAfter: string | null = null): LedgerTestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const x = publicKey.export({ format: 'jwk' }).x as string;
  return { privateKey, jwk: { kid, kty: 'OKP', crv: 'Ed25519', x, alg: 'EdDSA', use: 'sig', not_before: notBefore, not_after: notAfter } };
}

export interface TestFact {
  fact_id: string;
  stream_id: string;
  tenant_id: string;
  actor: string;
  sealed_at_ms: number;
  sealed_at_iso: string;
  custom_payload: Record<string, unknown>;
  fact_hash: string;
  prev_hash: string;
  parent_fact_id: string | null;
  sequence: number;
  client_ref: string | null;
}

export type TestCheckpoint = {
  stream_id: string;
  tree_size: number;
  root_hash: string;
  created_at_ms: number;
  key_id: string;
  signature_alg: 'Ed25519';
  signature: string;
};

/** Signs a checkpoint's members (all but `signature`) with node:crypto Ed25519 over the hand-written RFC 8785 form. */
export function signCheckpoint(unsigned: Omit<TestCheckpoint, 'signature'> & Record<string, unknown>, key: LedgerTestKey): TestCheckpoint {
  return { ...unsigned, signature: sign(null, Buffer.from(jcs(unsigned), 'utf8'), key.privateKey).toString('base64') } as TestCheckpoint;
}

let factCounter = 0;

export class TestStream {
  readonly facts: TestFact[] = [];

  constructor(
    readonly streamId: string,
    readonly tenantId: string,
    readonly key: LedgerTestKey,
    private readonly clock: () => number = () => Date.parse('2026-03-01T12:00:00.000Z') + factCounter,
  ) {}

  /** Appends a fact, hashed as docs/ledger-formats.md "fact_hash" says (`sealed_by` a member when given). */
  seal(actor: string, custom_payload: Record<string, unknown>, client_ref: string | null = null, sealed_by?: string): TestFact {
    const prev = this.facts.at(-1);
    const fact_id = `fct-${String(++factCounter).padStart(24, '0')}`;
    const sealed_at_ms = this.clock();
    const prev_hash = prev?.fact_hash ?? `sha256:${'0'.repeat(64)}`;
    const fact_hash = digest({
      fact_id,
      stream_id: this.streamId,
      tenant_id: this.tenantId,
      actor,
      sealed_at_ms,
      custom_payload,
      prev_hash,
      ...(sealed_by ? { sealed_by } : {}),
    });
    const fact: TestFact = {
      fact_id,
      stream_id: this.streamId,
      tenant_id: this.tenantId,
      actor,
      sealed_at_ms,
      sealed_at_iso: new Date(sealed_at_ms).toISOString(),
      custom_payload,
      fact_hash,
      prev_hash,
      parent_fact_id: prev?.fact_id ?? null,
      sequence: this.facts.length + 1,
      client_ref,
      ...(sealed_by ? { sealed_by } : {}),
    };
    this.facts.push(fact);
    return fact;
  }

  private leaves(size: number) {
    return this.facts.slice(0, size).map((f) => factLeaf(f.fact_hash));
  }

  checkpoint(size = this.facts.length, createdAtMs = Date.parse('2026-03-01T12:30:00.000Z'), key = this.key): TestCheckpoint {
    return signCheckpoint(
      {
        stream_id: this.streamId,
        tree_size: size,
        root_hash: toDigest(treeRoot(this.leaves(size))),
        created_at_ms: createdAtMs,
        key_id: key.jwk.kid,
        signature_alg: 'Ed25519',
      },
      key,
    );
  }

  inclusion(factId: string, size = this.facts.length) {
    const leaf_index = this.facts.findIndex((f) => f.fact_id === factId);
    return {
      fact_id: factId,
      leaf_index,
      tree_size: size,
      inclusion_path: inclusionPath(leaf_index, this.leaves(size)).map(toDigest),
      checkpoint: this.checkpoint(size),
    };
  }

  consistency(from: number, to: number) {
    return { from, to, consistency_path: consistencyProof(from, this.leaves(to)).map(toDigest) };
  }
}

/** The consultation payload the verdict service seals (the contract's six members). */
export function sealedPayloadOf(record: Record<string, unknown>): Record<string, unknown> {
  return {
    consultation_id: record.id,
    normative_hash: record.normative_hash,
    context_hash: record.context_hash,
    verdict: record.verdict,
    signing_kid: record.signing_kid,
    decided_at: record.requested_at,
  };
}

/**
 * A ledger key transition (docs/ledger-formats.md "Key transitions"): `to` introduced at `atMs`, retiring
 * `from`, signed (node:crypto, hand-written RFC 8785) by each of `signers` (default: `from`, then `to`).
 */
export function signTransition(
  from: LedgerTestKey[],
  to: LedgerTestKey,
  atMs: number,
  signers: LedgerTestKey[] = [...from, to],
  mode: 'scheduled' | 'emergency' = 'emergency',
) {
  const at = new Date(atMs).toISOString();
  const unsigned = {
    type: 'ledger_key_transition',
    mode,
    created_at_ms: atMs,
    key: { kid: to.jwk.kid, kty: 'OKP', crv: 'Ed25519', x: to.jwk.x },
    retired: from.map((k) => ({ kid: k.jwk.kid, not_after: at })),
    signature_alg: 'Ed25519',
  };
  const input = Buffer.from(jcs(unsigned), 'utf8');
  return {
    ...unsigned,
    signatures: signers.map((k) => ({ key_id: k.jwk.kid, signature: sign(null, input, k.privateKey).toString('base64') })),
  };
}

/** The payload the verdict service seals in `arbiter.<tenant_id>.keys` when a key is made (docs/ledger-formats.md "The keys stream"). */
export function keySealPayloadOf(
  jwk: { kid: string; x: string; y?: string; not_before: string },
  mode: 'first' | 'scheduled' | 'emergency',
  retired: { kid: string; not_after: string }[] = [],
): Record<string, unknown> {
  return { kid: jwk.kid, public_jwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, not_before: jwk.not_before, mode, retired };
}
