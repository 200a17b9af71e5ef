import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';
import { api, createScope, expectConforms, expireOverride, type Api } from './fixtures';

describe('registry compliance check', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;
  let scopeId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'compliance');
    admin = api(h, t.admin.key);
    scopeId = (await createScope(admin, 'ops', { region: 'eu' })).id;
    const add = async (key: string, kind: 'invariants' | 'rules', body: object) => {
      ids[key] = (await admin.post(`/api/v1/scopes/${scopeId}/${kind}`, body).expect(201)).body.id;
    };
    await add('friday', 'invariants', { constraint: 'Never deploy on Fridays', requires_approval: true });
    await add('gdpr', 'invariants', { constraint: 'Customer data stays in the EU' });
    await add('refunds', 'rules', { directive: 'Refunds above 500 need a manager', severity: 'REQUIRES_APPROVAL' });
    await add('transfers', 'rules', {
      directive: 'Money movements are screened',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.transfer*'], resources: ['account:*'] },
    });
    await add('hours', 'rules', { directive: 'Deploys are allowed during business hours', severity: 'ALLOW' });
    await add('bluegreen', 'rules', { directive: 'Prefer blue-green deploys', severity: 'ADVISORY' });
    const archived = (
      await admin.post(`/api/v1/scopes/${scopeId}/rules`, { directive: 'Deploy with a fax', severity: 'MANDATORY' }).expect(201)
    ).body.id;
    await admin.patch(`/api/v1/scopes/${scopeId}/rules/${archived}/archive`).expect(200);
    const revoked = (await admin.post(`/api/v1/scopes/${scopeId}/invariants`, { constraint: 'Deploy only on Mondays' }).expect(201)).body
      .id;
    await admin.delete(`/api/v1/scopes/${scopeId}/invariants/${revoked}`).expect(200);
  });
  afterAll(() => h.stop());

  const check = (body: object, a = admin) => a.post('/api/v1/check', { scope_id: scopeId, ...body });

  it('reports active entries sharing significant words with the intended action, most severe first', async () => {
    const res = await check({ intended_action: 'Deploying the billing service on Friday' }).expect(200);
    expectConforms(res, 'post', '/api/v1/check');
    expect(res.body).toEqual({
      scope_id: scopeId,
      conflicts: [
        {
          entry_id: ids.friday,
          entry_type: 'invariant',
          severity: 'MANDATORY',
          requires_approval: true,
          text: 'Never deploy on Fridays',
          rule_version_id: null,
          matched_by: 'text',
          matched_terms: ['deploy', 'friday'],
        },
        {
          entry_id: ids.bluegreen,
          entry_type: 'rule',
          severity: 'ADVISORY',
          requires_approval: false,
          text: 'Prefer blue-green deploys',
          rule_version_id: expect.stringMatching(/^rv-/),
          matched_by: 'text',
          matched_terms: ['deploy'],
        },
      ],
      overridden: [],
    });
  });

  it('never lists ALLOW rules, revoked invariants or archived rules', async () => {
    const res = await check({ intended_action: 'deploy during business hours with a fax on monday' }).expect(200);
    const listed = res.body.conflicts.map((c: { entry_id: string }) => c.entry_id);
    expect(listed).not.toContain(ids.hours);
    expect(listed).toEqual([ids.friday, ids.bluegreen]);
  });

  it('marks requires_approval for REQUIRES_APPROVAL rules', async () => {
    const res = await check({ intended_action: 'refund 700 euros' }).expect(200);
    expect(res.body.conflicts).toEqual([
      expect.objectContaining({ entry_id: ids.refunds, severity: 'REQUIRES_APPROVAL', requires_approval: true }),
    ]);
  });

  it('lets a named action decide for rules with applies_to, whatever the words', async () => {
    const hit = await check({
      intended_action: 'send money to a supplier',
      action: 'payments.transfer.sepa',
      resource: 'account:42',
    }).expect(200);
    expect(hit.body.conflicts).toEqual([expect.objectContaining({ entry_id: ids.transfers, matched_by: 'applies_to', matched_terms: [] })]);
    const miss = await check({ intended_action: 'money movements are screened', action: 'payments.refund' }).expect(200);
    expect(miss.body.conflicts.map((c: { entry_id: string }) => c.entry_id)).not.toContain(ids.transfers);
    const wrongResource = await check({ intended_action: 'x', action: 'payments.transfer', resource: 'ledger:1' }).expect(200);
    expect(wrongResource.body.conflicts).toEqual([]);
  });

  it('matches the words of the intended action against applies_to globs when no action is named', async () => {
    const res = await check({ intended_action: 'run payments.transfer for account:7 tonight' }).expect(200);
    expect(res.body.conflicts.map((c: { entry_id: string }) => c.entry_id)).toEqual([ids.transfers]);
  });

  it('moves entries suspended by an override in effect to overridden, and back when it expires or is revoked', async () => {
    const o = await admin
      .post(`/api/v1/scopes/${scopeId}/overrides`, {
        target_id: ids.friday,
        override_type: 'temporary',
        justification: 'Hotfix',
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      })
      .expect(201);
    const during = await check({ intended_action: 'deploy on friday' }).expect(200);
    expectConforms(during, 'post', '/api/v1/check');
    expect(during.body.conflicts.map((c: { entry_id: string }) => c.entry_id)).toEqual([ids.bluegreen]);
    expect(during.body.overridden).toEqual([
      expect.objectContaining({
        entry_id: ids.friday,
        entry_type: 'invariant',
        severity: 'MANDATORY',
        requires_approval: true,
        override_ids: [o.body.id],
      }),
    ]);

    await expireOverride(h, o.body.id);
    const after = await check({ intended_action: 'deploy on friday' }).expect(200);
    expect(after.body.overridden).toEqual([]);
    expect(after.body.conflicts.map((c: { entry_id: string }) => c.entry_id)).toEqual([ids.friday, ids.bluegreen]);

    const p = await admin
      .post(`/api/v1/scopes/${scopeId}/overrides`, { target_id: ids.friday, override_type: 'permanent', justification: 'j' })
      .expect(201);
    expect((await check({ intended_action: 'deploy on friday' }).expect(200)).body.overridden).toHaveLength(1);
    await admin.delete(`/api/v1/scopes/${scopeId}/overrides/${p.body.id}`).expect(200);
    expect((await check({ intended_action: 'deploy on friday' }).expect(200)).body.overridden).toEqual([]);
  });

  it("does not count an override with conditions: without the operation's context it may not hold (fail closed)", async () => {
    const o = await admin
      .post(`/api/v1/scopes/${scopeId}/overrides`, {
        target_id: ids.friday,
        override_type: 'conditional',
        justification: 'Small hotfixes',
        conditions: 'lines_changed < 10',
      })
      .expect(201);
    const res = await check({ intended_action: 'deploy on friday' }).expect(200);
    expect(res.body.overridden).toEqual([]);
    expect(res.body.conflicts.map((c: { entry_id: string }) => c.entry_id)).toContain(ids.friday);
    await admin.delete(`/api/v1/scopes/${scopeId}/overrides/${o.body.id}`).expect(200);
  });

  it('applies an override with applies_to_scope only to operations whose scope contains it', async () => {
    await admin
      .post(`/api/v1/scopes/${scopeId}/overrides`, {
        target_id: ids.bluegreen,
        override_type: 'permanent',
        justification: 'j',
        applies_to_scope: { team: 'sre' },
      })
      .expect(201);
    const plain = await check({ intended_action: 'deploy' }).expect(200);
    expect(plain.body.conflicts.map((c: { entry_id: string }) => c.entry_id)).toContain(ids.bluegreen);
    const sre = await check({ intended_action: 'deploy', scope: { team: 'sre' } }).expect(200);
    expect(sre.body.overridden.map((c: { entry_id: string }) => c.entry_id)).toEqual([ids.bluegreen]);
    await admin
      .post(`/api/v1/scopes/${scopeId}/overrides`, {
        target_id: ids.gdpr,
        override_type: 'permanent',
        justification: 'j',
        applies_to_scope: { region: 'us' },
      })
      .expect(201);
    const cannotEscape = await check({ intended_action: 'copy customer data', scope: { region: 'us' } }).expect(200);
    expect(cannotEscape.body.conflicts.map((c: { entry_id: string }) => c.entry_id)).toEqual([ids.gdpr]);
  });

  it('finds nothing for unrelated or stop-word-only actions, and survives odd input', async () => {
    expect((await check({ intended_action: 'water the plants' }).expect(200)).body).toEqual({
      scope_id: scopeId,
      conflicts: [],
      overridden: [],
    });
    expect((await check({ intended_action: 'the of and' }).expect(200)).body.conflicts).toEqual([]);
    for (const odd of ['"', "'; DROP TABLE rules; --", '!(&|)', 'a\u0000b', '🦄']) await check({ intended_action: odd }).expect(200);
    // A lone surrogate has no UTF-8 form: PostgreSQL would be asked about U+FFFD instead (docs/development.md "Storable JSON").
    expect((await check({ intended_action: 'deploy \ud800' }).expect(400)).body).toEqual({
      detail: 'body.intended_action contains a lone UTF-16 surrogate, which cannot be stored',
    });
  });

  it('answers 422 for a missing field, 404 for an unknown or forbidden scope, 403 without read', async () => {
    await admin.post('/api/v1/check', { scope_id: scopeId }).expect(422);
    await admin.post('/api/v1/check', { intended_action: 'x' }).expect(422);
    await admin.post('/api/v1/check', { scope_id: 'scp-000000000000000000000000', intended_action: 'x' }).expect(404);
    const other = await createScope(admin, 'elsewhere');
    const restricted = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read'], scope_ids: [other.id] });
    await check({ intended_action: 'deploy' }, api(h, restricted.key)).expect(404);
    const noRead = await createPrincipalWithKey(h, t.admin.key, { permissions: ['check'] });
    expect((await check({ intended_action: 'deploy' }, api(h, noRead.key)).expect(403)).body).toEqual({
      detail: 'Missing permission: read',
    });
  });
});

