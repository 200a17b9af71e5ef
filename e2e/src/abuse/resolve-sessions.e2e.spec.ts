import { createPrincipalWithKey } from '../../../apps/registry/test/harness';
import { createVerdictTenant, registryApi, verdictApi, type VerdictTenant } from '../verdict-harness';
import { startStack, type Stack } from '../stack';

/**
 * Abuse cases of resolve sessions (docs/threat-model.md "Resolve sessions"): a session accumulates Facts
 * across rounds, so it is something another caller could try to write into, and something one caller
 * could grow without bound.
 */
describe('abuse: resolve sessions', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let other: VerdictTenant;
  let agent2: { principalId: string; key: string };

  beforeAll(async () => {
    // A small body limit, so that outgrowing it takes a few kilobytes, not megabytes.
    stack = await startStack({ verdict: { env: { BODY_LIMIT: '16kb' } } });
    t = await createVerdictTenant(stack, 'abuse-rsn');
    other = await createVerdictTenant(stack, 'abuse-rsn-b');
    const reg = registryApi(stack, t.adminKey);
    const scope = await reg.scope('eu', { region: 'eu' });
    await reg.rule(scope, {
      directive: 'Transfers need a verified beneficiary country',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'beneficiary.country', op: 'in', value: ['IR', 'KP'] }],
      requires: [{ field: 'beneficiary.country', type: 'string', source_requirement: 'verified' }],
    });
    agent2 = await createPrincipalWithKey(stack.registry, t.adminKey, { kind: 'agent', permissions: ['check'] });
  });
  afterAll(() => stack.stop());

  const op = { action: 'payments.transfer', resource: 'acct:eu/1', scope: { region: 'eu' } };
  const as = (key: string, tenant = t.id) => verdictApi(stack, key, tenant);

  async function openSession(): Promise<string> {
    const first = await as(t.agent.key)
      .resolve({ ...op, context: {} })
      .expect(200);
    expect(first.body.operation_status).toBe('incomplete');
    return first.body.resolve_session_id;
  }

  it("cannot write a Fact into another principal's session, nor another tenant's (404, the session is untouched)", async () => {
    const id = await openSession();
    const verified = { 'beneficiary.country': { value: 'DE', source: 'kyc', verification_status: 'verified' } };
    const foreign = await as(agent2.key).resolve({ ...op, context: verified, resolve_session_id: id });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'resolve_session_not_found']);
    const otherTenant = await as(other.agent.key, other.id).resolve({ ...op, context: verified, resolve_session_id: id });
    expect([otherTenant.status, otherTenant.body.code]).toEqual([404, 'resolve_session_not_found']);
    // The owner's next round starts from what it sent itself: the country is still asked for.
    const own = await as(t.agent.key)
      .resolve({ ...op, context: {}, resolve_session_id: id })
      .expect(200);
    expect(own.body).toMatchObject({ operation_status: 'incomplete', round: 2 });
    expect(own.body.required_context.map((f: { field: string }) => f.field)).toEqual(['beneficiary.country']);
  });

  it('cannot grow a session past what one request may carry: 422 resolve_context_too_large, and a fresh session still works', async () => {
    const id = await openSession();
    const filler = (n: number) =>
      Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`note.r${n}.f${i}`, { value: 'x'.repeat(900), source: 'agent' }]));
    // Each round fits the 16 kB body limit by itself; the second one would take the session past it.
    await as(t.agent.key)
      .resolve({ ...op, context: filler(1), resolve_session_id: id })
      .expect(200);
    const grown = await as(t.agent.key).resolve({ ...op, context: filler(2), resolve_session_id: id });
    expect([grown.status, grown.body.code]).toEqual([422, 'resolve_context_too_large']);
    expect(grown.body.details).toMatchObject({ resolve_session_id: id, max_bytes: 16 * 1024 });
    const done = await as(t.agent.key)
      .resolve({ ...op, context: { 'beneficiary.country': { value: 'DE', source: 'kyc', verification_status: 'verified' } } })
      .expect(200);
    expect(done.body).toMatchObject({ operation_status: 'complete', verdict: 'allowed' });
  });
});
