// The ledger's signatures, one way for everything it signs (proof bundles, checkpoints): a published
// Ed25519 key (RFC 8037 OKP JWK) whose window [not_before, not_after) holds the signing instant, and an
// Ed25519 signature (RFC 8032), base64, over the RFC 8785 form of the signed object without `signature`
// (docs/ledger-formats.md "Signing keys" and "Signature input").
import { createPublicKey, verify } from 'node:crypto';
import { canonicalJson } from '@arbiter/canonical';

type Rec = Record<string, unknown>;

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export type LedgerKeyLookup = { ok: true; key: Rec; message: string } | { ok: false; message: string };

/** The key `keyId` of a ledger key set (GET /.well-known/ledger-keys), if it is Ed25519 and valid at `atMs`. */
export function ledgerKeyAt(keySet: unknown, keyId: unknown, atMs: number, what: string): LedgerKeyLookup {
  const keys = (keySet as Rec | undefined)?.keys as Rec[] | undefined;
  if (!Array.isArray(keys)) return { ok: false, message: 'the key set has no keys array' };
  const key = keys.find((k) => k?.kid === keyId);
  if (!key)
    return {
      ok: false,
      message: `key ${String(keyId)} is not among the published ledger keys (${keys.map((k) => k?.kid).join(', ') || 'none'})`,
    };
  if (key.kty !== 'OKP' || key.crv !== 'Ed25519') return { ok: false, message: `key ${String(key.kid)} is not an Ed25519 key` };
  const at = Number.isFinite(atMs) ? new Date(atMs).toISOString() : String(atMs);
  const notBefore = Date.parse(String(key.not_before));
  const notAfter = key.not_after === null || key.not_after === undefined ? null : Date.parse(String(key.not_after));
  if (!(atMs >= notBefore) || (notAfter !== null && !(atMs < notAfter))) {
    return {
      ok: false,
      message: `key ${String(key.kid)} was not valid when the ${what} was made (${at}; key window [${String(key.not_before)}, ${String(key.not_after ?? '∞')}))`,
    };
  }
  return { ok: true, key, message: `key ${String(key.kid)} was valid at ${at}` };
}

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
