import { randomUUID } from 'node:crypto';
import { createRegistryClient, type LedgerFact } from '@arbiter/client';
import { eventually } from '@arbiter/testing';
import { ledgerAs, provisionTenant, type SdkTenant } from '../sdk-harness';
import { startStack, type Stack } from '../stack';

/**
 * Abuse cases (ADR 0016): any fact of the tenant counted as `verified`, so an agent sealed
 * `{"note": {"n": 5}}` into its own scratch stream, cited it for a Requirement that wants a verified
 * amount, and was allowed. The ledger now records who sealed each fact (`sealed_by`, from the API key),
 * the gateway refuses a citation of a fact sealed by the caller or the principal it acts for, and
 * `acceptable_sources: ["ledger:<stream glob>"]` narrows which streams count
 * (docs/verdicts.md "Facts the ledger vouches for").
 */
describe('abuse: ledger citations', () => {
  let stack: Stack;
  let t: SdkTenant;
  /** A KYC service's key: another principal of the tenant, with `seal`. */
  let kycKey: string;
  let kycId: string;
  /** A human the agent acts for, whose `seal` key the agent also holds. */
  let humanKey: string;
  let humanId: string;
  let agentId: string;
  let agentFact: LedgerFact;
  let kycFact: LedgerFact;
  let humanFact: LedgerFact;
  let kycChecks: LedgerFact;
  let ordersFact: LedgerFact;

  const post = (path: 'check' | 'resolve', body: unknown, key = t.agentKey) =>
    fetch(`${stack.verdict.url}/${t.id}/v1/${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const cite = (f: LedgerFact, value: unknown, payloadPath: string) => ({
    value,
    source: `ledger:${f.fact_id}`,
    payload_path: payloadPath,
  });
  /** The reproduction's operation: a transfer whose amount a rule wants verified. */
  const transfer = (amount: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    action: 'treasury.transfer',
    resource: 'acct:eu/1',
    scope: { region: 'eu' },
    context: { amount },
    ...extra,
  });
  const payout = (level: Record<string, unknown>) => ({
    action: 'payments.payout',
    resource: 'acct:eu/1',
    scope: { region: 'eu' },
    context: { 'customer.kyc_level': level },
  });
  const consultationCount = async () => {
    const res = await fetch(`${stack.verdict.url}/${t.id}/v1/consultations?limit=1000`, { headers: { 'X-API-Key': t.agentKey } });
    return ((await res.json()) as { items: unknown[] }).items.length;
  };

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true });
    t = await provisionTenant(stack, 'cite-abuse');
    const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
    const scope = await reg.createScope({ name: 'transfers' });
    // Before any check of the tenant, so that the gateway's first snapshot holds the rules.
    await reg.createRule(scope.id, {
      directive: 'Transfers above 1,000 are blocked; the amount must be one the ledger vouches for',
      severity: 'MANDATORY',
      applies_to: { actions: ['treasury.transfer'] },
      conditions: [{ field: 'amount', op: 'gt', value: 1000 }],
      requires: [
        {
          field: 'amount',
          type: 'number',
          source_requirement: 'verified',
          acceptable_sources: ['ledger'],
          reason: 'amount from the ledger',
        },
      ],
    });
    await reg.createRule(scope.id, {
      directive: 'Payouts need a KYC level of 2 or more, from a KYC stream of the ledger',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.payout'] },
      conditions: [{ field: 'customer.kyc_level', op: 'lt', value: 2 }],
      requires: [{ field: 'customer.kyc_level', type: 'integer', source_requirement: 'verified', acceptable_sources: ['ledger:kyc-*'] }],
    });
    await reg.createRule(scope.id, {
      directive: 'Refunds above 1,000 to a blocked customer are refused; both facts from the ledger',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.refund'] },
      conditions: [
        { field: 'refund.amount', op: 'gt', value: 1000 },
        { field: 'customer.tier', op: 'eq', value: 'blocked' },
      ],
      requires: [
        { field: 'refund.amount', type: 'number', source_requirement: 'verified', acceptable_sources: ['ledger'] },
        { field: 'customer.tier', type: 'string', source_requirement: 'verified', acceptable_sources: ['ledger'] },
      ],
    });
    // Closing an account needs the ledger to vouch that its review passed; an audit fact of the services may
    // vouch only where a rule names the audit streams.
    for (const [action, sources] of [
      ['accounts.close', ['ledger']],
      ['accounts.archive', ['ledger:*']],
      ['accounts.purge', ['ledger:arbiter.*']],
    ] as const) {
      await reg.createRule(scope.id, {
        directive: `${action} needs a passed review from the ledger`,
        severity: 'MANDATORY',
        applies_to: { actions: [action] },
        conditions: [{ field: 'review.status', op: 'neq', value: 'allowed' }],
        requires: [{ field: 'review.status', type: 'string', source_requirement: 'verified', acceptable_sources: [...sources] }],
      });
    }
    const kyc = await reg.createPrincipal({ kind: 'agent', name: 'kyc-service' });
    const human = await reg.createPrincipal({ kind: 'human', name: 'treasurer' });
    [kycKey, humanKey] = await Promise.all([
      reg.createApiKey({ principal_id: kyc.id, permissions: ['seal', 'read'] }).then((k) => k.key),
      reg.createApiKey({ principal_id: human.id, permissions: ['seal', 'read'] }).then((k) => k.key),
    ]);
    [kycId, humanId] = [kyc.id, human.id];
    agentId = (
      (await (await fetch(`${stack.ledger.url}/v1/whoami`, { headers: { 'X-API-Key': t.agentKey } })).json()) as {
        principal: { id: string };
      }
    ).principal.id;
    const seal = async (key: string, stream: string, payload: Record<string, unknown>) =>
      (await ledgerAs(stack, key).seal(stream, { tenant_id: t.id, actor: 'service:kyc', custom_payload: payload })).fact;
    const run = randomUUID().slice(0, 8);
    // The reproduction: the agent's own scratch stream; the actor text claims anything.
    agentFact = await seal(t.agentKey, `scratch-${run}`, { note: { n: 5 } });
    kycFact = await seal(kycKey, `kyc-transfers-${run}`, { note: { n: 5 }, customer: { tier: 'blocked' } });
    humanFact = await seal(humanKey, `notes-${run}`, { note: { n: 5 }, refund: { amount: 5000 } });
    kycChecks = await seal(kycKey, `kyc-checks-${run}`, { customer: { kyc_level: 3 } });
    ordersFact = await seal(kycKey, `orders-${run}`, { customer: { kyc_level: 3 } });
  });
  afterAll(() => stack?.stop());

  it('records the sealing principal of each fact, whatever actor says', () => {
    expect([agentFact.sealed_by, kycFact.sealed_by, humanFact.sealed_by]).toEqual([agentId, kycId, humanId]);
    expect(agentFact.actor).toBe('service:kyc');
  });

  describe('a fact the caller sealed itself', () => {
    it('is refused: 400 invalid_ledger_citation, reason self_sealed, nothing recorded', async () => {
      const before = await consultationCount();
      const res = await post('check', transfer(cite(agentFact, 5, 'note.n')));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'invalid_ledger_citation',
        details: { field: 'context.amount', reason: 'self_sealed', fact_id: agentFact.fact_id },
      });
      expect(await consultationCount()).toBe(before);
    });

    it('is refused through resolve as well', async () => {
      const res = await post('resolve', transfer(cite(agentFact, 5, 'note.n')));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'invalid_ledger_citation',
        details: { field: 'context.amount', reason: 'self_sealed' },
      });
    });

    it('is refused when sealed with the key of the human the agent acts for (on_behalf_of)', async () => {
      const res = await post('check', transfer(cite(humanFact, 5, 'note.n'), { on_behalf_of: humanId }));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'invalid_ledger_citation',
        details: { reason: 'self_sealed', fact_id: humanFact.fact_id },
      });
    });
  });

  it("accepts the same citation of a fact another principal sealed (the KYC service's key)", async () => {
    const res = await post('check', transfer(cite(kycFact, 5, 'note.n')));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { verdict: string; consultation_id: string };
    expect(answer.verdict).toBe('allowed');
    const record = (await (
      await fetch(`${stack.verdict.url}/${t.id}/v1/consultations/${answer.consultation_id}`, { headers: { 'X-API-Key': t.agentKey } })
    ).json()) as Record<string, unknown>;
    expect(record.ledger_citations).toEqual({
      amount: {
        fact_id: kycFact.fact_id,
        fact_hash: kycFact.fact_hash,
        stream_id: kycFact.stream_id,
        sealed_by: kycId,
        payload_path: 'note.n',
      },
    });
  });

  it('checks the whole accumulated context of a resolve session in the round that names on_behalf_of', async () => {
    const refund = { action: 'payments.refund', resource: 'acct:eu/9', scope: { region: 'eu' } };
    // Round 1, acting for no one: the human's fact may vouch for the agent.
    const first = await post('resolve', { ...refund, context: { 'refund.amount': cite(humanFact, 5000, 'refund.amount') } });
    expect(first.status).toBe(200);
    const incomplete = (await first.json()) as { operation_status: string; resolve_session_id: string };
    expect(incomplete.operation_status).toBe('incomplete');
    // Round 2 acts for that human: the fact it sealed, cited in round 1, no longer counts.
    const second = await post('resolve', {
      ...refund,
      on_behalf_of: humanId,
      resolve_session_id: incomplete.resolve_session_id,
      context: { 'customer.tier': cite(kycFact, 'blocked', 'customer.tier') },
    });
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({
      code: 'invalid_ledger_citation',
      details: { field: 'context.refund.amount', reason: 'self_sealed', fact_id: humanFact.fact_id },
    });
  });

  it("does not take the services' audit facts as vouching unless the rule names their streams: the agent steers what they say", async () => {
    // The agent's own allowed check is sealed by the gateway in arbiter.<tenant>.consultations with verdict "allowed".
    const allowed = await post('check', payout(cite(kycChecks, 3, 'customer.kyc_level')));
    const consultationId = ((await allowed.json()) as { consultation_id: string }).consultation_id;
    const worker = await stack.addWorker();
    try {
      const audit = await eventually('the consultation to be sealed', async () => {
        const res = await fetch(`${stack.verdict.url}/${t.id}/v1/consultations/${consultationId}/evidence`, {
          headers: { 'X-API-Key': t.agentKey },
        });
        return res.status === 200 && ((await res.json()) as { ledger: { fact_id: string; stream_id: string } }).ledger;
      });
      expect(audit.stream_id).toBe(`arbiter.${t.id}.consultations`);
      const close = (action: string) => ({
        action,
        resource: 'acct:eu/1',
        scope: { region: 'eu' },
        context: { 'review.status': { value: 'allowed', source: `ledger:${audit.fact_id}`, payload_path: 'verdict' } },
      });
      for (const action of ['accounts.close', 'accounts.archive']) {
        const res = await post('check', close(action));
        expect([action, res.status]).toEqual([action, 422]);
        const body = (await res.json()) as { code: string; details: { required_context: Array<Record<string, unknown>> } };
        expect(body.code).toBe('insufficient_context');
        expect(body.details.required_context).toEqual([
          expect.objectContaining({ field: 'review.status', problems: ['source_not_accepted'] }),
        ]);
      }
      const named = await post('check', close('accounts.purge'));
      expect(named.status).toBe(200);
      expect(((await named.json()) as { verdict: string }).verdict).toBe('allowed');
    } finally {
      await worker.close();
    }
  });

  describe('acceptable_sources ledger:<stream glob>', () => {
    it('accepts a fact of a kyc-checks stream for ledger:kyc-*', async () => {
      const res = await post('check', payout(cite(kycChecks, 3, 'customer.kyc_level')));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { verdict: string }).verdict).toBe('allowed');
    });

    it('does not count a fact of an orders stream: the Requirement is unmet (422 insufficient_context, source_not_accepted)', async () => {
      const res = await post('check', payout(cite(ordersFact, 3, 'customer.kyc_level')));
      expect(res.status).toBe(422);
      const body = (await res.json()) as { code: string; details: { required_context: Array<Record<string, unknown>> } };
      expect(body.code).toBe('insufficient_context');
      expect(body.details.required_context).toEqual([
        expect.objectContaining({
          field: 'customer.kyc_level',
          acceptable_sources: ['ledger:kyc-*'],
          problems: ['source_not_accepted'],
          ledger_citation: 'accepted',
        }),
      ]);
    });

    it('is validated by the registry: a ledger: entry without a usable stream glob is refused with 400', async () => {
      const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
      const scope = await reg.createScope({ name: `bad-${randomUUID().slice(0, 8)}` });
      for (const entry of ['ledger:', 'ledger:kyc/*']) {
        const res = await fetch(`${stack.registry.url}/api/v1/scopes/${scope.id}/rules`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${t.adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            directive: 'x',
            severity: 'MANDATORY',
            conditions: [{ field: 'a', op: 'gt', value: 1 }],
            requires: [{ field: 'a', type: 'number', acceptable_sources: [entry] }],
          }),
        });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { detail: string }).detail).toMatch(/ledger:<stream glob>/);
      }
    });
  });
});
