import { approval, complete, stubClient, verdictError, virtualTime } from '../../test/stub-guard-client';
import { argumentFacts } from './argument-facts';
import { guardCall, type GuardProgress } from './guard';
import { describeOutcome, mayRun, type GuardedCall } from './outcome';
import { PendingApprovals } from './pending-approvals';

const call: GuardedCall = {
  action: 'bank.transfer',
  resource: 'acct:1',
  scope: { region: 'eu' },
  parameters: { to: 'acct-2', amount: 5000 },
};
/** A compact JWS (unsigned: the guard reads its claims without verifying them) whose claims carry `scope`. */
const signedFor = (scope: Record<string, unknown>) =>
  ['e30', Buffer.from(JSON.stringify({ verdict: 'allowed', scope })).toString('base64url'), 'c2ln'].join('.');
const blockedRecord = { precedence_trace: [{ rule_id: 'rul-x', rule_version_id: 'rv-x', decided_by: 'severity' }] };

describe(guardCall.name, () => {
  it.each(['allowed', 'observe'])('lets %s run, with the signed verdict, after one check of the call as given', async (verdict) => {
    const s = stubClient({ check: [complete(verdict)] });
    const o = await guardCall(s.client, call);
    expect(o).toEqual({ kind: 'allowed', verdict, consultationId: `cns-${verdict}`, signedVerdict: `jws.${verdict}` });
    expect(mayRun(o)).toBe(true);
    expect(s.calls).toEqual([
      { method: 'check', body: { action: 'bank.transfer', resource: 'acct:1', scope: { region: 'eu' }, parameters: call.parameters } },
    ]);
  });

  it('runs nothing on an answer that says allowed without its signed verdict or its consultation (unsigned_answer)', async () => {
    for (const missing of [{ signed_verdict: undefined }, { signed_verdict: '' }, { consultation_id: undefined }] as never[]) {
      const checked = await guardCall(stubClient({ check: [complete('allowed', missing)] }).client, call);
      expect(checked).toMatchObject({ kind: 'unavailable', code: 'unsigned_answer' });
      expect(mayRun(checked)).toBe(false);
    }
    const resolved = await guardCall(
      stubClient({
        check: [verdictError(422, 'insufficient_context')],
        resolve: [{ ...complete('allowed'), operation_status: 'complete', signed_verdict: undefined }],
      }).client,
      call,
    );
    expect(resolved).toMatchObject({ kind: 'unavailable', code: 'unsigned_answer' });
  });

  it('carries the windows an answer read: taken on an allowed call, full on a refused one, absent without any', async () => {
    const taken = [{ rule_id: 'rul-b', key: '{}', window: '1h', used_before: 3, used_after: 4, max: 50 }];
    const allowed = await guardCall(stubClient({ check: [complete('allowed', { limits: taken } as never)] }).client, call);
    expect(allowed).toMatchObject({ kind: 'allowed', limits: taken });
    const full = [{ rule_id: 'rul-b', key: '{}', window: '1h', used_before: 50, used_after: 50, max: 50 }];
    const s = stubClient({
      check: [complete('blocked', { dominating_rule_id: 'rul-b', limits: full } as never)],
      consultation: verdictError(503, 'internal_error'),
    });
    const blocked = await guardCall(s.client, call);
    expect(blocked).toMatchObject({ kind: 'blocked', ruleId: 'rul-b', limits: full });
    expect(mayRun(blocked)).toBe(false);
    const held = stubClient({ check: [complete('approval_required', { limits: full } as never)], createApproval: [approval('pending')] });
    expect(await guardCall(held.client, call)).toMatchObject({ kind: 'approval_pending', limits: full });
    expect(await guardCall(stubClient({ check: [complete('allowed', { limits: [] } as never)] }).client, call)).not.toHaveProperty(
      'limits',
    );
  });

  it("refuses a blocked call and names the deciding rule's statement, read from the record and the rule version", async () => {
    const s = stubClient({
      check: [complete('blocked', { dominating_rule_id: 'rul-x' })],
      consultation: blockedRecord,
      ruleVersion: { statement: 'No offshore transfers' },
    });
    const o = await guardCall(s.client, call);
    expect(o).toEqual({
      kind: 'blocked',
      verdict: 'blocked',
      consultationId: 'cns-blocked',
      ruleId: 'rul-x',
      statement: 'No offshore transfers',
      reason: 'blocked',
    });
    expect(mayRun(o)).toBe(false);
    expect(describeOutcome(o)).toBe(
      'Arbiter refused the call: blocked by rule rul-x: "No offshore transfers" (verdict blocked, consultation cns-blocked). The call was not forwarded.',
    );
    expect(s.calls.map((c) => c.body)).toContainEqual('rv-x');
  });

  it('asks for the explanation only once the outcome is not allowed, and carries it on the refusal with the same sentence', async () => {
    const explanation = { not_invertible: [], to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 1000 }] }] };
    const allowed = stubClient({ check: [complete('allowed')], explanation: { explanation } });
    await guardCall(allowed.client, call);
    expect(allowed.count('getConsultationExplanation')).toBe(0);
    expect(allowed.calls[0].body).not.toHaveProperty('explain');

    const s = stubClient({
      check: [complete('blocked', { dominating_rule_id: 'rul-x' })],
      consultation: blockedRecord,
      ruleVersion: { statement: 'No offshore transfers' },
      explanation: { consultation_id: 'cns-blocked', verdict: 'blocked', explanation },
    });
    const o = await guardCall(s.client, call);
    expect(o).toEqual({
      kind: 'blocked',
      verdict: 'blocked',
      consultationId: 'cns-blocked',
      ruleId: 'rul-x',
      statement: 'No offshore transfers',
      reason: 'blocked',
      explanation,
    });
    expect(s.calls.find((c) => c.method === 'getConsultationExplanation')?.body).toBe('cns-blocked');
    expect(s.calls[0].body).not.toHaveProperty('explain');
    expect(describeOutcome(o)).toBe(
      'Arbiter refused the call: blocked by rule rul-x: "No offshore transfers" (verdict blocked, consultation cns-blocked). The call was not forwarded.',
    );
  });

  it('carries the explanation on a pending approval; a verdict without one is not asked about', async () => {
    const explanation = {
      deciders: ['role-cfo'],
      not_invertible: [],
      to_allow: [{ changes: [{ field: 'amount', op: 'lte', value: 1000 }] }],
    };
    const s = stubClient({ check: [complete('approval_required')], createApproval: [approval('pending')], explanation: { explanation } });
    expect(await guardCall(s.client, call)).toMatchObject({ kind: 'approval_pending', approvalId: 'apr-1', explanation });
    const other = stubClient({
      check: [complete('escalate_to_legal', { dominating_rule_id: 'rul-x' })],
      consultation: blockedRecord,
      ruleVersion: { statement: 'Legal first' },
    });
    expect(await guardCall(other.client, call)).not.toHaveProperty('explanation');
    expect(other.count('getConsultationExplanation')).toBe(0);
  });

  it('still refuses when the statement cannot be read, naming the rule id alone', async () => {
    const s = stubClient({
      check: [complete('blocked', { dominating_rule_id: 'rul-x' })],
      consultation: verdictError(503, 'internal_error'),
    });
    const o = await guardCall(s.client, call);
    expect(o).toMatchObject({ kind: 'blocked', ruleId: 'rul-x', statement: null });
    expect(describeOutcome(o)).toContain('blocked by rule rul-x (verdict blocked');
  });

  it('refuses a tenant-defined verdict: it is not an authorisation', async () => {
    const s = stubClient({
      check: [complete('escalate_to_legal', { dominating_rule_id: 'rul-x' })],
      consultation: blockedRecord,
      ruleVersion: { statement: 'Legal first' },
    });
    expect(await guardCall(s.client, call)).toMatchObject({ kind: 'blocked', verdict: 'escalate_to_legal', reason: 'unknown_verdict' });
  });

  it('files the approval and returns it pending by default (on_approval return), without waiting', async () => {
    const s = stubClient({ check: [complete('approval_required')], createApproval: [approval('pending')] });
    const o = await guardCall(s.client, call);
    expect(o).toEqual({
      kind: 'approval_pending',
      verdict: 'approval_required',
      consultationId: 'cns-approval_required',
      approvalId: 'apr-1',
      candidateDeciders: ['role-cfo'],
    });
    expect(s.calls.find((c) => c.method === 'createApproval')?.body).toMatchObject({ consultation_id: 'cns-approval_required' });
    expect(s.count('getApproval')).toBe(0);
    expect(describeOutcome(o)).toContain('approval apr-1 is pending and may be decided by one of role-cfo');
  });

  it('answers a retry with the approval it filed while that is pending, filing no other', async () => {
    const s = stubClient({
      check: [complete('approval_required')],
      createApproval: [approval('pending')],
      getApproval: [approval('pending')],
    });
    await guardCall(s.client, call);
    const again = await guardCall(s.client, call);
    expect(again).toMatchObject({ kind: 'approval_pending', approvalId: 'apr-1' });
    expect(s.count('createApproval')).toBe(1);
    // Another operation is another approval.
    await guardCall(s.client, { ...call, parameters: { ...call.parameters, amount: 6000 } });
    expect(s.count('createApproval')).toBe(2);
  });

  it("names the approval a retry was allowed by (the signed verdict's approval_id claim), and forgets it", async () => {
    const jws = (claims: object) =>
      ['{"alg":"ES256"}', JSON.stringify(claims), 'sig'].map((p, i) => (i < 2 ? Buffer.from(p).toString('base64url') : p)).join('.');
    const memory = new PendingApprovals();
    const s = stubClient({
      check: [
        complete('approval_required'),
        complete('allowed', { consultation_id: 'cns-2', signed_verdict: jws({ jti: 'cns-2', verdict: 'allowed', approval_id: 'apr-1' }) }),
      ],
      createApproval: [approval('pending')],
    });
    await guardCall(s.client, call, { pendingApprovals: memory });
    expect(memory.get(call)).toBe('apr-1');
    expect(await guardCall(s.client, call, { pendingApprovals: memory })).toMatchObject({
      kind: 'allowed',
      consultationId: 'cns-2',
      approvalId: 'apr-1',
    });
    expect(memory.get(call)).toBeUndefined();
    // A verdict without the claim (no approval used) names none.
    const plain = stubClient({ check: [complete('allowed', { signed_verdict: jws({ jti: 'cns-allowed', verdict: 'allowed' }) })] });
    expect(await guardCall(plain.client, call)).not.toHaveProperty('approvalId');
  });

  it('keeps refusing a retry whose approval was rejected; an approval used up gives way to a new one', async () => {
    const memory = new PendingApprovals();
    const rejected = stubClient({
      check: [complete('approval_required')],
      createApproval: [approval('pending')],
      getApproval: [approval('rejected')],
    });
    await guardCall(rejected.client, call, { pendingApprovals: memory });
    expect(await guardCall(rejected.client, call, { pendingApprovals: memory })).toMatchObject({
      kind: 'blocked',
      reason: 'approval_rejected',
      approvalId: 'apr-1',
    });
    expect(rejected.count('createApproval')).toBe(1);

    const used = stubClient({
      check: [complete('approval_required')],
      createApproval: [approval('pending'), approval('pending', { id: 'apr-2' })],
      getApproval: [approval('approved')],
    });
    const fresh = new PendingApprovals();
    await guardCall(used.client, call, { pendingApprovals: fresh });
    expect(await guardCall(used.client, call, { pendingApprovals: fresh })).toMatchObject({
      kind: 'approval_pending',
      approvalId: 'apr-2',
    });
  });

  it('with wait: polls with progress, and once approved checks again and lets exactly that call run', async () => {
    const progress: GuardProgress[] = [];
    const s = stubClient({
      check: [complete('approval_required'), complete('allowed', { consultation_id: 'cns-2', signed_verdict: 'jws.2' })],
      createApproval: [approval('pending')],
      getApproval: [approval('pending'), approval('pending'), approval('approved')],
    });
    const o = await guardCall(s.client, call, {
      onApproval: 'wait',
      waitSeconds: 60,
      pollMs: 1000,
      onProgress: (p) => progress.push(p),
      ...virtualTime(),
    });
    expect(o).toEqual({ kind: 'allowed', verdict: 'allowed', consultationId: 'cns-2', signedVerdict: 'jws.2', approvalId: 'apr-1' });
    expect(progress.map((p) => [p.attempt, p.status, p.elapsedMs, p.remainingMs])).toEqual([
      [1, 'pending', 0, 60_000],
      [2, 'pending', 1000, 59_000],
      [3, 'approved', 2000, 58_000],
    ]);
    expect(s.count('check')).toBe(2);
  });

  it('with wait: refuses when the check after the approval is not allowed (approval_not_honoured)', async () => {
    const s = stubClient({
      check: [complete('approval_required'), complete('approval_required', { consultation_id: 'cns-3' })],
      createApproval: [approval('pending')],
      getApproval: [approval('approved')],
      consultation: { precedence_trace: [] },
    });
    expect(await guardCall(s.client, call, { onApproval: 'wait', ...virtualTime() })).toMatchObject({
      kind: 'blocked',
      reason: 'approval_not_honoured',
      consultationId: 'cns-3',
      approvalId: 'apr-1',
    });
  });

  it('with wait: refuses on a rejection and when nobody decides in time', async () => {
    const rejected = stubClient({
      check: [complete('approval_required')],
      createApproval: [approval('pending')],
      getApproval: [approval('rejected')],
    });
    expect(await guardCall(rejected.client, call, { onApproval: 'wait', ...virtualTime() })).toMatchObject({
      kind: 'blocked',
      reason: 'approval_rejected',
      approvalId: 'apr-1',
    });
    const silent = stubClient({
      check: [complete('approval_required')],
      createApproval: [approval('pending')],
      getApproval: [approval('pending')],
    });
    const o = await guardCall(silent.client, call, { onApproval: 'wait', waitSeconds: 5, pollMs: 1000, ...virtualTime() });
    expect(o).toMatchObject({ kind: 'blocked', reason: 'approval_timeout', approvalId: 'apr-1' });
    expect(silent.count('check')).toBe(1);
  });

  it('on insufficient_context resolves with the arguments as Facts and names what is still missing', async () => {
    const missing = [{ field: 'identity.checked', reason: 'the fact is not verified', type: 'boolean' }];
    const s = stubClient({
      check: [verdictError(422, 'insufficient_context')],
      resolve: [
        { operation_status: 'incomplete', resolve_session_id: 'rs-1', round: 1, required_context: missing, provisional_context: {} },
      ],
    });
    const o = await guardCall(s.client, { ...call, parameters: { identity: { checked: true } } });
    expect(o).toEqual({ kind: 'insufficient_context', missing });
    expect(s.calls[1].body).toMatchObject({
      context: { identity: { value: { checked: true }, source: 'agent' }, 'identity.checked': { value: true, source: 'agent' } },
    });
    expect(describeOutcome(o)).toContain('the rules need identity.checked (the fact is not verified)');
  });

  it('on insufficient_context takes a complete resolve answer like a check answer', async () => {
    const s = stubClient({
      check: [verdictError(422, 'insufficient_context')],
      resolve: [complete('allowed', { consultation_id: 'cns-r', signed_verdict: signedFor({ region: 'eu' }) })],
    });
    expect(await guardCall(s.client, call)).toMatchObject({ kind: 'allowed', consultationId: 'cns-r' });
  });

  it.each([
    ['a scope field the call leaves unset', { region: 'eu', env: 'sandbox' }, /env="sandbox"/],
    ['another value of a field the call sets', { region: 'us' }, /region="us"/],
    ['no readable scope', null, /names no scope/],
  ])('refuses a resolved verdict signed for %s: the call names its scope, the arguments do not widen it', async (_what, signed, text) => {
    const s = stubClient({
      check: [verdictError(422, 'insufficient_context')],
      resolve: [complete('allowed', { consultation_id: 'cns-r', signed_verdict: signed ? signedFor(signed) : 'jws.allowed' })],
    });
    const o = await guardCall(s.client, { ...call, parameters: { account: 'acct-3', env: 'sandbox' } });
    expect(o).toMatchObject({ kind: 'unavailable', code: 'scope_widened', error: expect.stringMatching(text) });
    expect(mayRun(o)).toBe(false);
  });

  it.each([
    ['the gateway unreachable', Object.assign(verdictError(0, 'network_error'), {})],
    ['the gateway unavailable (its registry down)', verdictError(503, 'registry_unavailable')],
    ['a refused key', verdictError(401, 'invalid_credentials')],
    ['a bad request', verdictError(400, 'invalid_scope_field')],
    ['a thrown non-Arbiter error', new TypeError('fetch failed')],
  ])('never lets the call run with %s: unavailable', async (_what, error) => {
    const s = stubClient({ check: [error] });
    const o = await guardCall(s.client, call);
    expect(o.kind).toBe('unavailable');
    expect(mayRun(o)).toBe(false);
    expect(describeOutcome(o)).toMatch(/could not be reached or refused the request .*The call was not forwarded\.$/);
  });

  it('fails closed when filing the approval fails', async () => {
    const s = stubClient({ check: [complete('approval_required')], createApproval: [verdictError(503, 'internal_error')] });
    expect((await guardCall(s.client, call)).kind).toBe('unavailable');
  });
});

