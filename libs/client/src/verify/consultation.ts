// Checks a consultation record read back from the verdict service (or from an evidence pack) without
// trusting the service (docs/verdicts.md "Hashes and the signed verdict"):
// - normative_hash = sha256 over RFC 8785 of the record without normative_hash and signed_verdict;
// - context_hash = sha256 over RFC 8785 of {action, resource, scope, parameters, context} as evaluated;
// - signed_verdict verifies (ES256, the kid's key, iat in its window) and its claims are the record's.
// A passed exp is reported, not failed: the record stays evidence after the right to act has ended.
import { sha256Digest } from '@arbiter/canonical';
import { VerdictVerificationError } from '../errors';
import type { JwksSource } from '../jwks';
import type { KeySet } from '../types';
import { decodeVerdictUnverified, verifyVerdict } from '../verify-verdict';
import {
  contextHashInput,
  normativeHashInput,
  reportClaims,
  reportRecordHashes,
  reportRecordShape,
  reportSensitiveValues,
  reportSigningKid,
  reportVerifiedSignature,
} from './record-checks';
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
  return sha256Digest(normativeHashInput(record));
}

/** context_hash as the gateway computes it from the record's evaluated inputs. */
export function contextHashOf(record: Rec): string {
  return sha256Digest(contextHashInput(record));
}

export async function verifyConsultation(record: unknown, opts: VerifyConsultationOptions): Promise<VerificationReport> {
  const r = (record ?? {}) as Rec;
  const report = new ReportBuilder(`consultation ${typeof r.id === 'string' ? r.id : '(no id)'}`);
  if (!record || typeof record !== 'object' || Array.isArray(record) || typeof r.id !== 'string') {
    return report.fail('shape', 'not a consultation record (a JSON object with id, normative_hash and signed_verdict)').build();
  }
  if (!reportRecordShape(report, r)) return report.build();

  // 1, 2. normative_hash (the frozen state) and context_hash (what was evaluated), recomputed.
  const attempt = (f: () => string) => {
    try {
      return f();
    } catch (err) {
      return err as Error;
    }
  };
  reportRecordHashes(
    report,
    r,
    attempt(() => normativeHashOf(r)),
    attempt(() => contextHashOf(r)),
  );
  reportSensitiveValues(report, r);

  // 3. The signature, with the tenant's key named by the kid.
  const jws = r.signed_verdict as string;
  const header = decodeVerdictUnverified(jws)?.header;
  reportSigningKid(report, header, r);
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
    reportVerifiedSignature(report, verified);
  } catch (err) {
    if (!(err instanceof VerdictVerificationError)) throw err;
    report.fail('signature', `${err.code}: ${err.message}`);
    return report.build();
  }

  // 4. The signed claims are the record's.
  reportClaims(report, claims, r);
  return report.build();
}
