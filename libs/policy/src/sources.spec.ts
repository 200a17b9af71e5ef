import { acceptedSource, compileSources, intersectSources, isLedgerSourceEntry, sourceEntryProblem } from './sources';
import type { Fact } from './types';

const ledgerFact = (stream: string): Fact => ({ value: 1, source: 'ledger', verification_status: 'verified', ledger_stream: stream });

describe(sourceEntryProblem.name, () => {
  it('accepts plain sources, ledger, and ledger:<stream glob> of stream id characters and wildcards', () => {
    for (const entry of [
      'kyc',
      '',
      'Ledger',
      'ledger',
      'ledger:kyc-*',
      'ledger:orders',
      'ledger:arbiter.*.rules',
      'ledger:a?b:c_d.e-f',
      `ledger:${'x'.repeat(128)}`,
    ]) {
      expect(sourceEntryProblem(entry)).toBeNull();
    }
  });

  it('refuses ledger: without a glob, with a character no stream id has, or longer than a stream id', () => {
    for (const entry of ['ledger:', 'ledger:kyc/*', 'ledger:kyc *', 'ledger:[a-z]*', `ledger:${'x'.repeat(129)}`]) {
      expect(sourceEntryProblem(entry)).toMatch(/ledger:<stream glob> needs a glob of 1 to 128/);
    }
  });
});

describe(compileSources.name, () => {
  it('compares plain sources as written and matches ledger globs against the cited stream', () => {
    const sut = compileSources(['crm', 'ledger:kyc-*']);
    expect(sut({ value: 1, source: 'crm' })).toBe(true);
    expect(sut(ledgerFact('kyc-checks'))).toBe(true);
    expect(sut(ledgerFact('kyc-'))).toBe(true);
    expect(sut(ledgerFact('orders'))).toBe(false);
    expect(sut(ledgerFact('KYC-checks'))).toBe(false);
    expect(sut({ value: 1, source: 'ledger' })).toBe(false);
    expect(sut({ value: 1, source: 'ledger:kyc-*' })).toBe(false);
  });

  it('accepts a ledger Fact of any stream under ledger', () => {
    expect(compileSources(['ledger'])(ledgerFact('orders'))).toBe(true);
    expect(compileSources(['ledger:*'])(ledgerFact('orders'))).toBe(true);
    expect(compileSources([])(ledgerFact('orders'))).toBe(false);
  });

  it("accepts a fact of the services' audit streams only under a glob that names them (an agent steers what they say)", () => {
    const approvals = ledgerFact('arbiter.tnt-1.approvals');
    for (const entries of [
      ['ledger'],
      ['ledger:*'],
      ['ledger:arb*'],
      ['ledger:*approvals'],
      ['ledger', 'ledger:kyc-*'],
      ['crm', 'ledger'],
    ]) {
      expect([entries, compileSources(entries)(approvals)]).toEqual([entries, false]);
    }
    for (const entries of [['ledger:arbiter.*'], ['ledger:arbiter.tnt-1.approvals'], ['ledger', 'ledger:arbiter.*.approvals']]) {
      expect([entries, compileSources(entries)(approvals)]).toEqual([entries, true]);
    }
    expect(compileSources(['ledger:arbiter.*'])(ledgerFact('orders'))).toBe(false);
    // A stream merely named like one (no tenant key may seal into arbiter.…, so only a service's stream is).
    expect(compileSources(['ledger'])(ledgerFact('arbiterx'))).toBe(true);
    // A ledger Fact of a record made before streams were named: as before, plain ledger only.
    expect(compileSources(['ledger'])({ value: 1, source: 'ledger' })).toBe(true);
    expect(compileSources(['ledger:*'])({ value: 1, source: 'ledger' })).toBe(false);
  });
});

describe(intersectSources.name, () => {
  it('keeps what both lists accept: a stream glob is within ledger, two different globs are not intersected', () => {
    expect(intersectSources(['a', 'b'], ['b', 'c'])).toEqual(['b']);
    expect(intersectSources(['ledger'], ['ledger:kyc-*'])).toEqual(['ledger:kyc-*']);
    expect(intersectSources(['ledger:kyc-*', 'crm'], ['ledger', 'crm'])).toEqual(['ledger:kyc-*', 'crm']);
    expect(intersectSources(['ledger:kyc-*'], ['ledger:kyc-eu-*'])).toEqual([]);
    expect(intersectSources(['ledger'], ['ledger:arbiter.*'])).toEqual([]);
  });
});

describe(acceptedSource.name, () => {
  it("keeps the existing Fact's source when accepted, else the first entry's, a stream the glob matches for a ledger glob", () => {
    expect(acceptedSource(['ledger:kyc-*'], ledgerFact('kyc-eu'))).toEqual({ source: 'ledger', ledger_stream: 'kyc-eu' });
    expect(acceptedSource(['ledger:kyc-?x*'], null)).toEqual({ source: 'ledger', ledger_stream: 'kyc-xx' });
    expect(compileSources(['ledger:kyc-?x*'])({ value: 1, ...acceptedSource(['ledger:kyc-?x*'], null)! })).toBe(true);
    expect(acceptedSource(['crm', 'ledger'], { value: 1, source: 'kyc' })).toEqual({ source: 'crm' });
    expect(acceptedSource(['ledger:'], null)).toBeNull();
    expect(acceptedSource([], null)).toBeNull();
  });

  it('names ledger and its globs as entries a ledger citation can meet', () => {
    expect(['ledger', 'ledger:kyc-*', 'kyc', 'Ledger', 'ledgers'].map(isLedgerSourceEntry)).toEqual([true, true, false, false, false]);
  });
});
