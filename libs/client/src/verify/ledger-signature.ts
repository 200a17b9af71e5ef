// The ledger's signatures, one way for everything it signs (proof bundles, checkpoints): a published
// Ed25519 key (RFC 8037 OKP JWK) whose window [not_before, not_after) holds the signing instant, and an
// Ed25519 signature (RFC 8032), base64, over the RFC 8785 form of the signed object without `signature`
// (docs/ledger-formats.md "Signing keys" and "Signature input").
import { createPublicKey, verify } from 'node:crypto';
import { canonicalJson } from '@arbiter/canonical';

type Rec = Record<string, unknown>;

export { ledgerKeyAt, type LedgerKeyLookup } from './ledger-key';

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Whether `signature` (base64) is the key's Ed25519 signature over the RFC 8785 form of `unsigned`; a string says why it could not be checked. */
export function ed25519SignatureValid(key: Rec, unsigned: Rec, signature: unknown): boolean | string {
  if (typeof signature !== 'string' || !STRICT_BASE64.test(signature)) return 'signature is not base64';
  try {
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: String(key.x) }, format: 'jwk' });
    return verify(null, Buffer.from(canonicalJson(unsigned), 'utf8'), publicKey, Buffer.from(signature, 'base64'));
  } catch (err) {
    return `the signature could not be checked: ${(err as Error).message}`;
  }
}
