import { checkFact } from './requirements';
import type { Requirement } from './types';

const req = (extra: Partial<Requirement>): Requirement => ({ field: 'f', reason: 'r', type: 'any', ...extra });
const codes = (value: unknown, r: Partial<Requirement>, fact: object = {}) =>
  checkFact({ value, source: 'agent', ...fact }, req(r)).map((p) => p.code);

describe(checkFact.name, () => {
  const sut = checkFact;

  it('accepts a fact that meets every bound', () => {
    expect(
      sut(
        { value: 5000, source: 'kyc', verification_status: 'verified', confidence: 0.9 },
        req({ type: 'number', min: 0, max: 10000, source_requirement: 'verified', acceptable_sources: ['kyc'], confidence_threshold: 0.8 }),
      ),
    ).toEqual([]);
  });

  it('reports provenance problems in the gateway order', () => {
    expect(codes('DE', { source_requirement: 'verified', acceptable_sources: ['kyc'], confidence_threshold: 0.5 })).toEqual([
      'not_verified',
      'source_not_accepted',
      'confidence_below_threshold',
    ]);
  });

  it.each([
    [7, { allowed_values: ['a', 'b'] }, ['value_not_allowed']],
    ['b', { allowed_values: ['a', 'b'] }, []],
    [-1, { min: 0 }, ['below_min']],
    [11, { max: 10 }, ['above_max']],
    ['12', { max: 10 }, ['wrong_type']],
    ['12', { type: 'number' }, ['wrong_type']],
    [1.5, { type: 'integer' }, ['wrong_type']],
    ['2026-02-30T00:00:00Z', { type: 'date-time' }, ['wrong_type']],
    ['2026-02-03', { type: 'date' }, []],
    ['de', { format: 'ISO 3166-1 alpha-2' }, ['bad_format']],
    ['DE', { format: 'iso-country' }, []],
    ['eur', { format: 'iso-currency' }, ['bad_format']],
    ['anything', { format: 'free text please' }, []],
    [{ a: 1 }, { allowed_values: [{ a: 1 }] }, []],
  ])('checks %p against %p', (value, r, expected) => {
    expect(codes(value, r as Partial<Requirement>)).toEqual(expected);
  });

  it('refuses a fact without source as invalid_fact, naming the field', () => {
    const problems = sut({ value: 1 } as never, req({ field: 'transfer.amount' }));
    expect(problems).toEqual([{ code: 'invalid_fact', message: expect.stringContaining('transfer.amount') }]);
  });
});
