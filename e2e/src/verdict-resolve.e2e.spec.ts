import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import { createVerdictTenant, expectConforms, registryApi, verdictApi, type VerdictTenant } from './verdict-harness';
import { startStack, type Stack } from './stack';

const RESOLVE = '/{tenant_id}/v1/resolve';

/** Resolve (both variants, docs/verdicts.md "resolve") through HTTP against the real registry, PostgreSQL and Redis. */
describe('POST /<tenant_id>/v1/resolve', () => {
  let stack: Stack;
  let t: VerdictTenant;
  const rules: Record<string, { id: string; current_version_id: string }> = {};

  const op = { action: 'payments.transfer', resource: 'acct:eu/4471', scope: { region: 'eu', env: 'prod' } };
  const agentFact = (value: unknown) => ({ value, source: 'agent' });
  const verified = (value: unknown) => ({ value, source: 'kyc-provider', verification_status: 'verified' });

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'resolve-a');
    const reg = registryApi(stack, t.adminKey);
    const all = await reg.scope('all');
    const eu = await reg.scope('eu', { region: 'eu' });
    const euProd = await reg.scope('eu-prod', { region: 'eu', env: 'prod' });
    const prod = await reg.scope('prod', { env: 'prod' });
    rules.sanctions = await reg.rule(all, {
      directive: 'No transfers to sanctioned countries',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'beneficiary.country', op: 'in', value: ['CU', 'IR', 'KP', 'SY'] }],
      requires: [
        {
          field: 'beneficiary.country',
          type: 'string',
          format: 'iso-country',
          source_requirement: 'verified',
          reason: 'sanctions screening',
        },
      ],
    });
    rules.large = await reg.rule(eu, {
      directive: 'Transfers above 10,000 EUR need CFO approval',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
      deciders: ['role-cfo'],
    });
    rules.euProd = await reg.rule(euProd, {
      directive: 'EU production payments are allowed',
      severity: 'ALLOW',
      applies_to: { actions: ['payments.transfer'] },
    });
    rules.freeze = await reg.rule(prod, {
      directive: 'Production freeze',
      severity: 'MANDATORY',
      applies_to: { actions: ['infra.deploy'] },
    });
  });
  afterAll(() => stack.stop());

  const agent = () => verdictApi(stack, t.agent.key, t.id);
  const count = async () => (await agent().consultations({ limit: 1000 }).expect(200)).body.items.length;

  it('runs the loop: asks only what can change the verdict, writes nothing until complete, then records the rounds', async () => {
    const before = await count();
    const r1 = await agent()
      .resolve({ ...op, context: {} })
      .expect(200);
    expectConforms(r1, 'post', RESOLVE);
    expect(r1.body).toEqual({
      operation_status: 'incomplete',
      resolve_session_id: expect.stringMatching(/^rsn-/),
      round: 1,
      required_context: [
        expect.objectContaining({
          field: 'beneficiary.country',
          type: 'string',
          format: 'iso-country',
          source_requirement: 'verified',
          reason: expect.stringContaining(rules.sanctions.id),
        }),
        expect.objectContaining({ field: 'transfer.amount', type: 'number', reason: expect.any(String) }),
      ],
      provisional_context: {},
    });
    expect(r1.headers['x-consultation-id']).toBeUndefined();
    const session = r1.body.resolve_session_id;

    const r2 = await agent()
      .resolve({
        ...op,
        resolve_session_id: session,
        context: { 'beneficiary.country': agentFact('DE'), 'transfer.amount': agentFact(25000) },
      })
      .expect(200);
    expect(r2.body).toMatchObject({
      operation_status: 'incomplete',
      resolve_session_id: session,
      round: 2,
      required_context: [expect.objectContaining({ field: 'beneficiary.country', problems: ['not_verified'] })],
      provisional_context: { 'beneficiary.country': 'DE', 'transfer.amount': 25000 },
    });
    expect(r2.body.required_context).toHaveLength(1);
    expect(await count()).toBe(before);

    const r3 = await agent()
      .resolve(
        { ...op, resolve_session_id: session, context: { 'beneficiary.country': verified('DE') }, explain: true },
        { 'X-Verdict-TTL': '60' },
      )
      .expect(200);
    expectConforms(r3, 'post', RESOLVE);
    expect(r3.body).toEqual({
      operation_status: 'complete',
      verdict: 'approval_required',
      cited_rule_ids: [rules.large.id, rules.euProd.id],
      consultation_id: expect.stringMatching(/^cns-/),
      signed_verdict: expect.any(String),
      approval: { endpoint: `/${t.id}/v1/approvals`, example_body: { consultation_id: r3.body.consultation_id, requester_notes: '' } },
      explanation: {
        deciders: ['role-cfo'],
        not_invertible: [],
        to_allow: [{ changes: [{ field: 'transfer.amount', op: 'lte', value: 10000 }] }],
      },
      required_context_history: [
        { round: 1, fields: ['beneficiary.country', 'transfer.amount'] },
        { round: 2, fields: ['beneficiary.country'] },
        { round: 3, fields: [] },
      ],
    });
    expect(r3.headers['x-consultation-id']).toBe(r3.body.consultation_id);
    expect(r3.headers['x-verdict-ttl']).toBe('60');
    expect(await count()).toBe(before + 1);
    const record = (await agent().consultation(r3.body.consultation_id).expect(200)).body;
    expect(record).toMatchObject({
      operation: 'resolve',
      verdict: 'approval_required',
      verdict_ttl_seconds: 60,
      parameters: {},
      context_snapshot: { 'beneficiary.country': verified('DE'), 'transfer.amount': agentFact(25000) },
      required_context_history: r3.body.required_context_history,
      precedence_trace: [
        expect.objectContaining({ rule_id: rules.sanctions.id, reason: 'condition_false' }),
        expect.objectContaining({ rule_id: rules.large.id, reason: 'fires', decided_by: 'severity' }),
        expect.objectContaining({ rule_id: rules.euProd.id, reason: 'fires' }),
      ],
    });

    const again = await agent()
      .resolve({ ...op, resolve_session_id: session, context: {} })
      .expect(409);
    expect(again.body).toMatchObject({ code: 'resolve_session_completed', details: { consultation_id: r3.body.consultation_id } });
  });

  it('completes in one round when the context is already sufficient', async () => {
    const res = await agent()
      .resolve({ ...op, context: { 'beneficiary.country': verified('KP') } })
      .expect(200);
    expect(res.body).toMatchObject({
      operation_status: 'complete',
      verdict: 'blocked',
      dominating_rule_id: rules.sanctions.id,
      required_context_history: [{ round: 1, fields: [] }],
    });
  });

  it('stores correlation ids with the consultation, untouched', async () => {
    const correlation = { conversation_id: 'conv 42 / ümlaut', agent_run_id: 'run-7' };
    const res = await agent()
      .resolve({ ...op, context: { 'beneficiary.country': verified('FR'), 'transfer.amount': agentFact(5) }, correlation })
      .expect(200);
    const record = (await agent().consultation(res.body.consultation_id).expect(200)).body;
    expect(record.correlation).toEqual(correlation);
  });

  it('widens the scope with scope fields that arrive as context', async () => {
    const res = await agent()
      .resolve({ action: 'infra.deploy', resource: 'svc:api', scope: { region: 'eu' }, context: { 'scope.env': agentFact('prod') } })
      .expect(200);
    expect(res.body).toMatchObject({ verdict: 'blocked', dominating_rule_id: rules.freeze.id });
    const record = (await agent().consultation(res.body.consultation_id).expect(200)).body;
    expect(record.scope_used).toEqual({ region: 'eu', env: 'prod' });
    const bare = await agent()
      .resolve({ action: 'infra.deploy', resource: 'svc:api', scope: {}, context: { env: agentFact('prod') } })
      .expect(200);
    expect(bare.body.verdict).toBe('blocked');
    const conflict = await agent()
      .resolve({ action: 'infra.deploy', resource: 'svc:api', scope: { env: 'staging' }, context: { 'scope.env': agentFact('prod') } })
      .expect(409);
    expect(conflict.body.code).toBe('scope_conflict');
  });

  it('answers 429 too_many_rounds past the tenant max_resolve_rounds', async () => {
    const tenant = await createVerdictTenant(stack, 'resolve-cap', { max_resolve_rounds: 2 });
    const reg = registryApi(stack, tenant.adminKey);
    const scope = await reg.scope('all');
    await reg.rule(scope, {
      directive: 'x',
      severity: 'MANDATORY',
      applies_to: { actions: ['a'] },
      conditions: [{ field: 'f', op: 'eq', value: 1 }],
    });
    const api = verdictApi(stack, tenant.agent.key, tenant.id);
    const first = await api.resolve({ action: 'a', resource: 'r', scope: {}, context: {} }).expect(200);
    const id = first.body.resolve_session_id;
    await api.resolve({ action: 'a', resource: 'r', scope: {}, context: { g: agentFact(1) }, resolve_session_id: id }).expect(200);
    const capped = await api
      .resolve({ action: 'a', resource: 'r', scope: {}, context: { f: agentFact(2) }, resolve_session_id: id })
      .expect(429);
    expect(capped.body).toMatchObject({ code: 'too_many_rounds', details: { max_resolve_rounds: 2, rounds: 2 } });
  });

  it('uses 12 rounds by default', async () => {
    const tenant = await createVerdictTenant(stack, 'resolve-default-cap');
    const reg = registryApi(stack, tenant.adminKey);
    await reg.rule(await reg.scope('all'), {
      directive: 'x',
      severity: 'MANDATORY',
      applies_to: { actions: ['a'] },
      conditions: [{ field: 'f', op: 'eq', value: 1 }],
    });
    const api = verdictApi(stack, tenant.agent.key, tenant.id);
    let id: string | undefined;
    for (let round = 1; round <= 12; round++) {
      const res = await api
        .resolve({ action: 'a', resource: 'r', scope: {}, context: {}, ...(id ? { resolve_session_id: id } : {}) })
        .expect(200);
      expect(res.body.round).toBe(round);
      id = res.body.resolve_session_id;
    }
    expect((await api.resolve({ action: 'a', resource: 'r', scope: {}, context: {}, resolve_session_id: id }).expect(429)).body.code).toBe(
      'too_many_rounds',
    );
  });

  it('refuses a context field without a value (400 invalid_context_shape) and unknown scope fields (400 unknown_scope_field)', async () => {
    for (const context of [
      { 'transfer.amount': { source: 'agent' } },
      { 'transfer.amount': 5 },
      { 'transfer.amount': { value: 5 } },
      { x: { value: 1, source: 's', confidence: 2 } },
      [],
    ]) {
      const res = await agent()
        .resolve({ ...op, context })
        .expect(400);
      expect(res.body.code).toBe('invalid_context_shape');
    }
    const nullIsFine = await agent()
      .resolve({ ...op, context: { 'transfer.amount': { value: null, source: 'agent' } } })
      .expect(200);
    expect(nullIsFine.body.provisional_context).toEqual({ 'transfer.amount': null });
    const scope = await agent()
      .resolve({ ...op, scope: { region: 'eu', planet: 'mars' }, context: {} })
      .expect(400);
    expect(scope.body).toMatchObject({ code: 'unknown_scope_field', details: { field: 'planet' } });
    const viaContext = await agent()
      .resolve({ ...op, context: { 'scope.planet': agentFact('mars') } })
      .expect(400);
    expect(viaContext.body.code).toBe('unknown_scope_field');
    const value = await agent()
      .resolve({ ...op, context: { 'scope.region': agentFact('apac') } })
      .expect(400);
    expect(value.body.code).toBe('invalid_scope_value');
    const mixed = await agent()
      .resolve({ ...op, action_type: 'payments.transfer', context: {} })
      .expect(400);
    expect(mixed.body.code).toBe('validation_failed');
    const noContext = await agent()
      .resolve({ ...op })
      .expect(400);
    expect(noContext.body.code).toBe('validation_failed');
  });

  it('keeps sessions to their caller and operation', async () => {
    const first = await agent()
      .resolve({ ...op, context: {} })
      .expect(200);
    const id = first.body.resolve_session_id;
    const mismatch = await agent()
      .resolve({ ...op, action: 'payments.refund', context: {}, resolve_session_id: id })
      .expect(409);
    expect(mismatch.body.code).toBe('resolve_session_mismatch');
    const stranger = await createPrincipalWithKey(stack.registry, t.adminKey, { permissions: ['check'] });
    const theirs = await verdictApi(stack, stranger.key, t.id)
      .resolve({ ...op, context: {}, resolve_session_id: id })
      .expect(404);
    expect(theirs.body.code).toBe('resolve_session_not_found');
    expect(
      (
        await agent()
          .resolve({ ...op, context: {}, resolve_session_id: 'rsn-unknown' })
          .expect(404)
      ).body.code,
    ).toBe('resolve_session_not_found');
  });

  it('completes a session once: of rounds racing to complete it, one records a consultation, the others answer 409', async () => {
    const first = await agent()
      .resolve({ ...op, context: {} })
      .expect(200);
    const id = first.body.resolve_session_id;
    const before = await count();
    const complete = { 'beneficiary.country': verified('FR'), 'transfer.amount': agentFact(50) };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => agent().resolve({ ...op, context: complete, resolve_session_id: id })),
    );
    const done = answers.filter((a) => a.status === 200);
    expect(done).toHaveLength(1);
    expect(done[0].body.operation_status).toBe('complete');
    for (const lost of answers.filter((a) => a.status !== 200)) {
      expect(lost.status).toBe(409);
      expect(['resolve_session_conflict', 'resolve_session_completed']).toContain(lost.body.code);
    }
    expect(await count()).toBe(before + 1);
    const again = await agent()
      .resolve({ ...op, context: complete, resolve_session_id: id })
      .expect(409);
    expect(again.body).toMatchObject({ code: 'resolve_session_completed', details: { consultation_id: done[0].body.consultation_id } });
  });

  it('answers 401 missing_credentials without a key', async () => {
    const res = await verdictApi(stack, undefined, t.id)
      .resolve({ ...op, context: {} })
      .expect(401);
    expect(res.body.code).toBe('missing_credentials');
  });

  describe('overview variant (action_type)', () => {
    const context = {
      resource: agentFact('acct:eu/1'),
      'scope.region': agentFact('eu'),
      'scope.env': agentFact('prod'),
      'transfer.amount': agentFact(25000),
    };

    it('asks for what is missing, then answers with its own fields and the approver', async () => {
      const first = await agent()
        .resolve({ action_type: 'payments.transfer', context, correlation: { agent_run_id: 'r1' } })
        .expect(200);
      expectConforms(first, 'post', RESOLVE);
      expect(first.body).toEqual({
        operation_status: 'incomplete',
        required_context: [expect.objectContaining({ field: 'beneficiary.country', source_requirement: 'verified' })],
        resolve_session_id: expect.stringMatching(/^rsn-/),
      });
      const done = await agent()
        .resolve({
          action_type: 'payments.transfer',
          context: { 'beneficiary.country': verified('DE') },
          resolve_session_id: first.body.resolve_session_id,
          explain: true,
        })
        .expect(200);
      expectConforms(done, 'post', RESOLVE);
      expect(done.body).toEqual({
        operation_status: 'complete',
        verdict: 'approval_required',
        cited_rules: [rules.large.id, rules.euProd.id],
        cited_rule_versions: [rules.large.current_version_id, rules.euProd.current_version_id],
        dominating_rule_id: rules.large.id,
        consultation_id: expect.stringMatching(/^cns-/),
        normative_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        approver: {
          candidate_deciders: ['role-cfo'],
          triggers: [
            {
              rule_id: rules.large.id,
              rule_version_id: rules.large.current_version_id,
              reason: 'Transfers above 10,000 EUR need CFO approval',
            },
          ],
          endpoint: `/${t.id}/v1/approvals`,
        },
        explanation: {
          deciders: ['role-cfo'],
          not_invertible: [],
          to_allow: [{ changes: [{ field: 'transfer.amount', op: 'lte', value: 10000 }] }],
        },
      });
      const record = (await agent().consultation(done.body.consultation_id).expect(200)).body;
      expect(record).toMatchObject({
        normative_hash: done.body.normative_hash,
        resource: 'acct:eu/1',
        scope_used: { region: 'eu', env: 'prod' },
        correlation: { agent_run_id: 'r1' },
      });
    });

    it('answers without approver for other verdicts', async () => {
      const res = await agent()
        .resolve({
          action_type: 'payments.transfer',
          context: { ...context, 'transfer.amount': agentFact(10), 'beneficiary.country': verified('DE') },
        })
        .expect(200);
      expect(res.body).toMatchObject({ verdict: 'allowed', dominating_rule_id: rules.euProd.id });
      expect(res.body).not.toHaveProperty('approver');
    });

    it('keeps a session to its resource: another resource Fact in a later round is 409 resolve_session_mismatch', async () => {
      const first = await agent().resolve({ action_type: 'payments.transfer', context }).expect(200);
      expect(first.body.operation_status).toBe('incomplete');
      const id = first.body.resolve_session_id;
      const other = await agent()
        .resolve({
          action_type: 'payments.transfer',
          context: { resource: agentFact('acct:eu/9'), 'beneficiary.country': verified('DE') },
          resolve_session_id: id,
        })
        .expect(409);
      expect(other.body).toMatchObject({ code: 'resolve_session_mismatch', details: { resource: 'acct:eu/1' } });
      // The same resource again, or none, continues the session.
      const done = await agent()
        .resolve({
          action_type: 'payments.transfer',
          context: { resource: agentFact('acct:eu/1'), 'beneficiary.country': verified('DE') },
          resolve_session_id: id,
        })
        .expect(200);
      expect(done.body.operation_status).toBe('complete');
      expect((await agent().consultation(done.body.consultation_id).expect(200)).body.resource).toBe('acct:eu/1');
    });

    it('answers 404 unknown_action_type when no rule names the action type', async () => {
      const res = await agent().resolve({ action_type: 'teleport.now', context: {} }).expect(404);
      expect(res.body.code).toBe('unknown_action_type');
    });
  });
});
