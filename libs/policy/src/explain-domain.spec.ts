// coveredBy: whether the rows of an `any` rule on one field hold together for every value a change's domain admits.
import fc from 'fast-check';
import { atom, atomHolds, coveredBy, type Atom } from './explain-domain';
import type { ConditionOp } from './types';

const a = (op: ConditionOp, value?: unknown): Atom => atom('f', op, value);
const admitted = (domain: readonly Atom[], v: unknown) => domain.every((d) => atomHolds(d, v));
const escapes = (domain: readonly Atom[], rows: readonly Atom[], v: unknown) => admitted(domain, v) && !rows.some((r) => atomHolds(r, v));

/** Values of every kind a caller may send, dates in several spellings. */
const POOL: unknown[] = [
  ...[-2, -1, -0.5, 0, 0.5, 1, 1.5, 2, 5, 11, 1e9],
  ...['', 'x', 'y', 'EUR', 'USD', '2025-05-31', '2025-06-01', '2025-06-01T00:00:00Z', '2025-06-01T00:00:00.000Z', '2025-06-02T12:00:00Z'],
  ...['2025-12-31T23:59:59.999Z', '2026-01-01', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00.001Z', '2026-03-01T00:00:00+02:00'],
  ...[true, false, null, [], ['x'], [1], {}],
];

describe(coveredBy.name, () => {
  it.each<[string, Atom[], Atom[]]>([
    ['a finite domain whose every member one row takes', [a('in', ['EUR', 'USD'])], [a('eq', 'EUR'), a('eq', 'USD')]],
    ['a row false on null only, and one true on null', [a('neq', 'x')], [a('exists', true), a('exists', false)]],
    ['ordered rows meeting inside numeric bounds', [a('gte', 0)], [a('gt', 1), a('lte', 1)]],
    ['ordered rows leaving a point the domain excludes', [a('gte', 0), a('neq', 1)], [a('gt', 1), a('lt', 1)]],
    [
      'ordered rows meeting among instants of both spellings',
      [a('lte', '2026-01-01')],
      [a('lt', '2025-06-01'), a('gte', '2025-06-01T00:00:00Z')],
    ],
  ])('holds for %s', (_name, domain, rows) => {
    expect(coveredBy(domain, rows)).toBe(true);
    // No row does alone: they hold together.
    for (const r of rows) expect(POOL.some((v) => escapes(domain, [r], v))).toBe(true);
  });

  it.each<[string, Atom[], Atom[], unknown]>([
    ['a member no row takes', [a('in', ['EUR', 'USD', 'GBP'])], [a('eq', 'EUR'), a('eq', 'USD')], 'GBP'],
    ['a value false on every row (null)', [], [a('exists', true), a('eq', 'y')], null],
    ['a gap between ordered rows', [a('gte', 0)], [a('gt', 1), a('lt', 1)], 1],
    ['a number beyond the rows', [a('gte', 0)], [a('lt', 5), a('eq', 5)], 11],
    ['an instant between ordered rows', [a('lte', '2026-01-01')], [a('lt', '2025-06-01'), a('gt', '2025-06-01')], '2025-06-01'],
    // An exclusion or an `eq` names one spelling of an instant: another spelling escapes both.
    [
      'an instant in another spelling than an exclusion',
      [a('lte', '2026-01-01'), a('neq', '2025-06-01')],
      [a('lt', '2025-06-01'), a('gt', '2025-06-01')],
      '2025-06-01T00:00:00Z',
    ],
    [
      'an instant in another spelling than an eq row',
      [a('lte', '2026-01-01')],
      [a('lt', '2025-06-01'), a('eq', '2025-06-01'), a('gt', '2025-06-01')],
      '2025-06-01T00:00:00.000Z',
    ],
    [
      'an instant in the spelling a `neq` row names',
      [a('lte', '2026-01-01')],
      [a('lt', '2025-06-01'), a('gt', '2025-06-01'), a('neq', '2025-06-01')],
      '2025-06-01',
    ],
    [
      'an object against rows of other kinds',
      [a('neq', 'x')],
      [a('gte', 0), a('lt', 0), a('starts_with', ''), a('in', [true, false, null])],
      {},
    ],
  ])('does not hold for %s', (_name, domain, rows, escaping) => {
    expect(coveredBy(domain, rows)).toBe(false);
    expect(escapes(domain, rows, escaping)).toBe(true);
  });

  it('never says yes while a value of the domain escapes every row', () => {
    const value = fc.constantFrom<unknown>(0, 1, 2, 5, 'x', 'y', true, null, '2025-06-01', '2025-06-01T00:00:00Z', '2026-01-01');
    const row = fc.oneof(
      fc.record({ op: fc.constantFrom<ConditionOp>('eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'starts_with'), value }),
      fc.record({ op: fc.constantFrom<ConditionOp>('in', 'not_in'), value: fc.array(value, { maxLength: 3 }) }),
      fc.record({ op: fc.constant<ConditionOp>('exists'), value: fc.boolean() }),
    );
    const rows = fc.array(row, { minLength: 1, maxLength: 4 }).map((rs) => rs.map((r) => a(r.op, r.value)));
    fc.assert(
      fc.property(rows, rows, (domain, any) => {
        if (coveredBy(domain, any)) for (const v of POOL) expect(escapes(domain, any, v)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
