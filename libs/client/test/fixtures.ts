// Test material made without the SDK's own code paths: keys and ES256 signatures with node:crypto (the
// SDK verifies with jose), RFC 8785 with a hand-written serialiser (the SDK uses @arbiter/canonical),
// so every hash and signature a test checks is made by another implementation than the one checking.
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { VerificationKey } from '../src/types';

/** RFC 8785 for JSON.parse-able values: sorted member names (UTF-16 order), ECMAScript number and string forms. */
export function jcs(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string' || typeof value === 'number') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const names = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${names.map((k) => `${JSON.stringify(k)}:${jcs(obj[k])}`).join(',')}}`;
}

export const digest = (value: unknown) => `sha256:${createHash('sha256').update(jcs(value), 'utf8').digest('hex')}`;

export interface TestKey {
  jwk: VerificationKey;
  privateKey: KeyObject;
}

export function makeKey(kid: string, window: { notBefore?: string; notAfter?: string | null } = {}): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pub = publicKey.export({ format: 'jwk' });
  return {
    privateKey,
    jwk: {
      kid,
      kty: 'EC',
      crv: 'P-256',
      x: pub.x as string,
      y: pub.y as string,
      alg: 'ES256',
      use: 'sig',
      not_before: window.notBefore ?? '2020-01-01T00:00:00.000Z',
      not_after: window.notAfter ?? null,
    },
  };
}

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');

/** A compact JWS signed with node:crypto (r||s, RFC 7518 section 3.4). */
export function signJws(payload: object, key: TestKey, header: Record<string, unknown> = {}): string {
  const h = b64url(JSON.stringify({ alg: 'ES256', kid: key.jwk.kid, typ: 'JWT', ...header }));
  const p = b64url(JSON.stringify(payload));
  const s = sign('sha256', Buffer.from(`${h}.${p}`), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${h}.${p}.${b64url(s)}`;
}

export const TENANT = 'tnt-0123456789abcdef01234567';

/** Claims as the gateway signs them (docs/verdicts.md), overridable. */
export function verdictClaims(overrides: Record<string, unknown> = {}, now = Date.now()): Record<string, unknown> {
  const iat = Math.floor(now / 1000);
  return {
    iss: 'arbiter-verdict',
    sub: 'agn-1',
    iat,
    exp: iat + 300,
    jti: 'cns-1',
    tenant_id: TENANT,
    verdict: 'allowed',
    action: 'payments.transfer',
    resource: 'acct:eu/1',
    scope: { region: 'eu', env: 'prod' },
    parameters: { transfer: { amount: 12.5 } },
    on_behalf_of: null,
    context_hash: `sha256:${'1'.repeat(64)}`,
    normative_hash: `sha256:${'2'.repeat(64)}`,
    dominating_rule_id: null,
    cited_rule_version_ids: [],
    ...overrides,
  };
}

/** A consultation record with its hashes and signed verdict computed as docs/verdicts.md "Hashes and the signed verdict" says. */
export function makeConsultation(key: TestKey, overrides: Record<string, unknown> = {}, now = Date.now()): Record<string, unknown> {
  const requestedAt = new Date(now).toISOString();
  const record: Record<string, unknown> = {
    id: 'cns-0001',
    tenant_id: TENANT,
    operation: 'check',
    caller_principal_id: 'agn-1',
    on_behalf_of: null,
    on_behalf_of_authenticated: false,
    requested_at: requestedAt,
    action: 'payments.transfer',
    resource: 'acct:eu/1',
    scope_used: { region: 'eu' },
    parameters: { transfer: { amount: 25000 } },
    context_snapshot: {},
    cited_entry_ids: ['rul-large'],
    cited_rule_version_ids: ['rv-large-1'],
    dominating_rule_id: 'rul-large',
    precedence_trace: [
      {
        rule_id: 'rul-large',
        rule_version_id: 'rv-large-1',
        severity: 'approval',
        scope_match: 'exact',
        reason: 'fires',
        decided_by: 'only_candidate',
      },
    ],
    resolved_target_ids: ['tgt-1'],
    verdict: 'approval_required',
    triggers: [{ rule_id: 'rul-large', rule_version_id: 'rv-large-1', reason: 'Large transfers need approval' }],
    candidate_deciders: ['role-cfo'],
    applied_override_ids: [],
    signing_kid: key.jwk.kid,
    signing_epoch: key.jwk.kid.split(':')[1],
    verdict_ttl_seconds: 300,
    expired_at: new Date(Math.floor(now / 1000) * 1000 + 300_000).toISOString(),
    required_context_history: [],
    correlation: null,
    state_hash: `sha256:${'3'.repeat(64)}`,
    state_revision: 1,
    ...overrides,
  };
  record.context_hash = digest({
    action: record.action,
    resource: record.resource,
    scope: record.scope_used,
    parameters: record.parameters,
    context: record.context_snapshot,
  });
  record.normative_hash = digest(record);
  const iat = Math.floor(Date.parse(requestedAt) / 1000);
  record.signed_verdict = signJws(
    {
      iss: 'arbiter-verdict',
      sub: record.caller_principal_id,
      iat,
      exp: iat + (record.verdict_ttl_seconds as number),
      jti: record.id,
      tenant_id: record.tenant_id,
      verdict: record.verdict,
      action: record.action,
      resource: record.resource,
      scope: record.scope_used,
      parameters: record.parameters,
      on_behalf_of: record.on_behalf_of,
      context_hash: record.context_hash,
      normative_hash: record.normative_hash,
      dominating_rule_id: record.dominating_rule_id,
      cited_rule_version_ids: record.cited_rule_version_ids,
    },
    key,
  );
  return record;
}
