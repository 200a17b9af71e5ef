// The trust file `arbiter trust export` writes (docs/evidence.md "Trusted keys"): its shape and its
// parsing, with no Node API, so that the CLI, the SDK and the console's browser verifier read one format
// by one definition.
import { InputError } from '../errors';
import type { KeySet, LedgerKeySet, LedgerPublicKey, VerificationKey } from '../types';

type Rec = Record<string, unknown>;

export const TRUST_FILE_FORMAT = 'arbiter.trust';

/** What a verifier trusts: one tenant's verdict keys and the ledger's keys. */
export interface TrustAnchors {
  tenant_id: string;
  /** The tenant's verdict key set (GET /v1/tenants/<tenant>/jwks). */
  jwks: KeySet;
  /** The ledger's key set (GET /.well-known/ledger-keys); its `transitions` are history, not trust. */
  ledger_keys: LedgerKeySet;
}

/** The trust file `arbiter trust export` writes (docs/evidence.md "Trusted keys"). */
export interface TrustFile extends TrustAnchors {
  format: typeof TRUST_FILE_FORMAT;
  version: 1;
  exported_at: string;
  /** Where it came from (informational: the file is trusted because of how it was obtained). */
  source: { verdict_url: string; ledger_url: string };
  /** Set by `arbiter trust extend`: when the keys were last extended through verified history. */
  extended_at?: string;
}

/** Checks a parsed trust file; throws InputError saying what is wrong. */
export function parseTrustFile(doc: unknown, source = 'the trust file'): TrustFile {
  const t = (doc ?? {}) as Partial<TrustFile>;
  if (!doc || typeof doc !== 'object' || t.format !== TRUST_FILE_FORMAT || t.version !== 1) {
    throw new InputError(`${source} is not a trust file (format ${TRUST_FILE_FORMAT}, version 1; written by \`arbiter trust export\`)`);
  }
  if (typeof t.tenant_id !== 'string' || !/^tnt-[A-Za-z0-9_-]+$/.test(t.tenant_id))
    throw new InputError(`${source} names no tenant (tenant_id tnt-…)`);
  const verdictKeys = t.jwks?.keys;
  if (!Array.isArray(verdictKeys) || verdictKeys.some((k) => !isEcKey(k) || !k.kid.startsWith(`${t.tenant_id}:`))) {
    throw new InputError(`${source}: jwks must hold the EC P-256 keys of tenant ${t.tenant_id} (kid ${t.tenant_id}:<epoch>)`);
  }
  const ledgerKeys = t.ledger_keys?.keys;
  if (!Array.isArray(ledgerKeys) || ledgerKeys.some((k) => !isEd25519Key(k)))
    throw new InputError(`${source}: ledger_keys must hold the ledger's Ed25519 keys`);
  return t as TrustFile;
}

const isEcKey = (k: unknown): k is VerificationKey => {
  const r = k as Rec;
  return (
    !!r &&
    typeof r.kid === 'string' &&
    r.kty === 'EC' &&
    r.crv === 'P-256' &&
    typeof r.x === 'string' &&
    typeof r.y === 'string' &&
    typeof r.not_before === 'string'
  );
};
const isEd25519Key = (k: unknown): k is LedgerPublicKey => {
  const r = k as Rec;
  return (
    !!r &&
    typeof r.kid === 'string' &&
    r.kty === 'OKP' &&
    r.crv === 'Ed25519' &&
    typeof r.x === 'string' &&
    typeof r.not_before === 'string'
  );
};
