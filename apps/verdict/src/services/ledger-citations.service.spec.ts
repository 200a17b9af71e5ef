import { mintTenantId } from '@arbiter/auth';
import { LedgerUnavailableError, type CitedFact, type LedgerKeySet } from '@arbiter/internal-api';
import { MAX_CITED_FACTS, type CitedFactProof } from '../domain/ledger-citation';
import { citedProof, KYC_SEALER, ledgerKey, makeStream } from '../domain/ledger-proof.fixture';
import { LedgerCitationsService, unconfiguredCitationSource, type CitationSource } from './ledger-citations.service';

const TENANT = mintTenantId('tnt-0123456789abcdef01234567');
/** The caller: an agent of the tenant, acting for no one. */
const AGENT = { principalId: 'agn-000000000000000000000001' };
const key = ledgerKey();
const facts = makeStream(TENANT, 'kyc', [{ kyc: { country: 'DE' } }, { limit: 5000, tags: ['a'] }, { n: 2 }]);

/** A ledger stand-in answering proofs of `facts` for TENANT; counts its calls. */
function stubLedger(opts: { keys?: () => LedgerKeySet; proof?: (i: number) => CitedFactProof; down?: () => boolean } = {}) {
  const calls = { facts: 0, keys: 0 };
  const source: CitationSource = {
    async citedFact(tenantId, factId) {
      calls.facts++;
      if (opts.down?.()) throw new LedgerUnavailableError('ledger_unreachable', 'down');
      const i = facts.findIndex((f) => f.fact_id === factId);
      if (tenantId !== TENANT || i < 0) return null;
      return (opts.proof ?? ((n) => citedProof(facts, n, key)))(i) as unknown as CitedFact;
    },
    async ledgerKeys() {
      calls.keys++;
      if (opts.down?.()) throw new LedgerUnavailableError('ledger_unreachable', 'down');
      return (opts.keys ?? (() => key.keys))() as LedgerKeySet;
    },
  };
  return { source, calls };
}

const cite = (i: number, value: unknown, extra: Record<string, unknown> = {}) => ({
  value,
  source: `ledger:${facts[i].fact_id}`,
  ...extra,
});

