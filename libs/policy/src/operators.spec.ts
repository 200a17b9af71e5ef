import fc from 'fast-check';
import { PolicyCompileError } from './errors';
import { CONDITION_OPS, compileCondition } from './operators';
import type { ConditionOp } from './types';
import { isIsoDateTime, isoToMillis } from './values';

const test = (op: ConditionOp, value: unknown, actual: unknown): boolean =>
  compileCondition({ field: 'f', op, value }, 'rul-x').test(actual);

describe(compileCondition.name, () => {
  describe('eq and neq', () => {
    it.each([
      ['a', 'a', true],
      ['a', 'b', false],
      [5, 5, true],
      [5, 5.0, true],
      [5, '5', false],
      [true, true, true],
      [true, 'true', false],
      [null, null, true],
      [{ x: [1, { y: 2 }] }, { x: [1, { y: 2 }] }, true],
      [{ a: 1, b: 2 }, { b: 2, a: 1 }, true],
      [{ a: 1 }, { a: 1, b: 2 }, false],
      [[1, 2], [2, 1], false],
      [[1], { 0: 1 }, false],
    ])('eq %j against %j gives %s, and neq the opposite', (value, actual, expected) => {
      expect(test('eq', value, actual)).toBe(expected);
      expect(test('neq', value, actual)).toBe(!expected);
    });
  });

  describe('in and not_in', () => {
    it.each([
      [['DE', 'FR'], 'DE', true],
      [['DE', 'FR'], 'US', false],
      [[1, 2, 3], 2, true],
      [[1, 2, 3], '2', false],
      [[{ k: 1 }, 'x'], { k: 1 }, true],
      [[], 'x', false],
      [['a'], ['a'], false],
    ])('in %j with %j gives %s, and not_in the opposite', (value, actual, expected) => {
      expect(test('in', value, actual)).toBe(expected);
      expect(test('not_in', value, actual)).toBe(!expected);
    });

    it('rejects a non-array value at compile time', () => {
      expect(() => compileCondition({ field: 'f', op: 'in', value: 'DE' }, 'rul-x')).toThrow(PolicyCompileError);
      expect(() => compileCondition({ field: 'f', op: 'not_in', value: null }, 'rul-x')).toThrow(/needs an array/);
    });
  });

  describe('gt, gte, lt, lte', () => {
    it.each([
      ['gt', 10, 11, true],
      ['gt', 10, 10, false],
      ['gte', 10, 10, true],
      ['gte', 10, 9.5, false],
      ['lt', 10, 9, true],
      ['lt', 10, 10, false],
      ['lte', 10, 10, true],
      ['lte', 10, 10.01, false],
      ['gt', -1, 0, true],
    ] as const)('%s %j on %j gives %s', (op, value, actual, expected) => {
      expect(test(op, value, actual)).toBe(expected);
    });

    it('compares ISO dates and timestamps as instants', () => {
      expect(test('gt', '2026-01-01', '2026-01-02')).toBe(true);
      expect(test('gt', '2026-01-01', '2025-12-31T23:59:59Z')).toBe(false);
      expect(test('lt', '2026-01-01T00:00:00Z', '2025-12-31T23:00:00-02:00')).toBe(false);
      expect(test('gte', '2026-01-01T00:00:00+01:00', '2025-12-31T23:00:00Z')).toBe(true);
      expect(test('lte', '2026-03-01', '2026-03-01')).toBe(true);
    });

    it.each([
      ['gt', 10, '11'],
      ['gt', 10, null],
      ['gt', 10, true],
      ['gt', 10, [11]],
      ['gt', 10, { v: 11 }],
      ['lt', 10, Number.NaN],
      ['gt', 'abc', 'abd'],
      ['gt', '2026-01-01', 'not a date'],
      ['gt', '2026-01-01', 20260102],
      ['lt', 10, '2026-01-01'],
      ['gt', true, true],
      ['gte', null, null],
      ['lte', '2026-02-30', '2026-01-01'],
    ] as const)('%s %j on %j is false, never an exception', (op, value, actual) => {
      expect(test(op, value, actual)).toBe(false);
    });

    it('places every timestamp a requirement of type datetime accepts: what passes as a timestamp always compares', () => {
      const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
      const stamp = fc
        .record({
          y: fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
          mo: two(13),
          d: two(32),
          h: two(24),
          mi: two(60),
          s: two(61),
          frac: fc.option(fc.stringMatching(/^\.\d{1,12}$/), { nil: '' }),
          sep: fc.constantFrom('T', 't', ' '),
          zone: fc.oneof(
            fc.constantFrom('Z', 'z'),
            fc.tuple(fc.constantFrom('+', '-'), two(24), two(60)).map(([g, h, m]) => `${g}${h}:${m}`),
          ),
        })
        .map((p) => `${p.y}-${p.mo}-${p.d}${p.sep}${p.h}:${p.mi}:${p.s}${p.frac}${p.zone}`);
      fc.assert(
        fc.property(stamp, (v) => {
          if (!isIsoDateTime(v)) return;
          expect(Number.isFinite(isoToMillis(v))).toBe(true);
          // Hence a bound always decides it one way or the other.
          expect(test('lt', '5000-01-01T00:00:00Z', v) !== test('gte', '5000-01-01T00:00:00Z', v)).toBe(true);
        }),
        { numRuns: 5000 },
      );
      expect(isIsoDateTime('2026-11-30T23:59:60Z')).toBe(false);
    });
  });

  describe('exists', () => {
    it('expects presence by default and absence with value false', () => {
      expect(compileCondition({ field: 'f', op: 'exists' }, 'r').expectPresent).toBe(true);
      expect(compileCondition({ field: 'f', op: 'exists', value: true }, 'r').expectPresent).toBe(true);
      expect(compileCondition({ field: 'f', op: 'exists', value: false }, 'r').expectPresent).toBe(false);
    });

    it('rejects a non-boolean value at compile time', () => {
      expect(() => compileCondition({ field: 'f', op: 'exists', value: 'yes' }, 'r')).toThrow(/boolean/);
    });
  });

  describe('contains', () => {
    it.each([
      ['lo w', 'hello world', true],
      ['xyz', 'hello world', false],
      ['b', ['a', 'b'], true],
      ['c', ['a', 'b'], false],
      [{ id: 1 }, [{ id: 1 }, { id: 2 }], true],
      [1, ['1'], false],
      [1, 'a1', false],
      ['a', { a: 1 }, false],
      ['a', 5, false],
      ['a', null, false],
    ])('contains %j in %j gives %s', (value, actual, expected) => {
      expect(test('contains', value, actual)).toBe(expected);
    });
  });

  describe('starts_with', () => {
    it.each([
      ['acct:eu/', 'acct:eu/123', true],
      ['acct:eu/', 'acct:us/123', false],
      ['', 'x', true],
      ['1', 12, false],
      [1, '12', false],
      ['a', ['a'], false],
    ])('starts_with %j on %j gives %s', (value, actual, expected) => {
      expect(test('starts_with', value, actual)).toBe(expected);
    });
  });

  it('rejects an unknown op and a condition without a field', () => {
    expect(() => compileCondition({ field: 'f', op: 'matches' as ConditionOp, value: 'x' }, 'rul-x')).toThrow(
      expect.objectContaining({ code: 'invalid_rule', subject: 'rul-x' }),
    );
    expect(() => compileCondition({ field: '', op: 'eq', value: 1 }, 'rul-x')).toThrow(/no field/);
  });

  it('never throws for any op, rule value and field value', () => {
    const json = fc.jsonValue({ maxDepth: 2 });
    fc.assert(
      fc.property(fc.constantFrom(...CONDITION_OPS), json, json, (op, value, actual) => {
        let compiled;
        try {
          compiled = compileCondition({ field: 'f', op, value }, 'r');
        } catch (e) {
          expect(e).toBeInstanceOf(PolicyCompileError);
          return;
        }
        expect(typeof compiled.test(actual)).toBe('boolean');
      }),
    );
  });
});
