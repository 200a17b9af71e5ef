// Which published ledger key signed something, and whether it was valid then (docs/ledger-formats.md
// "Signing keys"): pure, shared by the SDK's verifiers and the console's browser verifier (hence the time reader's
// own path: the library's index pulls in node:buffer).
import { parseIsoInstant } from '@arbiter/input/time';

type Rec = Record<string, unknown>;

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
  // An instant with Z or an offset on a day the calendar has: a window that names anything else fails closed.
  const notBefore = parseIsoInstant(key.not_before);
  const open = key.not_after === null || key.not_after === undefined;
  const notAfter = open ? null : parseIsoInstant(key.not_after);
  if (notBefore === null || (!open && notAfter === null))
    return {
      ok: false,
      message: `key ${String(key.kid)} has an unreadable validity window ([${String(key.not_before)}, ${String(key.not_after ?? '∞')}))`,
    };
  if (!(atMs >= notBefore) || (notAfter !== null && !(atMs < notAfter))) {
    return {
      ok: false,
      message: `key ${String(key.kid)} was not valid when the ${what} was made (${at}; key window [${String(key.not_before)}, ${String(key.not_after ?? '∞')}))`,
    };
  }
  return { ok: true, key, message: `key ${String(key.kid)} was valid at ${at}` };
}
