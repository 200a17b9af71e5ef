import { canonicalJson } from '@arbiter/canonical';

// A rotation of the ledger's own Ed25519 ring, as a statement the ledger signs with the key it retires
// and with the key it introduces (docs/ledger-formats.md "Key transitions"; ADR 0017). A verifier that
// trusts the retired key learns the new one from it; the new key's own signature proves the ledger
// holds its private half.

export const KEY_TRANSITION_TYPE = 'ledger_key_transition';

/** Every member of a transition statement except `signatures`: exactly what each signature covers. */
export interface UnsignedKeyTransition {
  type: typeof KEY_TRANSITION_TYPE;
  mode: 'scheduled' | 'emergency';
  /** The rotation instant: the new key's not_before and every retired key's not_after. */
  created_at_ms: number;
  /** The new key's public half (RFC 8037 OKP JWK members). */
  key: { kid: string; kty: 'OKP'; crv: 'Ed25519'; x: string };
  retired: { kid: string; not_after: string }[];
  signature_alg: 'Ed25519';
}

export interface KeyTransition extends UnsignedKeyTransition {
  /** One per retired key the ledger could open, then the new key's: base64 Ed25519 over transitionSigningInput. */
  signatures: { key_id: string; signature: string }[];
}

/** The statement of a rotation at `at` that introduces `key` and closes `retired`. */
export function unsignedKeyTransition(p: {
  mode: 'scheduled' | 'emergency';
  at: Date;
  key: { kid: string; x: string };
  retired: string[];
}): UnsignedKeyTransition {
  const notAfter = p.at.toISOString();
  return {
    type: KEY_TRANSITION_TYPE,
    mode: p.mode,
    created_at_ms: p.at.getTime(),
    key: { kid: p.key.kid, kty: 'OKP', crv: 'Ed25519', x: p.key.x },
    retired: p.retired.map((kid) => ({ kid, not_after: notAfter })),
    signature_alg: 'Ed25519',
  };
}

/** The UTF-8 bytes every signature of a statement covers: its RFC 8785 JSON without `signatures`. */
export function transitionSigningInput(t: UnsignedKeyTransition): string {
  const { type, mode, created_at_ms, key, retired, signature_alg } = t;
  return canonicalJson({ type, mode, created_at_ms, key, retired, signature_alg });
}
