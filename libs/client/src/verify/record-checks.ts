// The checks of a consultation record that need no cryptography (docs/verdicts.md "Hashes and the signed verdict"):
// what its two hashes are computed over, and whether a verified verdict's claims are the record's. Pure, shared by the
// SDK's verifyConsultation (node:crypto) and the console's browser verifier (WebCrypto), so both report alike.
import { canonicalJson } from '@arbiter/canonical/json';
import type { ReportBuilder } from './report';

type Rec = Record<string, unknown>;

/** Claims of the signed verdict and the record member each must equal (docs/verdicts.md, the claim table). */
export const CLAIM_BINDINGS: readonly (readonly [claim: string, member: string])[] = [
  ['jti', 'id'],
  ['tenant_id', 'tenant_id'],
  ['sub', 'caller_principal_id'],
  ['verdict', 'verdict'],
  ['action', 'action'],
  ['resource', 'resource'],
  ['scope', 'scope_used'],
  ['parameters', 'parameters'],
  ['on_behalf_of', 'on_behalf_of'],
  ['context_hash', 'context_hash'],
  ['normative_hash', 'normative_hash'],
  ['dominating_rule_id', 'dominating_rule_id'],
  ['cited_rule_version_ids', 'cited_rule_version_ids'],
];

/**
 * What a read answers beside the record, outside what its hashes cover (docs/verdicts.md "Sensitive fields"): left
 * out before hashing.
 */
export const BESIDE_THE_RECORD: readonly string[] = ['sensitive_values'];

/** What normative_hash is computed over: every member of the record but normative_hash and signed_verdict (and what is beside it). */
export function normativeHashInput(record: Rec): Rec {
  const rest: Rec = { ...record };
  delete rest.normative_hash;
  delete rest.signed_verdict;
  // `archived: true` is what a read of an archived consultation adds beside the record (docs/verdicts.md
  // "Consultations"): never hashed. Any other value stays in, so a record that hashed such a member still fails.
  if (rest.archived === true) delete rest.archived;
  for (const member of BESIDE_THE_RECORD) delete rest[member];
  return rest;
}

/** What context_hash is computed over: the record's evaluated inputs, as the gateway hashed them. */
export function contextHashInput(record: Rec): Rec {
  return {
    action: record.action,
    resource: record.resource,
    scope: record.scope_used ?? {},
    parameters: record.parameters ?? {},
    context: record.context_snapshot ?? {},
  };
}

/** Whether `v` is a commitment a record holds in a sensitive value's place: `{"$commit": "hmac-sha256:<hex>"}`. */
export function isCommitment(v: unknown): boolean {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  const c = (v as Rec).$commit;
  return keys.length === 1 && typeof c === 'string' && c.startsWith('hmac-sha256:');
}

/**
 * Where a record holds commitments instead of sensitive values (docs/verdicts.md "Sensitive fields"): `parameters.<path>`,
 * `context.<fact name>` (the Fact's value), `context.<fact name>.value.<path>` (inside it), in record order.
 */
export function commitmentsOf(record: Rec): string[] {
  const out: string[] = [];
  const walk = (v: unknown, at: string) => {
    if (isCommitment(v)) out.push(at);
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}.${i}`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`);
  };
  walk(record.parameters, 'parameters');
  const context = record.context_snapshot;
  if (context && typeof context === 'object' && !Array.isArray(context))
    for (const [name, fact] of Object.entries(context as Rec)) {
      const value = fact && typeof fact === 'object' ? (fact as Rec).value : undefined;
      if (isCommitment(value)) out.push(`context.${name}`);
      else walk(value, `context.${name}.value`);
    }
  return out;
}

/**
 * The state of each sensitive value beside the record, as a read answers it (`sensitive_values`): `erased` once its
 * subject's key is gone, `unreadable` when the gateway could not open it under a key that exists (an integrity
 * failure), `readable` while a read can still decrypt it, `committed` when the record was read without the values (an
 * evidence pack, a `check` caller). Never the value itself.
 */
export function sensitiveStates(record: Rec): Array<{ path: string; state: 'erased' | 'unreadable' | 'readable' | 'committed' }> {
  const values = record.sensitive_values && typeof record.sensitive_values === 'object' ? (record.sensitive_values as Rec) : null;
  return commitmentsOf(record).map((path) => {
    if (!values || !Object.prototype.hasOwnProperty.call(values, path)) return { path, state: 'committed' };
    const value = values[path];
    return { path, state: value === 'erased' || value === 'unreadable' ? value : 'readable' };
  });
}

/**
 * `sensitive_fields` (information): the commitments the hashes cover, and the values' states as the record's
 * `sensitive_values` gives them. That member sits beside the record, outside the hashes: its states are what the
 * read (or whoever handed over the file) says, never verified, and the message says so.
 */
