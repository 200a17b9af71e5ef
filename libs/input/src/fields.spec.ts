import { findMemberName, hasOwn, isIntegerIn, isPlainObject, stringMember, unknownMember } from './fields';

describe(isPlainObject.name, () => {
  it('is true for objects only', () => {
    expect([{}, { a: 1 }, Object.create(null)].map(isPlainObject)).toEqual([true, true, true]);
    expect([null, [], 'x', 1, undefined].map(isPlainObject)).toEqual([false, false, false, false, false]);
  });
});

describe(hasOwn.name, () => {
  it('sees own members only, a parsed __proto__ member included', () => {
    expect(hasOwn(JSON.parse('{"__proto__":1}') as object, '__proto__')).toBe(true);
    expect(hasOwn({}, 'toString')).toBe(false);
  });
});

describe(unknownMember.name, () => {
  it('answers the first member outside the allowed set, in order', () => {
    expect(unknownMember({ a: 1, x: 2, y: 3 }, new Set(['a']))).toBe('x');
    expect(unknownMember({ a: 1 }, new Set(['a', 'b']))).toBeUndefined();
  });
});

describe(stringMember.name, () => {
  const fail = (problem: string) => new Error(problem);
  it('reads a string of 1 to max characters, and says what is wrong otherwise', () => {
    expect(stringMember({ a: 'x' }, 'a', 3, true, fail)).toBe('x');
    expect(stringMember({}, 'a', 3, false, fail)).toBeUndefined();
    expect(() => stringMember({}, 'a', 3, true, fail)).toThrow('missing');
    expect(() => stringMember({ a: '' }, 'a', 3, false, fail)).toThrow('invalid');
    expect(() => stringMember({ a: 'abcd' }, 'a', 3, true, fail)).toThrow('invalid');
    expect(() => stringMember({ a: 1 }, 'a', 3, true, fail)).toThrow('invalid');
  });
});

describe(isIntegerIn.name, () => {
  it('accepts integers within the bounds only', () => {
    expect([1, 5, 10].map((v) => isIntegerIn(v, 1, 10))).toEqual([true, true, true]);
    expect([0, 11, 1.5, '2', NaN, null].map((v) => isIntegerIn(v, 1, 10))).toEqual([false, false, false, false, false, false]);
  });
});

describe(findMemberName.name, () => {
  const dotted = (name: string) => name.includes('.');
  it('answers the path to the first refused member name, at any depth and through arrays, in document order', () => {
    expect(findMemberName({ 'transfer.amount': 1 }, dotted)).toEqual(['transfer.amount']);
    expect(findMemberName({ a: { 'x.y': 1 }, 'b.c': 2 }, dotted)).toEqual(['a', 'x.y']);
    expect(findMemberName({ lines: [{ sku: 'a' }, { 'unit.price': 3 }] }, dotted)).toEqual(['lines', 1, 'unit.price']);
    expect(findMemberName(JSON.parse('{"__proto__":{"a.b":1}}'), dotted)).toEqual(['__proto__', 'a.b']);
  });
  it('judges names only, never values, and answers null when every name passes', () => {
    expect(findMemberName({ a: 'x.y', b: ['c.d'], c: { d: 1.5 } }, dotted)).toBeNull();
    expect(findMemberName('a.b', dotted)).toBeNull();
    expect(findMemberName(null, dotted)).toBeNull();
  });
  it('walks a nesting deeper than the call stack allows', () => {
    let deep: unknown = { 'x.y': 1 };
    for (let i = 0; i < 20000; i++) deep = { a: deep };
    expect(findMemberName(deep, dotted)).toHaveLength(20001);
  });
});
