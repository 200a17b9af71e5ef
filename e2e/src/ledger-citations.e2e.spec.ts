import { randomUUID } from 'node:crypto';
import { createRegistryClient, type LedgerClient, type LedgerFact } from '@arbiter/client';
import { findFreePort } from '@arbiter/devstack';
import { LedgerInternalClient } from '@arbiter/internal-api';
import { TEST_INTERNAL_TOKEN } from '../../apps/registry/test/harness';
import { canonicalHash } from './evidence-harness';
import { ledgerAs, provisionTenant, type SdkTenant } from './sdk-harness';
import { startStack, type Stack } from './stack';

const FIELD = 'customer.kyc_level';

/**
 * Facts the ledger vouches for (docs/verdicts.md "Facts the ledger vouches for"), against the real stack:
 * a tenant seals a fact in the real ledger, a check or resolve cites it as `ledger:<fact_id>`, and the
 * gateway verifies it through the ledger's internal API before a rule that accepts only the ledger
 * (`acceptable_sources: ["ledger"]`, `source_requirement: verified`) counts it.
 */
describe('ledger citations', () => {
  let stack: Stack;
  let t: SdkTenant;
  let other: SdkTenant;
  let ledger: LedgerClient;
  let stream: string;
  /** {customer: {kyc_level: 3}, kyc: {level: 1}} sealed by the tenant's KYC service (another principal than the agent). */
  let sealed: LedgerFact;

  const post = (path: 'check' | 'resolve', body: unknown, base = stack.verdict.url, key = t.agentKey) =>
    fetch(`${base}/${t.id}/v1/${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const payout = (fact: Record<string, unknown>) => ({
    action: 'payments.payout',
    resource: 'acct:eu/1',
    scope: { region: 'eu' },
    context: { [FIELD]: fact },
  });
  const cite = (f: LedgerFact, extra: Record<string, unknown> = {}) => ({ value: 3, source: `ledger:${f.fact_id}`, ...extra });
  const consultation = async (id: string) =>
    (await (await fetch(`${stack.verdict.url}/${t.id}/v1/consultations/${id}`, { headers: { 'X-API-Key': t.agentKey } })).json()) as Record<
      string,
      unknown
    >;
  const consultationCount = async () => {
    const res = await fetch(`${stack.verdict.url}/${t.id}/v1/consultations?limit=1000`, { headers: { 'X-API-Key': t.agentKey } });
    return ((await res.json()) as { items: unknown[] }).items.length;
  };

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true });
    [t, other] = await Promise.all([provisionTenant(stack, 'cite'), provisionTenant(stack, 'cite-b')]);
    // Before any check of the tenant, so that the gateway's first snapshot holds the rule.
    const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
    const scope = await reg.createScope({ name: 'payouts' });
    await reg.createRule(scope.id, {
      directive: 'Payouts need a KYC level of 2 or more, as the ledger recorded it',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.payout'] },
      conditions: [{ field: FIELD, op: 'lt', value: 2 }],
      requires: [
        {
          field: FIELD,
          type: 'integer',
          source_requirement: 'verified',
          acceptable_sources: ['ledger'],
          reason: 'KYC level from the ledger',
        },
      ],
    });
    // The agent cannot vouch for itself (docs/verdicts.md "Who may vouch"): the KYC service seals.
    const kyc = await reg.createPrincipal({ kind: 'agent', name: 'kyc-service' });
    ledger = ledgerAs(stack, (await reg.createApiKey({ principal_id: kyc.id, permissions: ['seal', 'read'] })).key);
    stream = `kyc-${randomUUID().slice(0, 8)}`;
    await ledger.seal(stream, { tenant_id: t.id, actor: 'agent:kyc', custom_payload: { first: true } });
    sealed = (
      await ledger.seal(stream, { tenant_id: t.id, actor: 'agent:kyc', custom_payload: { customer: { kyc_level: 3 }, kyc: { level: 1 } } })
    ).fact;
  });
  afterAll(() => stack?.stop());

  it('satisfies a rule accepting only the ledger with a cited fact, and the record keeps the fact id and hash under its hashes', async () => {
    const res = await post('check', payout(cite(sealed)));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { verdict: string; consultation_id: string };
    expect(answer.verdict).toBe('allowed');

    const record = await consultation(answer.consultation_id);
    // The fact's hash as the ledger's public API shows it to the tenant.
    const fact = await ledger.getFact(sealed.fact_id);
    expect(record.ledger_citations).toEqual({
      [FIELD]: { fact_id: sealed.fact_id, fact_hash: fact.fact_hash, stream_id: stream, sealed_by: fact.sealed_by, payload_path: FIELD },
    });
    // What the caller sent, as sent.
    expect(record.context_snapshot).toEqual({ [FIELD]: cite(sealed) });
    // The citation is covered by normative_hash (recomputed here with another canonicaliser), which the signed verdict binds.
    const { normative_hash, signed_verdict: _s, ...hashed } = record;
    expect(canonicalHash(hashed)).toBe(normative_hash);
  });

  it('reads the value at payload_path, and a rule that fires on a cited value decides', async () => {
    const res = await post('check', payout(cite(sealed, { value: 1, payload_path: 'kyc.level' })));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { verdict: string; consultation_id: string };
    expect(answer.verdict).toBe('blocked');
    expect((await consultation(answer.consultation_id)).ledger_citations).toEqual({
      [FIELD]: expect.objectContaining({ fact_id: sealed.fact_id, payload_path: 'kyc.level' }),
    });
  });

  it('refuses a fact about someone else: the request may not contradict any value the cited fact holds where it lines up', async () => {
    const about = async (id: string, level: number) =>
      (await ledger.seal(stream, { tenant_id: t.id, actor: 'agent:kyc', custom_payload: { customer: { id, kyc_level: level } } })).fact;
    const [a, b] = [await about('cust-A', 3), await about('cust-B', 1)];
    const payoutTo = (customer: string, context: Record<string, unknown>) => ({
      ...payout(cite(a)),
      parameters: { customer: { id: customer } },
      context,
    });
    // Customer A's level cited for a payout to customer B: A's fact says customer.id is cust-A.
    const before = await consultationCount();
    for (const context of [{ [FIELD]: cite(a) }, { [FIELD]: cite(a), 'customer.id': { value: 'cust-B', source: `ledger:${b.fact_id}` } }]) {
      const res = await post('check', payoutTo('cust-B', context));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'invalid_ledger_citation',
        details: { field: `context.${FIELD}`, reason: 'contradicted', fact_id: a.fact_id },
        message: expect.stringContaining('"cust-B" at customer.id, where ledger fact'),
      });
    }
    expect(await consultationCount()).toBe(before);
    // Customer B's own fact decides B's payout; A's decides A's.
    const own = await post('check', payoutTo('cust-B', { [FIELD]: cite(b, { value: 1 }) }));
    expect(((await own.json()) as { verdict: string }).verdict).toBe('blocked');
    const theirs = await post('check', payoutTo('cust-A', { [FIELD]: cite(a) }));
    expect(((await theirs.json()) as { verdict: string }).verdict).toBe('allowed');
  });

  describe('refused citations: 400 invalid_ledger_citation naming the field, nothing recorded', () => {
    it.each([
      ['a value the fact does not hold', () => cite(sealed, { value: 4 }), 'value_mismatch'],
      ['a payload_path the fact does not have', () => cite(sealed, { payload_path: 'kyc.country' }), 'path_not_found'],
      [
        'an unknown fact id',
        () => ({ value: 3, source: `ledger:fct-${'f'.repeat(24)}`, verification_status: 'verified' }),
        'fact_not_found',
      ],
      [
        'source ledger claimed without a citation',
        () => ({ value: 3, source: 'ledger', verification_status: 'verified' }),
        'not_a_citation',
      ],
      ['a malformed fact id', () => ({ value: 3, source: 'ledger:fct-12', verification_status: 'verified' }), 'not_a_citation'],
    ])('%s', async (_why, fact, reason) => {
      const before = await consultationCount();
      const res = await post('check', payout(fact()));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'invalid_ledger_citation', details: { field: `context.${FIELD}`, reason } });
      expect(await consultationCount()).toBe(before);
    });

    it("another tenant's fact, even with its id and the right value", async () => {
      const theirs = (
        await ledgerAs(stack, other.agentKey).seal(`kyc-${randomUUID().slice(0, 8)}`, {
          tenant_id: other.id,
          actor: 'agent:kyc',
          custom_payload: { customer: { kyc_level: 3 } },
        })
      ).fact;
      const res = await post('check', payout(cite(theirs)));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'invalid_ledger_citation',
        details: { field: `context.${FIELD}`, reason: 'fact_not_found', fact_id: theirs.fact_id },
      });
    });

    it('the same through resolve', async () => {
      const res = await post('resolve', { ...payout(cite(sealed, { value: 7 })) });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'invalid_ledger_citation',
        details: { field: `context.${FIELD}`, reason: 'value_mismatch' },
      });
    });
  });

  it("does not count a caller's own claim of verified from another source: the rule still lacks its Fact", async () => {
    const res = await post('check', payout({ value: 3, source: 'kyc-provider', verification_status: 'verified' }));
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; details: { required_context: Array<Record<string, unknown>> } };
    expect(body.code).toBe('insufficient_context');
    expect(body.details.required_context).toEqual([
      expect.objectContaining({ field: FIELD, problems: ['source_not_accepted'], ledger_citation: 'accepted' }),
    ]);
  });

  it("resolve's required_context says a ledger citation is accepted, and a round citing the fact completes", async () => {
    const first = await post('resolve', { action: 'payments.payout', resource: 'acct:eu/2', scope: { region: 'eu' }, context: {} });
    expect(first.status).toBe(200);
    const incomplete = (await first.json()) as {
      operation_status: string;
      resolve_session_id: string;
      required_context: Array<Record<string, unknown>>;
    };
    expect(incomplete.operation_status).toBe('incomplete');
    expect(incomplete.required_context).toEqual([
      expect.objectContaining({
        field: FIELD,
        acceptable_sources: ['ledger'],
        source_requirement: 'verified',
        ledger_citation: 'accepted',
      }),
    ]);

    const second = await post('resolve', {
      action: 'payments.payout',
      resource: 'acct:eu/2',
      scope: { region: 'eu' },
      resolve_session_id: incomplete.resolve_session_id,
      context: { [FIELD]: cite(sealed) },
    });
    expect(second.status).toBe(200);
    const complete = (await second.json()) as { operation_status: string; verdict: string; consultation_id: string };
    expect(complete).toMatchObject({ operation_status: 'complete', verdict: 'allowed' });
    expect((await consultation(complete.consultation_id)).ledger_citations).toEqual({
      [FIELD]: expect.objectContaining({ fact_id: sealed.fact_id, fact_hash: sealed.fact_hash }),
    });
  });

  it('answers 503 ledger_unavailable when the gateway has no LEDGER_URL or the ledger cannot be reached, and records nothing', async () => {
    const deadPort = await findFreePort();
    for (const LEDGER_URL of [undefined, `http://127.0.0.1:${deadPort}`]) {
      const gateway = await stack.startReplica('verdict', { env: { LEDGER_URL } });
      try {
        const before = await consultationCount();
        for (const path of ['check', 'resolve'] as const) {
          const res = await post(path, payout(cite(sealed)), gateway.url);
          expect(res.status).toBe(503);
          expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
          expect(await res.json()).toMatchObject({ code: 'ledger_unavailable' });
        }
        expect(await consultationCount()).toBe(before);
        // A check that cites nothing is answered as ever.
        expect((await post('check', { action: 'reports.read', resource: 'report:q3', scope: { region: 'eu' } }, gateway.url)).status).toBe(
          200,
        );
      } finally {
        await gateway.close();
      }
    }
  });

  describe("the ledger's internal route", () => {
    const internal = (token = TEST_INTERNAL_TOKEN) => new LedgerInternalClient({ baseUrl: stack.ledger.url, token });

    it("answers the tenant's fact with its parent, inclusion proof and checkpoint; another tenant's as not found", async () => {
      const cited = await internal().citedFact(t.id, sealed.fact_id);
      expect(cited).toMatchObject({
        fact: { fact_id: sealed.fact_id, sequence: 2 },
        parent: { sequence: 1, fact_hash: sealed.prev_hash },
        leaf_index: 1,
        tree_size: expect.any(Number),
        checkpoint: { stream_id: stream },
      });
      expect(await internal().citedFact(other.id, sealed.fact_id)).toBeNull();
      expect((await internal().ledgerKeys()).keys.length).toBeGreaterThan(0);
    });

    it('refuses a caller without the service token with 401', async () => {
      const res = await fetch(`${stack.ledger.url}/internal/v1/tenants/${t.id}/facts/${sealed.fact_id}`, {
        headers: { 'X-API-Key': t.agentKey },
      });
      expect(res.status).toBe(401);
    });
  });
});