describe('registry compliance check within COMPLIANCE_BUDGET_MS', () => {
  let h: RegistryHarness;
  let admin: Api;
  let scopeId: string;

  beforeAll(async () => {
    // 1 ms: far below what compiling and matching these rules' globs against a long word costs.
    h = await startTestRegistry({ COMPLIANCE_BUDGET_MS: '1' });
    const t = await createTenantWithAdmin(h, 'compliance-budget');
    admin = api(h, t.admin.key);
    scopeId = (await createScope(admin, 'files')).id;
    // The costliest globs the rule limits accept: 64 wildcards around a 434-character piece no word of `a` matches.
    for (let r = 0; r < 20; r++) {
      const resources = Array.from({ length: 100 }, (_, i) => `*${'aaaaaa?'.repeat(62)}c${r}x${i}*`);
      await admin
        .post(`/api/v1/scopes/${scopeId}/rules`, { directive: `zzz ${r}`, severity: 'MANDATORY', applies_to: { resources } })
        .expect(201);
    }
  });
  afterAll(() => h.stop());

  it('answers 503 evaluation_budget_exceeded rather than hold the registry, never a partial list', async () => {
    const res = await admin.post('/api/v1/check', { scope_id: scopeId, intended_action: 'a'.repeat(4000) }).expect(503);
    expect(res.body).toEqual({
      detail: expect.stringMatching(
        /^evaluation_budget_exceeded: matching this scope's rules took more than 1 ms \(COMPLIANCE_BUDGET_MS\)/,
      ),
    });
  });
});
