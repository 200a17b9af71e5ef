import { execFile } from 'node:child_process';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import { createVerdictTenant, expectConforms, registryApi, verdictApi, type VerdictTenant } from './verdict-harness';
import { startStack, type Stack } from './stack';
import { eventually } from '@arbiter/testing';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

/**
 * RFC 8785 written out here on purpose: the record must recompute to its normative_hash with a
 * canonicaliser that shares nothing with the service's (@arbiter/canonical). Keys sort by UTF-16
 * code units (Array.prototype.sort's default), numbers and strings take their ECMAScript JSON form.
 */
function rfc8785(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(rfc8785).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${rfc8785(obj[k])}`)
    .join(',')}}`;
}
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

describe('consultations, rule versions and offline verification', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let other: VerdictTenant;
  let scopeId: string;
  let rule: { id: string; current_version_id: string };

  const request = {
    action: 'payments.transfer',
    resource: 'acct:eu/9',
    scope: { region: 'eu' },
    parameters: { transfer: { amount: 12.5, note: 'é😀 "quoted"', tags: ['a', 'b'] }, zeta: 1, alpha: -0.000001 },
  };

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'cns-a');
    other = await createVerdictTenant(stack, 'cns-b');
    const reg = registryApi(stack, t.adminKey);
    scopeId = await reg.scope('eu', { region: 'eu' });
    rule = await reg.rule(scopeId, {
      directive: 'Small EU transfers are fine',
      severity: 'ALLOW',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'transfer.amount', op: 'lt', value: 100 }],
    });
  });
  afterAll(() => stack.stop());

  const agent = () => verdictApi(stack, t.agent.key, t.id);

  it('reads a record back that recomputes to its normative_hash and whose signed_verdict verifies against the JWKS key of signing_kid', async () => {
    const checked = await agent()
      .check({
        ...request,
        context: {
          'kyc.level': { value: null, source: 'crm', verification_status: 'verified', confidence: 0.5, as_of: '2026-01-01T00:00:00Z' },
        },
      })
      .expect(200);
    const res = await agent().consultation(checked.body.consultation_id).expect(200);
    expectConforms(res, 'get', '/{tenant_id}/v1/consultations/{consultation_id}');
    const record = res.body;
    for (const field of [
      'id',
      'tenant_id',
      'caller_principal_id',
      'on_behalf_of',
      'on_behalf_of_authenticated',
      'requested_at',
      'action',
      'resource',
      'scope_used',
      'parameters',
      'context_hash',
      'context_snapshot',
      'cited_entry_ids',
      'cited_rule_version_ids',
      'dominating_rule_id',
      'precedence_trace',
      'resolved_target_ids',
      'verdict',
      'signed_verdict',
      'signing_kid',
      'signing_epoch',
      'verdict_ttl_seconds',
      'expired_at',
      'required_context_history',
      'normative_hash',
    ]) {
      expect(record).toHaveProperty(field);
    }
    expect(record).toMatchObject({
      id: checked.body.consultation_id,
      tenant_id: t.id,
      caller_principal_id: t.agent.id,
      scope_used: request.scope,
      parameters: request.parameters,
      cited_entry_ids: [rule.id],
      cited_rule_version_ids: [rule.current_version_id],
      dominating_rule_id: rule.id,
      verdict: 'allowed',
      signing_kid: `${t.id}:${new Date().getUTCFullYear()}`,
      signing_epoch: String(new Date().getUTCFullYear()),
      required_context_history: [],
    });

    // normative_hash: the whole record except normative_hash and signed_verdict.
    const { normative_hash, signed_verdict, ...rest } = record;
    expect(sha256(rfc8785(rest))).toBe(normative_hash);
    // context_hash: {action, resource, scope, parameters, context}.
    expect(
      sha256(
        rfc8785({
          action: request.action,
          resource: request.resource,
          scope: request.scope,
          parameters: request.parameters,
          context: record.context_snapshot,
        }),
      ),
    ).toBe(record.context_hash);

    // signed_verdict: ES256 with the JWKS key named by signing_kid (= the JWS header kid).
    const jwks = await verdictApi(stack, undefined, t.id).get(`/v1/tenants/${t.slug}/jwks`).expect(200);
    const [h, p, s] = signed_verdict.split('.');
    const header = JSON.parse(Buffer.from(h, 'base64url').toString());
    expect(header).toEqual({ alg: 'ES256', kid: record.signing_kid, typ: 'JWT' });
    const jwk = jwks.body.keys.find((k: { kid: string }) => k.kid === record.signing_kid);
    const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'))).toBe(true);
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const iat = Math.floor(Date.parse(record.requested_at) / 1000);
    expect(claims).toEqual({
      iss: 'arbiter-verdict',
      sub: t.agent.id,
      iat,
      exp: iat + 300,
      jti: record.id,
      tenant_id: t.id,
      verdict: 'allowed',
      action: request.action,
      resource: request.resource,
      scope: request.scope,
      parameters: request.parameters,
      on_behalf_of: null,
      context_hash: record.context_hash,
      normative_hash,
      dominating_rule_id: rule.id,
      cited_rule_version_ids: [rule.current_version_id],
    });
    // A changed record no longer recomputes.
    expect(sha256(rfc8785({ ...rest, verdict: 'blocked' }))).not.toBe(normative_hash);
  });

  it('runs docs/examples/verify-verdict.mjs against a real verdict: valid as issued, invalid for another request', async () => {
    const checked = await agent().check(request).expect(200);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'verify-verdict-'));
    const requestFile = path.join(dir, 'request.json');
    await writeFile(requestFile, JSON.stringify({ ...request, tenant_id: t.id }));
    const script = path.join(ROOT, 'docs/examples/verify-verdict.mjs');
    const jwks = `${stack.verdict.url}/v1/tenants/${t.slug}/jwks`;
    const ok = await run(process.execPath, [script, '--jwks', jwks, '--jws', checked.body.signed_verdict, '--request', requestFile]);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      valid: true,
      verdict: 'allowed',
      consultation_id: checked.body.consultation_id,
      expired: false,
      problems: [],
    });
    await writeFile(requestFile, JSON.stringify({ ...request, parameters: { ...request.parameters, zeta: 2 } }));
    const bad = await run(process.execPath, [script, '--jwks', jwks, '--jws', checked.body.signed_verdict, '--request', requestFile]).then(
      () => null,
      (err: { code: number; stdout: string }) => err,
    );
    expect(bad?.code).toBe(1);
    expect(JSON.parse(bad!.stdout).problems).toEqual([
      expect.stringContaining('parameters differs'),
      expect.stringContaining('context_hash'),
    ]);
    const refused = (args: string[]) =>
      run(process.execPath, [script, '--jwks', jwks, ...args]).then(
        () => null,
        (err: { code: number; stdout: string }) => err,
      );
    // An authentic verdict nothing may run on exits 1 too: expired, or not one the enforcement point acts on.
    const later = await refused(['--jws', checked.body.signed_verdict, '--at', new Date(Date.now() + 301_000).toISOString()]);
    expect([later?.code, JSON.parse(later!.stdout)]).toEqual([1, expect.objectContaining({ valid: true, expired: true, acts: false })]);
    const reg = registryApi(stack, t.adminKey);
    await reg.rule(await reg.scope('verify-verdict'), {
      directive: 'no deletes',
      severity: 'MANDATORY',
      applies_to: { actions: ['files.delete'] },
    });
    const blocked = await eventually('the new rule to block', async () => {
      const res = await agent().check({ action: 'files.delete', resource: 'file:1', scope: {} }).expect(200);
      return res.body.verdict === 'blocked' ? res : undefined;
    });
    const onBlocked = await refused(['--jws', blocked.body.signed_verdict]);
    expect([onBlocked?.code, JSON.parse(onBlocked!.stdout)]).toEqual([
      1,
      expect.objectContaining({ valid: true, verdict: 'blocked', expired: false, acts: false }),
    ]);
    expect(JSON.parse(ok.stdout).acts).toBe(true);
    // One verdict has one spelling: characters base64url does not have are refused, not skipped.
    const jws = checked.body.signed_verdict as string;
    for (const respelled of [`${jws}~~`, `${jws}=`, jws.replace(/-/g, '+').replace(/_/g, '/')].filter((x) => x !== jws)) {
      const res = await refused(['--jws', respelled]);
      expect([res?.code, JSON.parse(res!.stdout)]).toEqual([1, expect.objectContaining({ valid: false, problems: ['not base64url'] })]);
    }
  });

  it("answers 404 consultation_not_found for an unknown id and 403 cross_tenant_forbidden for another tenant's", async () => {
    const missing = await agent().consultation('cns-000000000000000000000000').expect(404);
    expect(missing.body.code).toBe('consultation_not_found');
    // An id no service could have made is echoed cut to its first 64 characters and its length.
    const long = `cns-${'0'.repeat(4996)}`;
    const cut = await agent().consultation(long).expect(404);
    expect(cut.body).toMatchObject({
      code: 'consultation_not_found',
      message: `Consultation ${long.slice(0, 64)}… (5000 characters) does not exist in this tenant`,
      details: { consultation_id: `${long.slice(0, 64)}… (5000 characters)` },
    });
    const theirs = await verdictApi(stack, other.agent.key, other.id).check({ action: 'x', resource: 'y', scope: {} }).expect(200);
    const res = await agent().consultation(theirs.body.consultation_id).expect(403);
    expect(res.body.code).toBe('cross_tenant_forbidden');
    const viaPath = await verdictApi(stack, t.agent.key, other.id).consultation(theirs.body.consultation_id).expect(403);
    expect(viaPath.body.code).toBe('cross_tenant_forbidden');
    await verdictApi(stack, undefined, t.id).consultation(theirs.body.consultation_id).expect(401);
  });

  it('lists with every filter, limit and cursor', async () => {
    const tenant = await createVerdictTenant(stack, 'cns-list');
    const reg = registryApi(stack, tenant.adminKey);
    const scope = await reg.scope('all');
    const block = await reg.rule(scope, { directive: 'no deletes', severity: 'MANDATORY', applies_to: { actions: ['files.delete'] } });
    const second = await createPrincipalWithKey(stack.registry, tenant.adminKey, { permissions: ['check'] });
    const a = verdictApi(stack, tenant.agent.key, tenant.id);
    const b = verdictApi(stack, second.key, tenant.id);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await a.check({ action: 'files.read', resource: `f${i}`, scope: {} }).expect(200)).body.consultation_id);
    const between = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < 2; i++)
      ids.push((await b.check({ action: 'files.delete', resource: `f${i}`, scope: {} }).expect(200)).body.consultation_id);
    for (let i = 0; i < 51; i++)
      ids.push((await a.check({ action: 'files.list', resource: 'dir', scope: {} }).expect(200)).body.consultation_id);

    const page = await a.consultations().expect(200);
    expectConforms(page, 'get', '/{tenant_id}/v1/consultations');
    expect(page.body.items).toHaveLength(50); // default limit
    expect(page.body.items[0].id).toBe(ids[ids.length - 1]); // newest first
    expect(page.body.next_cursor).toEqual(expect.any(String));

    const idsOf = async (query: Record<string, string | number>) =>
      (await a.consultations(query).expect(200)).body.items.map((r: { id: string }) => r.id);
    expect(await idsOf({ actor: second.principalId })).toEqual([ids[4], ids[3]]);
    expect(await idsOf({ action: 'files.read' })).toEqual([ids[2], ids[1], ids[0]]);
    expect(await idsOf({ verdict: 'blocked' })).toEqual([ids[4], ids[3]]);
    expect(await idsOf({ dominating_rule_id: block.id })).toEqual([ids[4], ids[3]]);
    expect(await idsOf({ until: between })).toEqual([ids[2], ids[1], ids[0]]);
    expect((await idsOf({ since: between, limit: 1000 })).length).toBe(53);
    const today = new Date().toISOString().slice(0, 10);
    expect((await idsOf({ since: today, until: today, limit: 1000 })).length).toBe(56);
    expect(await idsOf({ until: '2000-01-01' })).toEqual([]);

    // Walk every page with limit 7: each record exactly once, newest first.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { items: Array<{ id: string }>; next_cursor: string | null } } = await a
        .consultations({ limit: 7, ...(cursor ? { cursor } : {}) })
        .expect(200);
      walked.push(...res.body.items.map((r) => r.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(walked).toEqual([...ids].reverse());

    const bad: Array<Record<string, string | number>> = [
      { limit: 1001 },
      { limit: 0 },
      { limit: 'ten' },
      { since: 'yesterday' },
      { since: '2026-02-01', until: '2026-01-01' },
      { since: '2026-02-30' },
      { until: '2026-06-31T00:00:00Z' },
    ];
    for (const query of bad) {
      const res = await a.consultations(query).expect(400);
      expect(res.body.code).toBe('invalid_query');
    }
    expect((await a.consultations({ cursor: 'not-a-cursor' }).expect(400)).body.code).toBe('invalid_cursor');
    expect((await a.consultations({ limit: 1000 }).expect(200)).body.next_cursor).toBeNull();
  });

  it('answers 400 invalid_cursor to a cursor holding a NUL or a day the month lacks, on consultations and erasures alike', async () => {
    const cursorOf = (position: unknown) => Buffer.from(JSON.stringify(position)).toString('base64url');
    const refused = [
      cursorOf({ t: '2026-11-27T17:27:33Z', i: '\u0000' }),
      cursorOf({ t: '2026-11-27T17:27:33Z', i: 'cns-\u0000' }),
      cursorOf({ t: '2026-02-30T00:00:00Z', i: 'cns-1' }),
    ];
    const admin = verdictApi(stack, t.adminKey, t.id);
    for (const cursor of refused) {
      expect((await agent().consultations({ cursor }).expect(400)).body.code).toBe('invalid_cursor');
      expect((await admin.get(`/${t.id}/v1/erasures?cursor=${cursor}`).expect(400)).body.code).toBe('invalid_cursor');
    }
    // A well-formed position pages on: a real day, and an id as the lists make them.
    const position = cursorOf({ t: '2028-02-29T23:59:59.999Z', i: 'cns-ffffffffffffffffffffffff' });
    expect((await agent().consultations({ cursor: position }).expect(200)).body.items).toEqual(expect.any(Array));
    expect((await admin.get(`/${t.id}/v1/erasures?cursor=${position}`).expect(200)).body.items).toEqual([]);
  });

  it("serves a rule version as it was, after the rule changed and after it was archived; never another tenant's", async () => {
    const reg = registryApi(stack, t.adminKey);
    const original = await reg.rule(scopeId, {
      directive: 'Version one',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['docs.publish'] },
      conditions: [{ field: 'doc.pages', op: 'gt', value: 10 }],
      deciders: ['role-cfo'],
    });
    await reg.updateRule(scopeId, original.id, {
      directive: 'Version two',
      severity: 'MANDATORY',
      applies_to: { actions: ['docs.publish'] },
    });
    await reg.archiveRule(scopeId, original.id);
    const res = await agent().ruleVersion(original.current_version_id).expect(200);
    expectConforms(res, 'get', '/v1/rule-versions/{rule_version_id}');
    expect(res.body).toMatchObject({
      id: original.current_version_id,
      rule_id: original.id,
      tenant_id: t.id,
      scope_id: scopeId,
      version: 1,
      statement: 'Version one',
      severity: 'REQUIRES_APPROVAL',
      conditions: [{ field: 'doc.pages', op: 'gt', value: 10 }],
      deciders: ['role-cfo'],
      status: 'superseded',
      rule_status: 'archived',
    });
    const notFound = await verdictApi(stack, other.agent.key, other.id).ruleVersion(original.current_version_id).expect(404);
    expect(notFound.body.code).toBe('rule_version_not_found');
    await agent().ruleVersion('rv-nope').expect(404);
    await verdictApi(stack, undefined, t.id).ruleVersion(original.current_version_id).expect(401);
  });
});
