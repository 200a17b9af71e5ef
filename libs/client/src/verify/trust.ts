// The keys a verifier trusts, and how they extend through verified history (docs/evidence.md "Trusted
// keys"; ADR 0017). A signature proves something only under a key the verifier obtained on its own: a
// trust file (the tenant's verdict JWKS and the ledger's keys, taken once from a trusted channel) is the
// anchor. Keys made since are accepted only through history that keys already trusted vouch for:
// - the ledger's own keys through its transition statements, each signed by the key it retires;
// - the tenant's verdict keys through the `arbiter.<tenant_id>.keys` stream, whose facts must make
//   exactly the Merkle tree (RFC 9162 section 2.1) of a checkpoint signed by a trusted ledger key.
// Retirements in that history close the trusted keys' windows; nothing in it can widen one.
import { createHash } from 'node:crypto';
import { canonicalJson } from '@arbiter/canonical';
import { parseIsoInstant } from '@arbiter/input';
import { factLeaf, RootBuilder, toDigest } from '@arbiter/merkle';
import type {
  LedgerCheckpoint,
  LedgerFact,
  LedgerFactListEntry,
  LedgerKeySet,
  LedgerKeyTransition,
  LedgerPublicKey,
  VerificationKey,
} from '../types';
import { keysStreamOf, SERVICE_SEALER, VERDICT_SEAL_ACTOR } from './audit-streams';
import { verifyCheckpoint } from './checkpoint';
import { GENESIS_PREV_HASH, ledgerFactHash } from './ledger-bundle';
import { ed25519SignatureValid } from './ledger-signature';
import { ReportBuilder, type VerificationReport } from './report';
import type { TrustAnchors } from './trust-file';

export { parseTrustFile, TRUST_FILE_FORMAT, type TrustAnchors, type TrustFile } from './trust-file';

type Rec = Record<string, unknown>;

/** A tenant's keys stream from its first fact: the facts in chain order and the checkpoint of exactly them. */
export interface TenantKeyHistory {
  stream_id: string;
  /** GET /streams/<stream>/facts entries (or full facts), sequence 1 to N. */
  facts: (LedgerFactListEntry | LedgerFact)[];
  /** The signed checkpoint of size N; null when the stream has no facts. */
  checkpoint: LedgerCheckpoint | null;
}

/** History that may extend trust (from an evidence pack, or fetched): unverified until extendTrust checked it. */
export interface KeyHistory {
  /** The ledger's transition statements (GET /.well-known/ledger-keys `transitions`). */
  ledger_transitions?: unknown;
  /** The tenant's keys stream (TenantKeyHistory). */
  keys_stream?: unknown;
}

/** The keys to verify with: the anchors, extended and narrowed by verified history. */
export interface TrustedKeys extends TrustAnchors {
  /** kids accepted through history, in the order they were accepted. */
  added: string[];
}

/**
 * The RFC 7638 thumbprint of a public key (base64url SHA-256 of its required members, sorted, no
 * whitespace): what an auditor compares over a second channel to know a trust file holds the right keys.
 */
export function jwkThumbprint(jwk: { kty: string; crv: string; x: string; y?: string }): string {
  const required = jwk.kty === 'EC' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : { crv: jwk.crv, kty: jwk.kty, x: jwk.x };
  return createHash('sha256').update(canonicalJson(required), 'utf8').digest('base64url');
}

/** Whether two key sets hold a kid with different key material: the kids that differ. */
export function conflictingKids(
  claimed: { kid: string; x: string; y?: string }[],
  trusted: { kid: string; x: string; y?: string }[],
): string[] {
  const byKid = new Map(trusted.map((k) => [k.kid, k]));
  return claimed.filter((k) => byKid.has(k.kid) && (byKid.get(k.kid)!.x !== k.x || byKid.get(k.kid)!.y !== k.y)).map((k) => k.kid);
}

/**
 * The anchors extended by the history that keys already trusted vouch for. Each step is a check of the
 * report: a statement or fact that claims a trusted key's word but does not verify fails it (a forged
 * history); one signed only by keys the verifier does not hold is ignored (reported as info).
 */
