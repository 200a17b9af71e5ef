import { ledgerFactHash, verifyLedgerBundle } from './ledger-bundle';

// The worked example of docs/ledger-formats.md, byte for byte: two facts, a bundle signed with the
// RFC 8032 section 7.1 TEST 1 key.
const tenant = 'tnt-0123456789abcdef01234567';
const facts = [
  {
    fact_id: 'fct-000000000000000000000001',
    actor: 'agent:billing',
    sealed_at_ms: 1795308744138,
    sealed_at_iso: new Date(1795308744138).toISOString(),
    custom_payload: { currency: 'EUR', amount: 12.5, note: 'café ✓', lines: [{ sku: 'A-1', qty: 2 }] },
  },
  {
    fact_id: 'fct-000000000000000000000002',
    actor: 'human:alice',
    sealed_at_ms: 1795308744139,
    sealed_at_iso: new Date(1795308744139).toISOString(),
    custom_payload: {},
  },
];
const fullFacts = [
  {
    ...facts[0],
    stream_id: 'orders-2026',
    tenant_id: tenant,
    prev_hash: `sha256:${'0'.repeat(64)}`,
    parent_fact_id: null,
    fact_hash: 'sha256:867ad1a4602871ac88e4dce2dfab7f7b7e0096ce6c20f11029ad5e3fd4d50286',
  },
  {
    ...facts[1],
    stream_id: 'orders-2026',
    tenant_id: tenant,
    prev_hash: 'sha256:867ad1a4602871ac88e4dce2dfab7f7b7e0096ce6c20f11029ad5e3fd4d50286',
    parent_fact_id: 'fct-000000000000000000000001',
    fact_hash: 'sha256:394ff394b82a5ca98bfe85e9299834a8dc20399acdde40980ce69bc568d6c33f',
  },
];
const bundle = {
  bundle_id: 'bnd-000000000000000000000001',
  stream_id: 'orders-2026',
  tenant_id: tenant,
  bundle_version: 1,
  head_fact_id: 'fct-000000000000000000000002',
  head_hash: 'sha256:394ff394b82a5ca98bfe85e9299834a8dc20399acdde40980ce69bc568d6c33f',
  facts_manifest: ['fct-000000000000000000000001', 'fct-000000000000000000000002'],
  created_at_ms: 1795308745000,
  created_at_iso: '2026-11-22T00:52:25.000Z',
  signature_alg: 'ed25519',
  key_id: 'ledger:2026',
  signature: 'euBIAclqLk2mOzk3uKGHcLMA2HplkbIHYyGnJTLNRuRpx84UKtcZizaeBQCE1WuDkgMpRe3BaiB64WuAmtykAg==',
};
const keys = {
  keys: [
    {
      kid: 'ledger:2026',
      kty: 'OKP',
      crv: 'Ed25519',
      x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
      alg: 'EdDSA',
      use: 'sig',
      not_before: '2026-01-01T00:00:00.000Z',
      not_after: null,
    },
  ],
};

const failed = (r: ReturnType<typeof verifyLedgerBundle>) => r.checks.find((c) => c.status === 'fail');