describe(LedgerCitationsService.name, () => {
  it("verifies each citation and answers the record's entries: fact id, fact hash, stream and path", async () => {
    const { source } = stubLedger();
    const sut = new LedgerCitationsService(source);
    const citations = await sut.verify(
      TENANT,
      {
        'kyc.country': cite(0, 'DE'),
        country: cite(0, 'DE', { payload_path: 'kyc.country' }),
        tags: cite(1, ['a']),
        other: { value: 1, source: 'agent', verification_status: 'verified' },
      },
      AGENT,
    );
    expect(citations).toEqual({
      'kyc.country': {
        fact_id: facts[0].fact_id,
        fact_hash: facts[0].fact_hash,
        stream_id: 'kyc',
        sealed_by: KYC_SEALER,
        payload_path: 'kyc.country',
      },
      country: {
        fact_id: facts[0].fact_id,
        fact_hash: facts[0].fact_hash,
        stream_id: 'kyc',
        sealed_by: KYC_SEALER,
        payload_path: 'kyc.country',
      },
      tags: { fact_id: facts[1].fact_id, fact_hash: facts[1].fact_hash, stream_id: 'kyc', sealed_by: KYC_SEALER, payload_path: 'tags' },
    });
  });

  it('answers null without asking the ledger when no Fact cites it', async () => {
    const { source, calls } = stubLedger();
    expect(await new LedgerCitationsService(source).verify(TENANT, { a: { value: 1, source: 'agent' } }, AGENT)).toBeNull();
    expect(calls).toEqual({ facts: 0, keys: 0 });
  });

  it('asks the ledger once per fact: verified facts are cached, the least recently used leaving first', async () => {
    const { source, calls } = stubLedger();
    const sut = new LedgerCitationsService(source, { cacheSize: 2 });
    for (let round = 0; round < 3; round++) await sut.verify(TENANT, { 'kyc.country': cite(0, 'DE'), limit: cite(1, 5000) }, AGENT);
    expect(calls.facts).toBe(2);
    expect(calls.keys).toBe(1);
    await sut.verify(TENANT, { 'kyc.country': cite(0, 'DE') }, AGENT); // fact 0 is now the most recent
    await sut.verify(TENANT, { n: cite(2, 2) }, AGENT); // fact 1 leaves
    expect(sut.cached).toBe(2);
    await sut.verify(TENANT, { 'kyc.country': cite(0, 'DE') }, AGENT);
    expect(calls.facts).toBe(3);
    await sut.verify(TENANT, { limit: cite(1, 5000) }, AGENT);
    expect(calls.facts).toBe(4);
  });

  it.each([
    ['source ledger without a fact id', { f: { value: 1, source: 'ledger' } }, 'not_a_citation'],
    ['a malformed fact id', { f: { value: 1, source: 'ledger:fct-12' } }, 'not_a_citation'],
    ['an unknown fact', { f: { value: 1, source: 'ledger:fct-ffffffffffffffffffffffff' } }, 'fact_not_found'],
    ['a value the fact does not hold', { f: cite(0, 'CU', { payload_path: 'kyc.country' }) }, 'value_mismatch'],
    ['a path the fact does not have', { f: cite(0, 'DE') }, 'path_not_found'],
  ])('refuses %s with 400 invalid_ledger_citation naming context.<field>', async (_why, context, reason) => {
    const sut = new LedgerCitationsService(stubLedger().source);
    await expect(sut.verify(TENANT, context, AGENT)).rejects.toMatchObject({
      status: 400,
      code: 'invalid_ledger_citation',
      details: expect.objectContaining({ field: 'context.f', reason }),
    });
  });

  it('refuses a fact sealed by the caller or the principal it acts for (self_sealed), also from the cache, and one sealed before sealers were recorded (sealer_unknown)', async () => {
    const { source, calls } = stubLedger();
    const sut = new LedgerCitationsService(source);
    const country = { c: cite(0, 'DE', { payload_path: 'kyc.country' }) };
    expect(await sut.verify(TENANT, country, AGENT)).toMatchObject({ c: { sealed_by: KYC_SEALER } });
    // The fact is cached now: the sealer is checked against each call's caller all the same.
    for (const party of [{ principalId: KYC_SEALER }, { principalId: AGENT.principalId, onBehalfOf: KYC_SEALER }]) {
      await expect(sut.verify(TENANT, country, party)).rejects.toMatchObject({
        status: 400,
        code: 'invalid_ledger_citation',
        details: { field: 'context.c', reason: 'self_sealed', fact_id: facts[0].fact_id },
      });
    }
    expect(calls.facts).toBe(1);

    const legacy = makeStream(TENANT, 'old', [{ n: 1 }], () => null);
    const old = new LedgerCitationsService({
      citedFact: async () => citedProof(legacy, 0, key) as unknown as CitedFact,
      ledgerKeys: async () => key.keys as LedgerKeySet,
    });
    await expect(old.verify(TENANT, { n: { value: 1, source: `ledger:${legacy[0].fact_id}` } }, AGENT)).rejects.toMatchObject({
      status: 400,
      details: { field: 'context.n', reason: 'sealer_unknown' },
    });
  });

  it("does not cache a fact it could not find, and refuses another tenant's fact as not found", async () => {
    const { source, calls } = stubLedger();
    const sut = new LedgerCitationsService(source);
    const other = mintTenantId('tnt-ffffffffffffffffffffffff');
    for (let i = 0; i < 2; i++)
      await expect(sut.verify(other, { f: cite(0, 'DE', { payload_path: 'kyc.country' }) }, AGENT)).rejects.toMatchObject({
        details: { field: 'context.f', reason: 'fact_not_found', fact_id: facts[0].fact_id },
      });
    expect(calls.facts).toBe(2);
    expect(sut.cached).toBe(0);
  });

  it('refuses a proof that does not verify (proof_invalid) and caches nothing of it', async () => {
    const tampered = (i: number) => {
      const p = citedProof(facts, i, key);
      return { ...p, fact: { ...p.fact, custom_payload: { kyc: { country: 'CU' } } } };
    };
    const sut = new LedgerCitationsService(stubLedger({ proof: tampered }).source);
    await expect(sut.verify(TENANT, { c: cite(0, 'CU', { payload_path: 'kyc.country' }) }, AGENT)).rejects.toMatchObject({
      status: 400,
      details: { field: 'context.c', reason: 'proof_invalid', fact_id: facts[0].fact_id },
    });
    expect(sut.cached).toBe(0);
  });

  it('reads the key set again when a checkpoint names a key made since (rotation)', async () => {
    const rotated = ledgerKey('ledger:2026.1');
    let published = key.keys;
    const { source, calls } = stubLedger({ keys: () => published, proof: (i) => citedProof(facts, i, i === 2 ? rotated : key) });
    const sut = new LedgerCitationsService(source);
    await sut.verify(TENANT, { n: cite(1, 5000, { payload_path: 'limit' }) }, AGENT);
    published = { keys: [...key.keys.keys, ...rotated.keys.keys] };
    await sut.verify(TENANT, { n: cite(2, 2) }, AGENT);
    expect(calls.keys).toBe(2);
  });

  it('refuses more than MAX_CITED_FACTS distinct facts in one request', async () => {
    const many = makeStream(
      TENANT,
      'many',
      Array.from({ length: MAX_CITED_FACTS + 1 }, (_, n) => ({ n })),
    );
    const context = Object.fromEntries(many.map((f, n) => [`f${n}`, { value: n, source: `ledger:${f.fact_id}`, payload_path: 'n' }]));
    await expect(new LedgerCitationsService(stubLedger().source).verify(TENANT, context, AGENT)).rejects.toMatchObject({
      status: 400,
      details: { field: `context.f${MAX_CITED_FACTS}`, reason: 'too_many_citations' },
    });
  });

  it('answers 503 ledger_unavailable when the ledger cannot be asked or is not configured: never verified', async () => {
    let down = true;
    const sut = new LedgerCitationsService(stubLedger({ down: () => down }).source);
    await expect(sut.verify(TENANT, { f: cite(0, 'DE', { payload_path: 'kyc.country' }) }, AGENT)).rejects.toMatchObject({
      status: 503,
      code: 'ledger_unavailable',
      headers: { 'Retry-After': '5' },
    });
    down = false;
    expect(await sut.verify(TENANT, { f: cite(0, 'DE', { payload_path: 'kyc.country' }) }, AGENT)).toMatchObject({
      f: { fact_id: facts[0].fact_id },
    });
    await expect(new LedgerCitationsService(unconfiguredCitationSource).verify(TENANT, { f: cite(0, 'DE') }, AGENT)).rejects.toMatchObject({
      status: 503,
      code: 'ledger_unavailable',
    });
  });
});
