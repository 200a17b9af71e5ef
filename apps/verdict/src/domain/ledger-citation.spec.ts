import {
  citedFactId,
  claimsLedger,
  engineContext,
  ledgerCitationMeets,
  proofProblem,
  sealerProblem,
  valueProblem,
  citationContradiction,
} from './ledger-citation';
import { citedProof, factHashOf, KYC_SEALER, ledgerKey, makeStream } from './ledger-proof.fixture';

const TENANT = 'tnt-0123456789abcdef01234567';
const STREAM = 'kyc-2026';
const key = ledgerKey();
const facts = makeStream(TENANT, STREAM, [{ n: 0 }, { kyc: { country: 'DE' } }, { n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }, { n: 6 }]);

describe(proofProblem.name, () => {
  it('accepts every fact of a 7-fact stream: hash, parent, inclusion path and checkpoint signature, made by another implementation', () => {
    for (let i = 0; i < facts.length; i++) expect(proofProblem(citedProof(facts, i, key), key.keys, TENANT, facts[i].fact_id)).toBeNull();
  });

  it('refuses an answer about another fact, or a fact of another tenant', () => {
    const proof = citedProof(facts, 1, key);
    expect(proofProblem(proof, key.keys, TENANT, facts[2].fact_id)).toMatch(/another fact/);
    expect(proofProblem(proof, key.keys, 'tnt-ffffffffffffffffffffffff', facts[1].fact_id)).toMatch(/another tenant/);
  });

  it('accepts facts sealed before the ledger recorded sealers (no sealed_by) chained with facts that have one', () => {
    const mixed = makeStream(TENANT, STREAM, [{ n: 0 }, { n: 1 }, { n: 2 }], (i) => (i < 2 ? null : KYC_SEALER));
    for (let i = 0; i < mixed.length; i++) expect(proofProblem(citedProof(mixed, i, key), key.keys, TENANT, mixed[i].fact_id)).toBeNull();
  });

  it.each([
    ['changed to another principal', 'agn-00000000000000000000beef'],
    ['removed', null],
  ])('refuses a fact whose sealed_by was %s after sealing: fact_hash covers it', (_how, sealedBy) => {
    const proof = citedProof(facts, 1, key);
    proof.fact = { ...proof.fact, sealed_by: sealedBy };
    expect(proofProblem(proof, key.keys, TENANT, facts[1].fact_id)).toMatch(/does not hash to its fact_hash/);
  });

  it('refuses a fact whose payload was changed after sealing', () => {
    const proof = citedProof(facts, 1, key);
    proof.fact = { ...proof.fact, custom_payload: { kyc: { country: 'CU' } } };
    expect(proofProblem(proof, key.keys, TENANT, facts[1].fact_id)).toMatch(/does not hash to its fact_hash/);
  });

  it('refuses a fact re-hashed after a change: its prev_hash no longer meets the parent, or the leaf the path', () => {
    const proof = citedProof(facts, 1, key);
    const changed = { ...proof.fact, custom_payload: { kyc: { country: 'CU' } } };
    proof.fact = { ...changed, fact_hash: factHashOf(changed) };
    expect(proofProblem(proof, key.keys, TENANT, facts[1].fact_id)).toMatch(/inclusion path does not lead/);
    const forgedParent = citedProof(facts, 1, key);
    forgedParent.parent = { ...forgedParent.parent!, custom_payload: { n: 99 } };
    forgedParent.parent.fact_hash = factHashOf(forgedParent.parent);
    expect(proofProblem(forgedParent, key.keys, TENANT, facts[1].fact_id)).toMatch(/prev_hash is not its parent's hash/);
  });

  it('refuses a parent that is not the fact before it, and a missing parent for a later fact', () => {
    const wrongParent = citedProof(facts, 3, key);
    wrongParent.parent = facts[1];
    expect(proofProblem(wrongParent, key.keys, TENANT, facts[3].fact_id)).toMatch(/not the fact before it/);
    const noParent = citedProof(facts, 3, key);
    noParent.parent = null;
    expect(proofProblem(noParent, key.keys, TENANT, facts[3].fact_id)).toMatch(/not the first of its stream/);
  });

  it('refuses a wrong leaf_index, a tampered path, and a checkpoint of another root, size or stream', () => {
    const index = citedProof(facts, 4, key);
    index.leaf_index = 3;
    expect(proofProblem(index, key.keys, TENANT, facts[4].fact_id)).toMatch(/leaf_index 3/);
    const pathed = citedProof(facts, 4, key);
    pathed.inclusion_path = [...pathed.inclusion_path].reverse();
    expect(proofProblem(pathed, key.keys, TENANT, facts[4].fact_id)).toMatch(/inclusion path does not lead/);
    const rooted = citedProof(facts, 4, key);
    rooted.checkpoint = { ...rooted.checkpoint, root_hash: facts[0].fact_hash };
    expect(proofProblem(rooted, key.keys, TENANT, facts[4].fact_id)).toMatch(/checkpoint does not verify/);
    const sized = citedProof(facts, 4, key);
    sized.tree_size = 6;
    expect(proofProblem(sized, key.keys, TENANT, facts[4].fact_id)).toMatch(/checkpoint does not verify/);
    const streamed = citedProof(
      makeStream(
        TENANT,
        'other',
        facts.map((f) => f.custom_payload),
      ),
      4,
      key,
    );
    streamed.fact = { ...streamed.fact };
    expect(proofProblem({ ...streamed, fact: facts[4], parent: facts[3] }, key.keys, TENANT, facts[4].fact_id)).toMatch(
      /checkpoint does not verify/,
    );
  });

  it('refuses a checkpoint signed by a key the ledger does not publish', () => {
    const stranger = ledgerKey();
    expect(proofProblem(citedProof(facts, 2, stranger), key.keys, TENANT, facts[2].fact_id)).toMatch(/checkpoint does not verify/);
    expect(proofProblem(citedProof(facts, 2, key), { keys: [] }, TENANT, facts[2].fact_id)).toMatch(/checkpoint does not verify/);
  });

  it('answers a problem, never throws, for an answer of the wrong shape', () => {
    expect(proofProblem({} as never, key.keys, TENANT, facts[0].fact_id)).toMatch(/another fact/);
    const broken = citedProof(facts, 2, key);
    broken.inclusion_path = ['nope'];
    expect(proofProblem(broken, key.keys, TENANT, facts[2].fact_id)).toMatch(/not a list of sha256 digests/);
  });
});

describe(citedFactId.name, () => {
  it('reads ledger:<fct id> and nothing else', () => {
    expect(citedFactId('ledger:fct-0123456789abcdef01234567')).toBe('fct-0123456789abcdef01234567');
    for (const s of ['ledger', 'ledger:', 'ledger:fct-1', 'ledger:FCT-0123456789ABCDEF01234567', 'kyc:fct-0123456789abcdef01234567'])
      expect(citedFactId(s)).toBeNull();
  });

  it('counts ledger and ledger:… as claims of the ledger, other sources not', () => {
    expect(['ledger', 'ledger:x', 'ledger:fct-0123456789abcdef01234567'].map(claimsLedger)).toEqual([true, true, true]);
    expect(['kyc', 'Ledger', 'ledgers', 'my-ledger'].map(claimsLedger)).toEqual([false, false, false, false]);
  });
});

describe(sealerProblem.name, () => {
  const party = { principalId: 'agn-000000000000000000000001', onBehalfOf: 'hum-000000000000000000000002' };

  it('refuses a fact sealed by the caller or by the principal it acts for, and one whose sealer is unknown', () => {
    expect(sealerProblem('agn-000000000000000000000001', party)).toBe('self_sealed');
    expect(sealerProblem('hum-000000000000000000000002', party)).toBe('self_sealed');
    expect(sealerProblem(null, party)).toBe('sealer_unknown');
    expect(sealerProblem(undefined, party)).toBe('sealer_unknown');
    expect(sealerProblem('', party)).toBe('sealer_unknown');
  });

  it('accepts another principal, the services, and any sealer when the caller acts for no one', () => {
    expect(sealerProblem(KYC_SEALER, party)).toBeNull();
    expect(sealerProblem('service:internal', party)).toBeNull();
    expect(sealerProblem('hum-000000000000000000000002', { principalId: 'agn-000000000000000000000001' })).toBeNull();
    expect(sealerProblem('hum-000000000000000000000002', { principalId: 'agn-000000000000000000000001', onBehalfOf: null })).toBeNull();
  });
});

describe(valueProblem.name, () => {
  it('compares the value at the path with JSON equality', () => {
    const payload = { kyc: { country: 'DE', limits: { daily: 1000, currencies: ['EUR', 'USD'] } } };
    expect(valueProblem(payload, 'kyc.country', 'DE')).toBeNull();
    expect(valueProblem(payload, 'kyc.limits', { currencies: ['EUR', 'USD'], daily: 1000.0 })).toBeNull();
    expect(valueProblem(payload, 'kyc.country', 'CU')).toBe('value_mismatch');
    expect(valueProblem(payload, 'kyc.limits.daily', '1000')).toBe('value_mismatch');
    expect(valueProblem(payload, 'kyc.city', null)).toBe('path_not_found');
  });
});

describe(engineContext.name, () => {
  const citation = { fact_id: 'fct-1', fact_hash: 'sha256:x', stream_id: 's', sealed_by: KYC_SEALER, payload_path: 'kyc.country' };

  it('makes only the verified fields ledger Facts, verified, of the cited stream, keeping value, confidence and as_of', () => {
    const context = {
      'beneficiary.country': {
        value: 'DE',
        source: 'ledger:fct-1',
        payload_path: 'kyc.country',
        verification_status: 'unverified' as const,
        as_of: '2026-01-01T00:00:00Z',
      },
      amount: { value: 5, source: 'agent', verification_status: 'verified' as const },
    };
    expect(engineContext(context, { 'beneficiary.country': citation })).toEqual({
      'beneficiary.country': {
        value: 'DE',
        source: 'ledger',
        verification_status: 'verified',
        ledger_stream: 's',
        as_of: '2026-01-01T00:00:00Z',
      },
      amount: context.amount,
    });
    expect(engineContext(context, null)).toBe(context);
  });
});

describe(ledgerCitationMeets.name, () => {
  it('holds for verified or ledger-accepting provenance, not without provenance or when ledger is not accepted', () => {
    expect(ledgerCitationMeets({ source_requirement: 'verified' })).toBe(true);
    expect(ledgerCitationMeets({ acceptable_sources: ['ledger', 'kyc'] })).toBe(true);
    expect(ledgerCitationMeets({ source_requirement: 'verified', acceptable_sources: ['ledger'] })).toBe(true);
    expect(ledgerCitationMeets({ source_requirement: 'verified', acceptable_sources: ['ledger:kyc-*'] })).toBe(true);
    expect(ledgerCitationMeets({})).toBe(false);
    expect(ledgerCitationMeets({ source_requirement: 'unverified' })).toBe(false);
    expect(ledgerCitationMeets({ source_requirement: 'verified', acceptable_sources: ['kyc'] })).toBe(false);
  });
});

describe(citationContradiction.name, () => {
  const payload = { customer: { id: 'cust-A', kyc_level: 3, tags: ['vip'] }, result: { level: 2, by: 'kyc-7' } };

  it('lines the payload up where the Fact and the payload path end alike, and names the first value the request contradicts', () => {
    // customer.kyc_level at customer.kyc_level: the payload stands at the request's root.
    expect(citationContradiction(payload, 'customer.kyc_level', 'customer.kyc_level', {}, { customer: { id: 'cust-B' } })).toEqual({
      path: 'customer.id',
      request: 'cust-B',
      fact: 'cust-A',
    });
    // A Fact keyed by the path is read before the parameters, as rules read it.
    expect(
      citationContradiction(
        payload,
        'customer.kyc_level',
        'customer.kyc_level',
        { 'customer.id': { value: 'cust-B' } },
        {
          customer: { id: 'cust-A' },
        },
      ),
    ).toMatchObject({ path: 'customer.id', request: 'cust-B' });
    // kyc.level at result.level: the payload's result stands at the request's kyc.
    expect(citationContradiction(payload, 'kyc.level', 'result.level', {}, { kyc: { by: 'me' } })).toEqual({
      path: 'kyc.by',
      request: 'me',
      fact: 'kyc-7',
    });
    expect(citationContradiction(payload, 'customer.tags', 'customer.tags', {}, { customer: { tags: ['vip', 'x'] } })).toBeNull();
  });

  it('is null when the request agrees, says nothing at those paths, or the paths end differently', () => {
    expect(
      citationContradiction(payload, 'customer.kyc_level', 'customer.kyc_level', {}, { customer: { id: 'cust-A' }, amount: 5 }),
    ).toBeNull();
    expect(citationContradiction(payload, 'customer.kyc_level', 'customer.kyc_level', {}, {})).toBeNull();
    expect(citationContradiction(payload, 'kyc_level', 'result.level', {}, { customer: { id: 'cust-B' } })).toBeNull();
  });
});