describe(argumentFacts.name, () => {
  it('gives every dot path, objects and leaves, arrays as values, skipping undefined', () => {
    expect(argumentFacts({ a: 1, t: { amount: 5, to: { iban: 'X' } }, list: [1, 2], gone: undefined }, 'agent')).toEqual({
      a: { value: 1, source: 'agent' },
      t: { value: { amount: 5, to: { iban: 'X' } }, source: 'agent' },
      't.amount': { value: 5, source: 'agent' },
      't.to': { value: { iban: 'X' }, source: 'agent' },
      't.to.iban': { value: 'X', source: 'agent' },
      list: { value: [1, 2], source: 'agent' },
    });
  });

  it('gives no Fact for a key holding a dot: it cannot hide the nested value check reads at that path', () => {
    // check reads payment.amount as 50000; the flat key must not make resolve judge 5 instead.
    const facts = argumentFacts({ payment: { amount: 50000 }, 'payment.amount': 5, '': 1, n: { 'a.b': 2 } }, 'agent');
    expect(facts).toEqual({
      payment: { value: { amount: 50000 }, source: 'agent' },
      'payment.amount': { value: 50000, source: 'agent' },
      n: { value: { 'a.b': 2 }, source: 'agent' },
    });
  });

  it('gives no Fact for an argument named parameters, nor under it: the gateway refuses such Facts', () => {
    expect(argumentFacts({ parameters: { amount: 5 }, a: 1 }, 'agent')).toEqual({ a: { value: 1, source: 'agent' } });
  });

  it('gives no Fact under an argument named scope: check reads scope.<field> from the call, resolve would widen it', () => {
    expect(argumentFacts({ scope: { env: 'sandbox' }, t: { scope: { x: 1 } } }, 'agent')).toEqual({
      scope: { value: { env: 'sandbox' }, source: 'agent' },
      t: { value: { scope: { x: 1 } }, source: 'agent' },
      't.scope': { value: { x: 1 }, source: 'agent' },
      't.scope.x': { value: 1, source: 'agent' },
    });
  });

  it('keeps a __proto__ argument as an own path, never as the prototype of the Facts', () => {
    const facts = argumentFacts(JSON.parse('{"__proto__": {"x": 1}}'), 'agent');
    expect(Object.getPrototypeOf(facts)).toBe(Object.prototype);
    expect(Object.keys(facts)).toEqual(['__proto__', '__proto__.x']);
  });
});