export function reportSensitiveValues(report: ReportBuilder, record: Rec): void {
  const states = sensitiveStates(record);
  if (states.length === 0) return;
  const stated = states.some((s) => s.state !== 'committed');
  report.info(
    'sensitive_fields',
    `${states.length} sensitive value(s) recorded as commitments, covered by the hashes and the signature: ${states
      .map((s) => `${s.path} ${s.state}`)
      .join(', ')}${stated ? ' (erased, unreadable and readable as sensitive_values states them: outside the hashes, not verified)' : ''}`,
  );
}

export const sameJson = (a: unknown, b: unknown): boolean => {
  try {
    return canonicalJson((a ?? null) as never) === canonicalJson((b ?? null) as never);
  } catch {
    return false;
  }
};

export const showValue = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? 'absent' : s.length > 120 ? `${s.slice(0, 117)}...` : s;
};

/** `shape`: the members every check below reads; true when they are there. */
export function reportRecordShape(report: ReportBuilder, record: Rec): boolean {
  for (const member of ['normative_hash', 'signed_verdict', 'context_hash']) {
    if (typeof record[member] !== 'string') report.fail('shape', `the record has no ${member}`);
  }
  return !report.failed;
}

/**
 * `normative_hash` and `context_hash`, given what each recomputes to (an Error when the input has no RFC 8785 form):
 * the caller hashes, with node:crypto or WebCrypto.
 */
export function reportRecordHashes(report: ReportBuilder, r: Rec, normative: string | Error, context: string | Error): void {
  if (normative instanceof Error) report.fail('normative_hash', `the record has no canonical JSON form: ${normative.message}`);
  else
    report.expect(
      'normative_hash',
      normative === r.normative_hash,
      `normative_hash ${String(r.normative_hash)} recomputed from the record`,
      `normative_hash does not match the record: recomputed ${normative}, stored ${String(r.normative_hash)} — a member of the record was changed after the decision`,
    );
  if (context instanceof Error) report.fail('context_hash', `the evaluated inputs have no canonical JSON form: ${context.message}`);
  else
    report.expect(
      'context_hash',
      context === r.context_hash,
      'context_hash recomputed from action, resource, scope_used, parameters and context_snapshot',
      `context_hash does not match the evaluated inputs: recomputed ${context}, stored ${String(r.context_hash)} — action, resource, scope_used, parameters or context_snapshot was changed`,
    );
}

/** `signing_kid`: the JWS header's kid is the record's. */
export function reportSigningKid(report: ReportBuilder, header: Rec | undefined, record: Rec): void {
  if (!header || record.signing_kid === undefined) return;
  report.expect(
    'signing_kid',
    header.kid === record.signing_kid,
    `signed with ${String(header.kid)}, the record's signing_kid`,
    `the JWS header kid ${showValue(header.kid)} is not the record's signing_kid ${showValue(record.signing_kid)}`,
  );
}

/** `signature` passed and `expiry` (a passed exp is reported, not failed: the record stays evidence). */
export function reportVerifiedSignature(
  report: ReportBuilder,
  v: { kid: string; key: { not_before: string; not_after?: string | null }; expired: boolean; expiresAt: Date },
): void {
  report.pass(
    'signature',
    `ES256 signature valid with key ${v.kid} (valid from ${v.key.not_before}${v.key.not_after ? ` to ${v.key.not_after}` : ''})`,
  );
  report.info(
    'expiry',
    v.expired
      ? `the verdict expired at ${v.expiresAt.toISOString()}: it no longer authorises the action, and stays evidence of the decision`
      : `the verdict may be acted on until ${v.expiresAt.toISOString()}`,
  );
}

/** `claims` / `claims.<name>`: the verified verdict's claims are the record's. */
export function reportClaims(report: ReportBuilder, claims: Rec, r: Rec): void {
  const mismatched: string[] = [];
  for (const [claim, member] of CLAIM_BINDINGS) {
    if (!(member in r) && !(claim in claims)) continue;
    if (!sameJson(claims[claim], r[member])) {
      mismatched.push(claim);
      report.fail(
        `claims.${claim}`,
        `the signed ${claim} is ${showValue(claims[claim])}, the record's ${member} is ${showValue(r[member])}`,
      );
    }
  }
  if (typeof r.requested_at === 'string' && Math.floor(Date.parse(r.requested_at) / 1000) !== claims.iat) {
    mismatched.push('iat');
    report.fail('claims.iat', `the signed iat ${showValue(claims.iat)} is not the record's requested_at ${r.requested_at}`);
  }
  if (typeof r.verdict_ttl_seconds === 'number' && typeof claims.iat === 'number' && claims.exp !== claims.iat + r.verdict_ttl_seconds) {
    mismatched.push('exp');
    report.fail(
      'claims.exp',
      `the signed exp ${showValue(claims.exp)} is not iat + verdict_ttl_seconds (${claims.iat} + ${r.verdict_ttl_seconds})`,
    );
  }
  if (!mismatched.length)
    report.pass('claims', "the signed claims (verdict, action, resource, scope, parameters, hashes, cited rule versions) are the record's");
}
