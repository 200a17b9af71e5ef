import { fieldPath, findUnstorable, isUnstorable, MAX_BODY_DEPTH } from '../domain/storable';
import { assertStorableQuery, assertStorableRequest } from './unstorable-strings';

describe(isUnstorable.name, () => {
  it.each([
    ['U+0000', 'a\u0000b', true],
    ['a lone high surrogate', 'x\ud800', true],
    ['a lone low surrogate', '\udc00x', true],
    ['a reversed pair', '\udc00\ud800', true],
    ['a surrogate pair (one emoji)', 'ok \ud83d\ude00', false],
    ['other control characters', '\u0001\u001f\u007f', false],
    ['the text "\\u0000"', '\\u0000', false],
  ])('%s', (_what, s, expected) => {
    expect(isUnstorable(s)).toBe(expected);
  });
});

describe(findUnstorable.name, () => {
  it('names a value at any depth, in arrays too', () => {
    expect(findUnstorable({ a: { b: [1, 'ok', { c: 'x\u0000' }] } })).toEqual({ path: ['a', 'b', 2, 'c'], reason: 'string' });
  });

  it('names a key at any depth', () => {
    expect(findUnstorable({ a: [{ ['k\u0000']: 1 }] })).toEqual({ path: ['a', 0, 'k\u0000'], reason: 'string' });
  });

  it('finds nothing in a clean body, and nothing in non-strings', () => {
    expect(findUnstorable({ a: [1, true, null, { b: 'é \ud83d\ude00' }], __proto__x: 'y' })).toBeNull();
    expect(findUnstorable(7)).toBeNull();
  });

  it('finds a bad top-level string', () => {
    expect(findUnstorable('\u0000')).toEqual({ path: [], reason: 'string' });
  });

  it(`accepts ${MAX_BODY_DEPTH} levels of nesting and names the first object past them`, () => {
    const nest = (levels: number): unknown => {
      let v: unknown = 'leaf';
      for (let i = 0; i < levels; i++) v = i % 2 ? { a: v } : [v];
      return v;
    };
    expect(findUnstorable(nest(MAX_BODY_DEPTH))).toBeNull();
    const over = findUnstorable(nest(MAX_BODY_DEPTH + 1));
    expect(over?.reason).toBe('depth');
    expect(over?.path).toHaveLength(MAX_BODY_DEPTH);
  });

  it('walks a body nested deeper than the call stack would allow, without recursion', () => {
    let deep: unknown = ['x'];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnstorable(deep)).toEqual({ path: Array(MAX_BODY_DEPTH).fill(0), reason: 'depth' });
  });
});

describe(fieldPath.name, () => {
  it('joins names with dots, positions in brackets, other names JSON-quoted', () => {
    expect(fieldPath(['parameters', 'items', 2, 'note'])).toBe('parameters.items[2].note');
    expect(fieldPath(['context', 'beneficiary.country', 'value'])).toBe('context["beneficiary.country"].value');
    expect(fieldPath(['scope', 'k\u0000'])).toBe('scope["k\\u0000"]');
  });
});

describe(assertStorableRequest.name, () => {
  const failure = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      return err as { status: number; code: string; details: unknown };
    }
    throw new Error('no failure');
  };

  it('refuses the query, then the body, then the path, each with validation_failed naming the field', () => {
    expect(failure(() => assertStorableRequest('/t/v1/check?x=1&y=a%00', { a: 'b\u0000' }, { tenant_id: 't\u0000' }))).toMatchObject({
      status: 400,
      code: 'validation_failed',
      details: { field: 'y', in: 'query' },
    });
    expect(failure(() => assertStorableRequest('/t/v1/check', { a: ['b\u0000'] }, { tenant_id: 't\u0000' })).details).toEqual({ field: 'a[0]', in: 'body' });
    expect(failure(() => assertStorableRequest('/t/v1/check', {}, { tenant_id: 't\u0000' })).details).toEqual({ field: 'tenant_id', in: 'path' });
    expect(() => assertStorableRequest('/t/v1/check?q=%2500', { a: 'é' }, { tenant_id: 't' })).not.toThrow();
  });

  it('names a query parameter whose name holds U+0000', () => {
    expect(failure(() => assertStorableQuery('/x?a%00b=1')).details).toEqual({ field: '["a\\u0000b"]', in: 'query' });
  });
});