export function extendTrust(anchors: TrustAnchors, history: KeyHistory = {}): { trusted: TrustedKeys; report: VerificationReport } {
  const report = new ReportBuilder(`key history of ${anchors.tenant_id}`);
  const ledger = new Map(anchors.ledger_keys.keys.map((k) => [k.kid, { ...k }]));
  const tenant = new Map(anchors.jwks.keys.map((k) => [k.kid, { ...k }]));
  const added: string[] = [];
  applyLedgerTransitions(report, ledger, history.ledger_transitions, added);
  applyKeysStream(report, anchors.tenant_id, tenant, { keys: [...ledger.values()] }, history.keys_stream, added);
  if (!report.checks.length) report.info('history', 'no key history given: the trusted keys are the anchors');
  const trusted: TrustedKeys = {
    tenant_id: anchors.tenant_id,
    jwks: { keys: [...tenant.values()] },
    ledger_keys: { keys: [...ledger.values()] },
    added,
  };
  return { trusted, report: report.build() };
}

/** Closes a key's window at notAfter when that is earlier than the one it has (never widens it). */
function narrow(key: { not_after: string | null } | undefined, notAfter: string): void {
  if (key && (key.not_after === null || Date.parse(notAfter) < Date.parse(key.not_after))) key.not_after = notAfter;
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const isIso = (v: unknown): v is string => typeof v === 'string' && ISO_MS.test(v) && parseIsoInstant(v) !== null;
const show = (v: unknown) => JSON.stringify(v) ?? 'absent';

// --- the ledger's transition statements (docs/ledger-formats.md "Key transitions") ---

function transitionProblem(t: Rec): string | null {
  const key = t.key as Rec | undefined;
  if (t.type !== 'ledger_key_transition') return `type ${show(t.type)} is not ledger_key_transition`;
  if (t.mode !== 'scheduled' && t.mode !== 'emergency') return `mode ${show(t.mode)} is not scheduled or emergency`;
  if (!Number.isSafeInteger(t.created_at_ms)) return 'created_at_ms is not an integer';
  if (!key || typeof key.kid !== 'string' || key.kty !== 'OKP' || key.crv !== 'Ed25519' || typeof key.x !== 'string')
    return 'key is not an Ed25519 JWK with a kid';
  const at = new Date(t.created_at_ms as number).toISOString();
  if (!Array.isArray(t.retired) || t.retired.some((r: Rec) => typeof r?.kid !== 'string' || r.not_after !== at))
    return `retired must list {kid, not_after: ${at}}`;
  if (t.signature_alg !== 'Ed25519') return `signature_alg ${show(t.signature_alg)} is not Ed25519`;
  if (!Array.isArray(t.signatures) || t.signatures.some((s: Rec) => typeof s?.key_id !== 'string' || typeof s.signature !== 'string'))
    return 'signatures must be [{key_id, signature}]';
  return null;
}

function applyLedgerTransitions(report: ReportBuilder, ledger: Map<string, LedgerPublicKey>, transitions: unknown, added: string[]): void {
  if (transitions === undefined) return; // a key set saved before transitions existed
  if (!Array.isArray(transitions)) {
    report.fail('ledger_transitions', 'transitions is not an array');
    return;
  }
  if (!transitions.length)
    report.info('ledger_transitions', 'the ledger has published no key transition (no rotation since its first key)');
  const ordered = [...transitions].sort((a: Rec, b: Rec) => Number(a?.created_at_ms) - Number(b?.created_at_ms));
  for (const t of ordered) applyTransition(report, ledger, (t ?? {}) as Rec, added);
}

function applyTransition(report: ReportBuilder, ledger: Map<string, LedgerPublicKey>, raw: Rec, added: string[]): void {
  const name = `ledger_transition.${typeof (raw.key as Rec | undefined)?.kid === 'string' ? String((raw.key as Rec).kid) : '(no kid)'}`;
  const problem = transitionProblem(raw);
  if (problem) {
    report.fail(name, `a ledger key transition is malformed: ${problem}`);
    return;
  }
  const t = raw as unknown as LedgerKeyTransition;
  const { signatures, ...unsigned } = t;
  const at = new Date(t.created_at_ms).toISOString();
  const kid = t.key.kid;
  // The new key's own signature: whoever made the statement holds the new private key.
  const own = signatures.find((s) => s.key_id === kid);
  if (!own || ed25519SignatureValid(t.key, unsigned, own.signature) !== true) {
    report.fail(name, `the statement introducing ${kid} at ${at} does not carry a valid signature of that key: it was changed or forged`);
    return;
  }
  const known = ledger.get(kid);
  if (known && known.x !== t.key.x) {
    report.fail(name, `the statement gives ${kid} another public key than the trusted ${kid}`);
    return;
  }
  const vouchers: string[] = [];
  for (const s of signatures) {
    const signer = s.key_id === kid ? undefined : ledger.get(s.key_id);
    if (!signer) continue; // a key the verifier does not hold vouches for nothing
    const problems: string[] = [];
    if (!t.retired.some((r) => r.kid === s.key_id)) problems.push(`it is signed by ${s.key_id}, which it does not retire`);
    // Only an open key hands over. A key already known to be retired may confirm the successor it is
    // known to have, never introduce another: that would be a fork, or a leaked old key backdating one.
    const open = signer.not_after === null && t.created_at_ms >= Date.parse(signer.not_before);
    if (!open && !(known && signer.not_after === at)) {
      problems.push(
        `trusted key ${s.key_id} was ${signer.not_after === null ? `not valid yet at ${at}` : `retired at ${signer.not_after}`}: it cannot introduce another key at ${at}`,
      );
    }
    if (ed25519SignatureValid(signer, unsigned, s.signature) !== true)
      problems.push(`the signature of trusted key ${s.key_id} does not verify: the statement was changed or forged`);
    if (problems.length) {
      report.fail(name, problems.join('; '));
      return;
    }
    vouchers.push(s.key_id);
  }
  if (!vouchers.length) {
    if (!known)
      report.info(
        name,
        `ledger key ${kid} (rotation at ${at}) not accepted: signed by no key you trust (${signatures.map((s) => s.key_id).join(', ')})`,
      );
    return;
  }
  if (!known) {
    ledger.set(kid, { kid, kty: 'OKP', crv: 'Ed25519', x: t.key.x, alg: 'EdDSA', use: 'sig', not_before: at, not_after: null });
    added.push(kid);
  }
  for (const r of t.retired) narrow(ledger.get(r.kid), r.not_after);
  report.pass(
    name,
    `ledger key ${kid} ${known ? 'already trusted' : 'accepted'}: introduced at ${at} (${t.mode} rotation) by trusted ${vouchers.join(', ')}, which it retires`,
  );
}

// --- the tenant's keys stream (docs/ledger-formats.md "The keys stream") ---

function applyKeysStream(
  report: ReportBuilder,
  tenantId: string,
  tenant: Map<string, VerificationKey>,
  ledgerKeys: LedgerKeySet,
  raw: unknown,
  added: string[],
): void {
  if (raw === undefined || raw === null) return;
  const h = raw as Partial<TenantKeyHistory>;
  const stream = keysStreamOf(tenantId);
  if (h.stream_id !== stream || !Array.isArray(h.facts) || (h.checkpoint !== null && typeof h.checkpoint !== 'object')) {
    report.fail('keys_stream', `the key history is not {stream_id: ${stream}, facts: [...], checkpoint}`);
    return;
  }
  const facts = h.facts as unknown as Rec[];
  if (!facts.length) {
    if (h.checkpoint) report.fail('keys_stream', 'the key history has a checkpoint but no facts');
    else report.info('keys_stream', `${stream} holds no facts yet: nothing extends the trusted verdict keys`);
    return;
  }
  if (!h.checkpoint) {
    report.fail('keys_stream', `the key history has ${facts.length} facts but no checkpoint: nothing shows the ledger holds them`);
    return;
  }
  const checkpoint = verifyCheckpoint(h.checkpoint, ledgerKeys, { streamId: stream, treeSize: facts.length });
  report.include('keys_stream.checkpoint', checkpoint);
  if (!checkpoint.valid) return;

  // The facts, re-hashed from the genesis value, must be the leaves of exactly the signed tree: none
  // changed, added or left out before the checkpoint.
  const tree = new RootBuilder();
  let prev = GENESIS_PREV_HASH;
  for (const [i, f] of facts.entries()) {
    let hash: string;
    try {
      hash = ledgerFactHash(f, { stream_id: stream, tenant_id: tenantId }, prev);
    } catch (err) {
      report.fail('keys_stream', `fact ${show(f?.fact_id)} (position ${i + 1}) cannot be hashed: ${(err as Error).message}`);
      return;
    }
    for (const [member, expected] of [
      ['fact_hash', hash],
      ['prev_hash', prev],
      ['stream_id', stream],
      ['tenant_id', tenantId],
      ['sequence', i + 1],
    ] as const) {
      if (member in f && f[member] !== expected) {
        report.fail(
          'keys_stream',
          `fact ${show(f.fact_id)} (position ${i + 1}): ${member} is ${show(f[member])}, expected ${show(expected)}`,
        );
        return;
      }
    }
    tree.add(factLeaf(hash));
    prev = hash;
  }
  const root = toDigest(tree.root());
  const rootHash = (h.checkpoint as LedgerCheckpoint).root_hash;
  if (
    !report.expect(
      'keys_stream',
      root === rootHash,
      `the ${facts.length} facts of ${stream} make the tree whose root the checkpoint signs`,
      `the ${facts.length} facts given make the root ${root}, not the checkpoint's ${rootHash}: a fact was changed, added or left out`,
    )
  ) {
    return;
  }
  for (const f of facts) applyKeyFact(report, tenantId, tenant, f, added);
}

function keyFactProblem(tenantId: string, p: Rec): string | null {
  const jwk = p.public_jwk as Rec | undefined;
  if (typeof p.kid !== 'string' || !p.kid.startsWith(`${tenantId}:`)) return `kid ${show(p.kid)} is not a key of tenant ${tenantId}`;
  if (!jwk || jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string')
    return 'public_jwk is not an EC P-256 JWK';
  if (!isIso(p.not_before)) return 'not_before is not an ISO 8601 instant';
  if (!['first', 'scheduled', 'emergency'].includes(p.mode as string)) return `mode ${show(p.mode)} is not first, scheduled or emergency`;
  if (!Array.isArray(p.retired) || p.retired.some((r: Rec) => typeof r?.kid !== 'string' || !isIso(r.not_after)))
    return 'retired must list {kid, not_after}';
  return null;
}

function applyKeyFact(report: ReportBuilder, tenantId: string, tenant: Map<string, VerificationKey>, f: Rec, added: string[]): void {
  const p = (f.custom_payload ?? {}) as Rec;
  const name = `keys_stream.${typeof p.kid === 'string' ? p.kid : String(f.fact_id)}`;
  if (f.actor !== VERDICT_SEAL_ACTOR) {
    report.fail(name, `fact ${String(f.fact_id)} was sealed by ${show(f.actor)}, not ${VERDICT_SEAL_ACTOR}`);
    return;
  }
  // The ledger's own record of who sealed it (covered by fact_hash): only the services seal key changes.
  if (f.sealed_by !== undefined && f.sealed_by !== null && f.sealed_by !== SERVICE_SEALER) {
    report.fail(name, `fact ${String(f.fact_id)} was sealed by principal ${show(f.sealed_by)}, not by a service (${SERVICE_SEALER})`);
    return;
  }
  const problem = keyFactProblem(tenantId, p);
  if (problem) {
    report.fail(name, `fact ${String(f.fact_id)} is not a key change: ${problem}`);
    return;
  }
  const kid = p.kid as string;
  const jwk = p.public_jwk as { x: string; y: string };
  const known = tenant.get(kid);
  if (known && (known.x !== jwk.x || known.y !== jwk.y)) {
    report.fail(name, `the keys stream gives ${kid} another public key than the trusted ${kid}`);
    return;
  }
  if (!known) {
    tenant.set(kid, {
      kid,
      kty: 'EC',
      crv: 'P-256',
      x: jwk.x,
      y: jwk.y,
      alg: 'ES256',
      use: 'sig',
      not_before: p.not_before as string,
      not_after: null,
    });
    added.push(kid);
  }
  const retired = p.retired as { kid: string; not_after: string }[];
  for (const r of retired) narrow(tenant.get(r.kid), r.not_after);
  const closes = retired.length ? `; retires ${retired.map((r) => `${r.kid} at ${r.not_after}`).join(', ')}` : '';
  report.pass(
    name,
    `verdict key ${kid} ${known ? 'already trusted' : 'accepted'}: sealed in the keys stream (${String(p.mode)}, valid from ${String(p.not_before)})${closes}`,
  );
}
