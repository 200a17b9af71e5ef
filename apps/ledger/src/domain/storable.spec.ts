import { describeUnstorable, findUnstorable, jsonTextMayHoldNul, stringProblem } from './storable';

describe(findUnstorable.name, () => {
  it('finds nothing in storable values, whatever their shape', () => {
    expect(findUnstorable({ a: ['é✓', { b: '\u0001😀' }], n: 1, t: true, z: null }, 'body')).toBeNull();
    expect(findUnstorable('plain', 'actor')).toBeNull();
  });

  it('names a string value holding U+0000 by its dot path, array indexes included', () => {
    expect(findUnstorable({ a: [0, { b: 'x\u0000' }] }, 'custom_payload')).toEqual({ field: 'custom_payload.a.1.b', reason: 'nul', inName: false });
    expect(findUnstorable({ actor: '\u0000' }, '')).toEqual({ field: 'actor', reason: 'nul', inName: false });
  });

  it('names a member name holding U+0000 or a lone surrogate', () => {
    expect(findUnstorable({ a: { ['k\u0000']: 1 } }, 'custom_payload')).toEqual({ field: 'custom_payload.a.k\u0000', reason: 'nul', inName: true });
    expect(findUnstorable({ ['\udfff']: 1 }, '')).toEqual({ field: '\udfff', reason: 'lone_surrogate', inName: true });
  });

  it('reports one problem: the first met walking members in order', () => {
    expect(findUnstorable({ first: ['ok', '\ud800'], second: '\u0000' }, '')?.field).toBe('first.1');
  });

  it('walks a pathologically deep value without exhausting the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}"\\u0000"${']'.repeat(100_000)}`);
    expect(findUnstorable(deep, 'x')?.reason).toBe('nul');
  });
});

describe(stringProblem.name, () => {
  it('tells U+0000 from lone surrogates and accepts surrogate pairs', () => {
    expect(stringProblem('a\u0000b')).toBe('nul');
    expect(stringProblem('a\ud800b')).toBe('lone_surrogate');
    expect(stringProblem('\udc00\ud800')).toBe('lone_surrogate');
    expect(stringProblem('😀')).toBeNull();
  });
});

describe(jsonTextMayHoldNul.name, () => {
  it('sees the escape every JSON writer uses for U+0000, so a miss means no NUL', () => {
    expect(jsonTextMayHoldNul(JSON.stringify({ a: 'x\u0000' }))).toBe(true);
    expect(jsonTextMayHoldNul(JSON.stringify({ ['\u0000']: 1 }))).toBe(true);
    expect(jsonTextMayHoldNul(JSON.stringify({ a: 'x\u0001' }))).toBe(false);
  });
});

describe(describeUnstorable.name, () => {
  it('shows control characters in a field escaped', () => {
    expect(describeUnstorable({ field: 'actor', reason: 'nul', inName: false })).toBe('actor contains U+0000 (NUL), which cannot be stored');
    expect(describeUnstorable({ field: 'a.\u0000', reason: 'nul', inName: true })).toBe('The member name "a.\\u0000" contains U+0000 (NUL), which cannot be stored');
  });
});
