// Checks a consultation record read back from the verdict service (or from an evidence pack) without
// trusting the service (docs/verdicts.md "Hashes and the signed verdict"):
// - normative_hash = sha256 over RFC 8785 of the record without normative_hash and signed_verdict;
// - context_hash = sha256 over RFC 8785 of {action, resource, scope, parameters, context} as evaluated;
// - signed_verdict verifies (ES256, the kid's key, iat in its window) and its claims are the record's.
// A passed exp is reported, not failed: the record stays evidence after the right to act has ended.
import { canonicalJson, sha256Digest } from '@arbiter/canonical';
import { VerdictVerificationError } from '../errors';
import type { JwksSource } from '../jwks';
import type { KeySet } from '../types';
import { decodeVerdictUnverified, verifyVerdict } from '../verify-verdict';
import { CLAIM_BINDINGS } from './claim-bindings';
import { ReportBuilder, type VerificationReport } from './report';

type Rec = Record<string, unknown>;

export interface VerifyConsultationOptions {
  jwks?: KeySet | JwksSource;
  jwksUrl?: string;
  fetch?: typeof fetch;
  /** The instant to report expiry against (default now). */
  now?: Date | number;
}

/** The record's normative_hash input: every member but normative_hash and signed_verdict. */
export function normativeHashOf(record: Rec): string {
  const rest: Rec = { ...record };
  delete rest.normative_hash;
  delete rest.signed_verdict;
  return sha256Digest(rest);
}

/** context_hash as the gateway computes it from the record's evaluated inputs. */
export function contextHashOf(record: Rec): string {
  return sha256Digest({
    action: record.action,
    resource: record.resource,
    scope: record.scope_used ?? {},
    parameters: record.parameters ?? {},
    context: record.context_snapshot ?? {},
  });
}

const same = (a: unknown, b: unknown) => {
  try {
    return canonicalJson(a ?? null) === canonicalJson(b ?? null);
  } catch {
    return false;
  }
};
const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? 'absent' : s.length > 120 ? `${s.slice(0, 117)}...` : s;
};

export async function verifyConsultation(record: unknown, opts: VerifyConsultationOptions): Promise<VerificationReport> {
  const r = (record ?? {}) as Rec;
  const report = new ReportBuilder(`consultation ${typeof r.id === 'string' ? r.id : '(no id)'}`);
  if (!record || typeof record !== 'object' || Array.isArray(record) || typeof r.id !== 'string') {
    return report.fail('shape', 'not a consultation record (a JSON object with id, normative_hash and signed_verdict)').build();
  }
  for (const member of ['normative_hash', 'signed_verdict', 'context_hash']) {
    if (typeof r[member] !== 'string') report.fail('shape', `the record has no ${member}`);
  }
  if (report.failed) return report.build();

  // 1. normative_hash: the frozen state, recomputed.
  let recomputed: string | undefined;
  try {
    recomputed = normativeHashOf(r);
  } catch (err) {
    report.fail('normative_hash', `the record has no canonical JSON form: ${(err as Error).message}`);
  }
  if (recomputed) {
    report.expect(
      'normative_hash',
      recomputed === r.normative_hash,
      `normative_hash ${r.normative_hash} recomputed from the record`,
      `normative_hash does not match the record: recomputed ${recomputed}, stored ${r.normative_hash} — a member of the record was changed after the decision`,
    );
  }

  // 2. context_hash: what was evaluated.
  try {
    const ctx = contextHashOf(r);
    report.expect(
      'context_hash',
      ctx === r.context_hash,
      'context_hash recomputed from action, resource, scope_used, parameters and context_snapshot',
      `context_hash does not match the evaluated inputs: recomputed ${ctx}, stored ${r.context_hash} — action, resource, scope_used, parameters or context_snapshot was changed`,
    );
  } catch (err) {
    report.fail('context_hash', `the evaluated inputs have no canonical JSON form: ${(err as Error).message}`);
  }

  // 3. The signature, with the tenant's key named by the kid.
  const jws = r.signed_verdict as string;
  const header = decodeVerdictUnverified(jws)?.header;
  if (header && r.signing_kid !== undefined) {
    report.expect(
      'signing_kid',
      header.kid === r.signing_kid,
      `signed with ${String(header.kid)}, the record's signing_kid`,
      `the JWS header kid ${show(header.kid)} is not the record's signing_kid ${show(r.signing_kid)}`,
    );
  }
  let claims: Rec | undefined;
  try {
    const verified = await verifyVerdict(jws, {
      jwks: opts.jwks,
      jwksUrl: opts.jwksUrl,
      fetch: opts.fetch,
      allowExpired: true,
      now: opts.now,
    });
    claims = verified.claims;
    report.pass(
      'signature',
      `ES256 signature valid with key ${verified.kid} (valid from ${verified.key.not_before}${verified.key.not_after ? ` to ${verified.key.not_after}` : ''})`,
    );
    report.info(
      'expiry',
      verified.expired
        ? `the verdict expired at ${verified.expiresAt.toISOString()}: it no longer authorises the action, and stays evidence of the decision`
        : `the verdict may be acted on until ${verified.expiresAt.toISOString()}`,
    );
  } catch (err) {
    if (!(err instanceof VerdictVerificationError)) throw err;
    report.fail('signature', `${err.code}: ${err.message}`);
    return report.build();
  }

  // 4. The signed claims are the record's.
  const mismatched: string[] = [];
  for (const [claim, member] of CLAIM_BINDINGS) {
    if (!(member in r) && !(claim in claims)) continue;
    if (!same(claims[claim], r[member])) {
      mismatched.push(claim);
      report.fail(`claims.${claim}`, `the signed ${claim} is ${show(claims[claim])}, the record's ${member} is ${show(r[member])}`);
    }
  }
  if (typeof r.requested_at === 'string' && Math.floor(Date.parse(r.requested_at) / 1000) !== claims.iat) {
    mismatched.push('iat');
    report.fail('claims.iat', `the signed iat ${show(claims.iat)} is not the record's requested_at ${r.requested_at}`);
  }
  if (typeof r.verdict_ttl_seconds === 'number' && typeof claims.iat === 'number' && claims.exp !== claims.iat + r.verdict_ttl_seconds) {
    mismatched.push('exp');
    report.fail(
      'claims.exp',
      `the signed exp ${show(claims.exp)} is not iat + verdict_ttl_seconds (${claims.iat} + ${r.verdict_ttl_seconds})`,
    );
  }
  if (!mismatched.length)
    report.pass('claims', "the signed claims (verdict, action, resource, scope, parameters, hashes, cited rule versions) are the record's");
  return report.build();
}
