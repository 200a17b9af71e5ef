import { PolicyCompileError } from './errors';
import { ISO_3166_ALPHA2 } from './iso-countries';
import fc from 'fast-check';
import { compileRequirement, describeProblem, isEmail, mergeRequirements, validateRequirement } from './requirements';
import type { Fact, Requirement } from './types';

const fact = (value: unknown, extra: Partial<Fact> = {}): Fact => ({ value, source: 'crm', ...extra });
const check = (r: Omit<Requirement, 'field'>, value: unknown, f: Fact | null = fact(value)) =>
  compileRequirement({ field: 'f', ...r })?.(value, f) ?? null;

describe(compileRequirement.name, () => {
  it('constrains nothing without checkable bounds (unknown types and formats are hints)', () => {
    expect(compileRequirement({ field: 'f', type: 'any' })).toBeNull();
    expect(compileRequirement({ field: 'f', type: 'money', format: 'ledger-code' })).toBeNull();
  });

  describe('source_requirement', () => {
    it('needs verification_status verified', () => {
      expect(check({ type: 'any', source_requirement: 'verified' }, 1, fact(1, { verification_status: 'verified' }))).toBeNull();
      expect(check({ type: 'any', source_requirement: 'verified' }, 1, fact(1, { verification_status: 'unverified' }))).toBe(
        'not_verified',
      );
      expect(check({ type: 'any', source_requirement: 'verified' }, 1, fact(1))).toBe('not_verified');
    });

    it('fails a value that is not a Fact (a check parameter carries no provenance)', () => {
      expect(check({ type: 'any', source_requirement: 'verified' }, 1, null)).toBe('not_verified');
    });

    it('unverified asks for nothing', () => {
      expect(compileRequirement({ field: 'f', type: 'any', source_requirement: 'unverified' })).toBeNull();
    });
  });

  describe('acceptable_sources', () => {
    it('needs the Fact source in the list', () => {
      expect(check({ type: 'any', acceptable_sources: ['crm', 'kyc'] }, 1, fact(1, { source: 'kyc' }))).toBeNull();
      expect(check({ type: 'any', acceptable_sources: ['crm', 'kyc'] }, 1, fact(1, { source: 'agent' }))).toBe('source_not_accepted');
      expect(check({ type: 'any', acceptable_sources: ['crm'] }, 1, null)).toBe('source_not_accepted');
    });

    it('accepts a verified ledger citation under ledger (any stream) and ledger:<stream glob> (a matching stream only)', () => {
      const cited = (stream: string) => fact(1, { source: 'ledger', verification_status: 'verified', ledger_stream: stream });
      expect(check({ type: 'any', acceptable_sources: ['ledger'] }, 1, cited('orders'))).toBeNull();
      expect(check({ type: 'any', acceptable_sources: ['ledger:kyc-*'] }, 1, cited('kyc-checks'))).toBeNull();
      expect(check({ type: 'any', acceptable_sources: ['ledger:kyc-*'] }, 1, cited('orders'))).toBe('source_not_accepted');
      expect(check({ type: 'any', acceptable_sources: ['crm', 'ledger:kyc-?', 'ledger:audit.*'] }, 1, cited('audit.2026'))).toBeNull();
      expect(check({ type: 'any', acceptable_sources: ['ledger:KYC-*'] }, 1, cited('kyc-checks'))).toBe('source_not_accepted');
    });

    it('never lets a Fact that is no ledger citation meet ledger:<stream glob>, whatever its members say', () => {
      for (const f of [
        fact(1, { source: 'ledger:kyc-*' }),
        fact(1, { source: 'crm', ledger_stream: 'kyc-checks' }),
        fact(1, { source: 'ledger' }),
      ]) {
        expect(check({ type: 'any', acceptable_sources: ['ledger:kyc-*'] }, 1, f)).toBe('source_not_accepted');
      }
      // A malformed entry accepts nothing.
      expect(check({ type: 'any', acceptable_sources: ['ledger:'] }, 1, fact(1, { source: 'ledger', ledger_stream: '' }))).toBe(
        'source_not_accepted',
      );
    });
  });

  describe('confidence_threshold', () => {
    it('needs a confidence at or above the threshold; a Fact without one does not meet it', () => {
      expect(check({ type: 'any', confidence_threshold: 0.8 }, 1, fact(1, { confidence: 0.8 }))).toBeNull();
      expect(check({ type: 'any', confidence_threshold: 0.8 }, 1, fact(1, { confidence: 0.95 }))).toBeNull();
      expect(check({ type: 'any', confidence_threshold: 0.8 }, 1, fact(1, { confidence: 0.79 }))).toBe('confidence_below_threshold');
      expect(check({ type: 'any', confidence_threshold: 0.8 }, 1, fact(1))).toBe('confidence_below_threshold');
      expect(check({ type: 'any', confidence_threshold: 0 }, 1, null)).toBe('confidence_below_threshold');
    });
  });

  describe('type', () => {
    it.each([
      ['string', 'x', 1],
      ['number', 1.5, '1.5'],
      ['number', 0, Number.POSITIVE_INFINITY],
      ['integer', 3, 3.5],
      ['boolean', false, 'false'],
      ['date', '2026-02-28', '2026-02-30'],
      ['date', '2026-02-28T10:00:00Z', '28/02/2026'],
      ['date-time', '2026-02-28T10:00:00.123+05:30', '2026-02-28'],
      ['datetime', '2026-02-28T10:00:00Z', '2026-02-28T25:00:00Z'],
      // A leap second names no instant the comparison can place: refused, so a rule reading it fails closed.
      ['datetime', '2026-11-30T23:59:59Z', '2026-11-30T23:59:60Z'],
      ['timestamp', '2026-11-15T10:00:59+00:00', '2026-11-15T10:00:60+00:00'],
      ['date', '2026-11-15T10:00:59Z', '2026-11-15T10:00:60Z'],
      ['array', [1], { 0: 1 }],
      ['object', { a: 1 }, [1]],
      ['object', { a: 1 }, null],
      ['enum', 'a', { a: 1 }],
      ['Number', 1, 'one'],
    ])('type %s accepts %j and refuses %j', (type, good, bad) => {
      expect(check({ type }, good)).toBeNull();
      expect(check({ type }, bad)).toBe('wrong_type');
    });
  });

  it('allowed_values needs a member (structural equality)', () => {
    expect(check({ type: 'enum', allowed_values: ['low', 'high'] }, 'low')).toBeNull();
    expect(check({ type: 'enum', allowed_values: ['low', 'high'] }, 'medium')).toBe('value_not_allowed');
    expect(check({ type: 'any', allowed_values: [{ a: 1 }] }, { a: 1 })).toBeNull();
  });

  it('min and max bound numbers inclusively and refuse non-numbers', () => {
    const r = { type: 'number', min: 0, max: 100 };
    expect(check(r, 0)).toBeNull();
    expect(check(r, 100)).toBeNull();
    expect(check(r, -0.1)).toBe('below_min');
    expect(check(r, 100.1)).toBe('above_max');
    expect(check({ type: 'any', min: 1 }, '5')).toBe('wrong_type');
    expect(check({ type: 'any', max: 1 }, 0)).toBeNull();
  });

  describe('format', () => {
    it.each([
      ['date', '2024-02-29', '2023-02-29'],
      ['ISO date', '2026-12-31', '2026-12-31T00:00:00Z'],
      ['iso_8601_date', '2026-01-01', '2026-1-1'],
      ['date-time', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00'],
      ['iso8601', '2026-01-01T00:00:59Z', '2026-01-01T00:60:00Z'],
      ['iso8601', '2026-01-01T00:00:59.5Z', '2026-01-01T00:00:60Z'],
      ['iso-country', 'DE', 'de'],
      ['ISO 3166-1 alpha-2', 'KP', 'XX'],
      ['country', 'GB', 'UK'],
      ['iso-currency', 'EUR', 'eur'],
      ['uuid', '123e4567-e89b-12d3-a456-426614174000', '123e4567e89b12d3a456426614174000'],
      ['email', 'a@b.example', 'a@b'],
    ])('format %s accepts %j and refuses %j', (format, good, bad) => {
      expect(check({ type: 'any', format }, good)).toBeNull();
      expect(check({ type: 'any', format }, bad)).toBe('bad_format');
    });

    it('refuses a non-string for a string format', () => {
      expect(check({ type: 'any', format: 'iso-country' }, 49)).toBe('bad_format');
    });
  });

  it('reports the first failing check: provenance, then type, values, bounds, format', () => {
    const r: Omit<Requirement, 'field'> = {
      type: 'string',
      source_requirement: 'verified',
      acceptable_sources: ['kyc'],
      confidence_threshold: 0.9,
      format: 'iso-country',
    };
    expect(check(r, 5, fact(5))).toBe('not_verified');
    expect(check(r, 5, fact(5, { verification_status: 'verified' }))).toBe('source_not_accepted');
    expect(check(r, 5, fact(5, { verification_status: 'verified', source: 'kyc' }))).toBe('confidence_below_threshold');
    expect(check(r, 5, fact(5, { verification_status: 'verified', source: 'kyc', confidence: 1 }))).toBe('wrong_type');
    expect(check(r, 'XX', fact('XX', { verification_status: 'verified', source: 'kyc', confidence: 1 }))).toBe('bad_format');
    expect(check(r, 'FR', fact('FR', { verification_status: 'verified', source: 'kyc', confidence: 1 }))).toBeNull();
  });
});

describe(mergeRequirements.name, () => {
  it('keeps the strictest bound of each kind', () => {
    const sut = mergeRequirements('f', [
      { field: 'f', type: 'any', min: 0, max: 100, allowed_values: [1, 2, 3], acceptable_sources: ['a', 'b'], confidence_threshold: 0.5 },
      {
        field: 'f',
        type: 'number',
        min: 10,
        max: 50,
        allowed_values: [2, 3, 4],
        acceptable_sources: ['b', 'c'],
        source_requirement: 'verified',
        reason: 'why',
      },
      { field: 'f', type: 'string', confidence_threshold: 0.9, format: 'x' },
    ]);
    expect(sut).toEqual({
      field: 'f',
      type: 'number',
      reason: 'why',
      min: 10,
      max: 50,
      allowed_values: [2, 3],
      acceptable_sources: ['b'],
      source_requirement: 'verified',
      confidence_threshold: 0.9,
      format: 'x',
    });
  });

  it('is an untyped requirement for no input', () => {
    expect(mergeRequirements('f', [])).toEqual({ field: 'f', type: 'any' });
  });
});

describe(validateRequirement.name, () => {
  it.each([
    [{ field: '', type: 'string' }, /no field/],
    [{ field: 'f', type: 'number', min: '1' }, /min must be a number/],
    [{ field: 'f', type: 'number', confidence_threshold: 1.5 }, /\[0, 1\]/],
    [{ field: 'f', type: 'any', source_requirement: 'trusted' }, /source_requirement/],
    [{ field: 'f', type: 'any', acceptable_sources: 'crm' }, /acceptable_sources/],
    [{ field: 'f', type: 'any', allowed_values: 'a' }, /allowed_values/],
  ])('rejects %j', (r, message) => {
    expect(() => validateRequirement(r as unknown as Requirement, 'rul-x')).toThrow(PolicyCompileError);
    expect(() => validateRequirement(r as unknown as Requirement, 'rul-x')).toThrow(message);
  });
});

describe(describeProblem.name, () => {
  it('explains each problem with the bound it broke', () => {
    const r: Requirement = {
      field: 'f',
      type: 'number',
      min: 1,
      max: 9,
      acceptable_sources: ['a', 'b'],
      confidence_threshold: 0.7,
      format: 'uuid',
    };
    expect(describeProblem('absent', r)).toBe('absent');
    expect(describeProblem('below_min', r)).toContain('1');
    expect(describeProblem('above_max', r)).toContain('9');
    expect(describeProblem('source_not_accepted', r)).toContain('a, b');
    expect(describeProblem('confidence_below_threshold', r)).toContain('0.7');
    expect(describeProblem('bad_format', r)).toContain('uuid');
    expect(describeProblem('wrong_type', r)).toContain('number');
  });
});

describe('ISO_3166_ALPHA2', () => {
  it('holds the 249 assigned codes', () => {
    expect(ISO_3166_ALPHA2.size).toBe(249);
    for (const code of ['DE', 'US', 'SS', 'BQ']) expect(ISO_3166_ALPHA2.has(code)).toBe(true);
    for (const code of ['UK', 'EU', 'XK', 'AA']) expect(ISO_3166_ALPHA2.has(code)).toBe(false);
  });
});

describe(isEmail.name, () => {
  it('says what /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/ says, on arbitrary short strings', () => {
    const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '@', '.', ' ', '\u00a0', '\n'), maxLength: 12 }), (v) => {
        expect(isEmail(v)).toBe(EMAIL.test(v));
      }),
      { numRuns: 3000 },
    );
  });

  it('settles a long run of dots in one pass (the expression backtracked quadratically)', () => {
    expect(isEmail(`a@${'.'.repeat(200_000)} `)).toBe(false);
    expect(isEmail(`a@b${'.'.repeat(200_000)}c`)).toBe(true);
  });
});