describe(verifyLedgerBundle.name, () => {
  const sut = verifyLedgerBundle;

  it('verifies the worked example of docs/ledger-formats.md from list entries', () => {
    const report = sut({ bundle, keys, facts });
    expect(report).toMatchObject({ valid: true, facts_verified: 2, facts_in_manifest: 2 });
    expect(report.checks.map((c) => `${c.check}:${c.status}`)).toEqual(['shape:pass', 'key:pass', 'signature:pass', 'chain:pass']);
  });

  it("names the bundle's tenant, and fails a bundle of another tenant than the trust file's", () => {
    const own = sut({ bundle, keys, facts, tenantId: tenant });
    expect(own.valid).toBe(true);
    expect(own.checks[0].message).toContain(`of tenant "${tenant}"`);
    // The same ledger keys sign every tenant's bundles: a valid bundle of another tenant is not this tenant's data.
    const other = sut({ bundle, keys, facts, tenantId: 'tnt-somebodyelse' });
    expect(other.valid).toBe(false);
    expect(failed(other)).toMatchObject({
      check: 'tenant',
      message: expect.stringContaining(`is of tenant "${tenant}", not of tnt-somebodyelse`),
    });
  });

  it('verifies full facts field by field', () => {
    expect(sut({ bundle, keys, facts: fullFacts })).toMatchObject({ valid: true, facts_verified: 2 });
  });

  it('fails a changed signed field with a signature failure', () => {
    const report = sut({ bundle: { ...bundle, head_fact_id: 'fct-000000000000000000000001' }, keys, facts });
    expect(failed(report)).toMatchObject({ check: 'signature', message: expect.stringContaining('does not verify with key ledger:2026') });
  });

  it('fails a changed byte of a fact payload, naming the fact when full facts are given', () => {
    const tampered = structuredClone(fullFacts);
    (tampered[1] as Record<string, unknown>).custom_payload = { x: 1 };
    expect(failed(sut({ bundle, keys, facts: tampered }))?.message).toMatch(
      /chain broken at fact fct-000000000000000000000002 \(position 2\): fact_hash .*differs from what was sealed/,
    );
    const entries = structuredClone(facts);
    entries[0].custom_payload.note = 'cafe ✓';
    expect(failed(sut({ bundle, keys, facts: entries }))?.message).toContain('not at the signed head_hash');
  });

  it('fails a reordered chain, saying the facts are out of order', () => {
    const report = sut({ bundle, keys, facts: [facts[1], facts[0]] });
    expect(failed(report)?.message).toBe(
      'chain broken at fact fct-000000000000000000000002 (position 1): the manifest has fct-000000000000000000000001 at this position; the manifest has it at position 2: the facts are out of order',
    );
  });

  it('fails a key id that is not published, and a bundle made outside its key window', () => {
    expect(failed(sut({ bundle: { ...bundle, key_id: 'ledger:1999' }, keys, facts }))).toMatchObject({
      check: 'key',
      message: expect.stringContaining('ledger:1999 is not among the published'),
    });
    const retired = { keys: [{ ...keys.keys[0], not_after: '2026-06-01T00:00:00.000Z' }] };
    expect(failed(sut({ bundle, keys: retired, facts }))).toMatchObject({
      check: 'key',
      message: expect.stringContaining('was not valid when the bundle was made'),
    });
  });

  it('fails a key whose window names a day the calendar lacks, or a time without an offset', () => {
    // Date.parse read 2026-02-30 as March 2 (a retired key valid two days longer) and a local time in the verifier's zone.
    for (const window of [{ not_after: '2026-02-30T00:00:00.000Z' }, { not_before: '2026-01-01T00:00:00' }, { not_before: null }]) {
      expect([window, failed(sut({ bundle, keys: { keys: [{ ...keys.keys[0], ...window }] }, facts }))]).toEqual([
        window,
        expect.objectContaining({ check: 'key', message: expect.stringContaining('unreadable validity window') }),
      ]);
    }
  });

  it('fails a bundle with an unsigned extra field, and too few facts', () => {
    expect(failed(sut({ bundle: { ...bundle, note: 'x' }, keys, facts }))?.message).toContain('unknown fields note');
    expect(failed(sut({ bundle, keys, facts: facts.slice(0, 1) }))?.message).toBe('the bundle covers 2 facts but 1 were given');
  });

  it('ignores facts sealed after the bundle', () => {
    const later = {
      ...facts[1],
      fact_id: 'fct-000000000000000000000003',
      sealed_at_ms: 1795308749999,
      sealed_at_iso: new Date(1795308749999).toISOString(),
    };
    const report = sut({ bundle, keys, facts: [...facts, later] });
    expect(report.valid).toBe(true);
    expect(report.checks.at(-1)).toMatchObject({ status: 'info', message: '1 facts sealed after the bundle were not checked' });
  });
});

describe(ledgerFactHash.name, () => {
  const stream = { stream_id: 'orders-2026', tenant_id: tenant };
  const genesis = `sha256:${'0'.repeat(64)}`;

  it('hashes sealed_by as an eighth member when the fact has one (the second worked example of docs/ledger-formats.md "fact_hash")', () => {
    expect(ledgerFactHash({ ...facts[0], sealed_by: 'agn-0123456789abcdef01234567' }, stream, genesis)).toBe(
      'sha256:a76b70c88170fd1baa8694fd4a3b6439c349dca0181d8fc7e27db12ccb8e1629',
    );
  });

  it('hashes the seven members when sealed_by is null or absent (facts sealed before the ledger recorded sealers)', () => {
    expect(ledgerFactHash({ ...facts[0], sealed_by: null }, stream, genesis)).toBe(fullFacts[0].fact_hash);
    expect(ledgerFactHash(facts[0], stream, genesis)).toBe(fullFacts[0].fact_hash);
  });
});
