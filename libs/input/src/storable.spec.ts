import {
  describeUnstorable,
  escapeLoneSurrogates,
  findUnstorableString,
  inspectJson,
  MAX_JSON_DEPTH,
  printable,
  stringProblem,
  wellFormedJson,
} from './storable';

describe(stringProblem.name, () => {
  it.each([
    ['U+0000', 'a\u0000b', 'nul'],
    ['a lone high surrogate', 'x\ud800', 'lone_surrogate'],
    ['a lone low surrogate', '\udc00x', 'lone_surrogate'],
    ['a reversed pair', '\udc00\ud800', 'lone_surrogate'],
    ['U+0000 and a lone surrogate: U+0000 is named', '\ud800\u0000', 'nul'],
    ['a surrogate pair (one emoji)', 'ok \ud83d\ude00', null],
    ['other control characters', '\u0001\u001f\u007f', null],
    ['the six characters \\u0000', '\\u0000', null],
    ['U+FFFD itself', '\ufffd', null],
  ])('%s', (_what, s, expected) => {
    expect(stringProblem(s)).toBe(expected);
  });
});

describe(inspectJson.name, () => {
  const nest = (levels: number): unknown => {
    let v: unknown = 'leaf';
    for (let i = 0; i < levels; i++) v = i % 2 ? { a: v } : [v];
    return v;
  };

  it('names a value at any depth, in arrays too, and a member name (inName)', () => {
    expect(inspectJson({ a: { b: [1, 'ok', { c: 'x\u0000' }] } }).string).toEqual({
      path: ['a', 'b', 2, 'c'],
      reason: 'nul',
      inName: false,
    });
    expect(inspectJson({ a: [{ ['k\ud800']: 1 }] }).string).toEqual({ path: ['a', 0, 'k\ud800'], reason: 'lone_surrogate', inName: true });
  });

  it('answers the first in document order', () => {
    expect(findUnstorableString({ first: ['ok', '\ud800'], second: '\u0000' })?.path).toEqual(['first', 1]);
  });

  it('finds nothing in a clean value, and nothing in numbers, booleans and null', () => {
    expect(inspectJson({ a: [1, true, null, { b: 'é \ud83d\ude00' }], n: 1e300 })).toEqual({
      string: null,
      depth: null,
      prototype: null,
      members: 3,
    });
    expect(inspectJson(7)).toEqual({ string: null, depth: null, prototype: null, members: 0 });
    expect(inspectJson('\u0000').string).toEqual({ path: [], reason: 'nul', inName: false });
  });

  it(`accepts ${MAX_JSON_DEPTH} levels and names the first object or array past them`, () => {
    expect(inspectJson(nest(MAX_JSON_DEPTH)).depth).toBeNull();
    const over = inspectJson(nest(MAX_JSON_DEPTH + 1)).depth;
    expect(over).toMatchObject({ reason: 'too_deep' });
    expect(over?.path).toHaveLength(MAX_JSON_DEPTH);
  });

  it('walks a value nested deeper than the call stack would allow, without recursion', () => {
    let deep: unknown = ['x'];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(inspectJson(deep).depth).toEqual({ path: Array(MAX_JSON_DEPTH).fill(0), reason: 'too_deep', inName: false });
    expect(findUnstorableString(deep)).toBeNull();
  });

  it('keeps the first bad string when the depth is past the limit later, and judges strings as told', () => {
    const found = inspectJson({ a: 'x\u0000', b: nest(MAX_JSON_DEPTH + 1) });
    expect(found.string?.path).toEqual(['a']);
    expect(found.depth?.reason).toBe('too_deep');
    const onlySurrogates = (s: string) => (stringProblem(s) === 'lone_surrogate' ? 'lone_surrogate' : null);
    expect(inspectJson({ a: 'x\u0000', b: ['\udfff'] }, Infinity, onlySurrogates).string?.path).toEqual(['b', 0]);
  });
});

describe(describeUnstorable.name, () => {
  it('names a value, a member name (escaped), and the reason', () => {
    expect(describeUnstorable({ path: ['actor'], reason: 'nul', inName: false }, 'actor')).toBe(
      'actor contains U+0000 (NUL), which cannot be stored',
    );
    expect(describeUnstorable({ path: ['a', '\u0000'], reason: 'nul', inName: true }, 'a.\u0000')).toBe(
      'The member name "a.\\u0000" contains U+0000 (NUL), which cannot be stored',
    );
    expect(describeUnstorable({ path: ['x'], reason: 'lone_surrogate', inName: false }, 'x')).toBe(
      'x contains a lone UTF-16 surrogate, which cannot be stored',
    );
    expect(describeUnstorable({ path: ['n'], reason: 'inexact_number', inName: false, literal: '9007199254740993' }, 'n')).toMatch(
      /^n holds a number which a JSON number read as a double cannot carry exactly/,
    );
    // The value is never echoed: it may be a sensitive one.
    expect(describeUnstorable({ path: ['n'], reason: 'inexact_number', inName: false, literal: '9007199254740993' }, 'n')).not.toContain(
      '9007199254740993',
    );
    expect(describeUnstorable({ path: [], reason: 'invalid_utf8', inName: true }, 'body')).toBe(
      'A member name in body contains bytes that are not UTF-8, which cannot be stored',
    );
    expect(describeUnstorable({ path: ['a'], reason: 'too_deep', inName: false }, 'a')).toBe(
      `a is nested more than ${MAX_JSON_DEPTH} levels deep`,
    );
  });

  it('shows a field holding a lone surrogate as an escape, so the sentence is well-formed', () => {
    expect(printable('a\ud800')).toBe('"a\\ud800"');
    expect(printable('a\ud800').isWellFormed()).toBe(true);
  });
});

describe(wellFormedJson.name, () => {
  it('writes every lone surrogate of an error body as text, in values and names, and keeps pairs', () => {
    const body = wellFormedJson({ detail: 'Scope x\ud800 not found', details: { fields: [{ ['f\udc00']: '😀\ud83d' }] } });
    expect(body).toEqual({ detail: 'Scope x\\ud800 not found', details: { fields: [{ 'f\\udc00': '😀\\ud83d' }] } });
    // JSON.stringify writes a lone surrogate as the escape \udXXX, which strict parsers refuse: none is left.
    expect(JSON.stringify(body)).not.toMatch(/(?<!\\)\\ud[89a-f][0-9a-f]{2}/i);
  });

  it('leaves a well-formed body as it is', () => {
    expect(wellFormedJson({ code: 'x', message: 'é 😀 \u0000', n: 1 })).toEqual({ code: 'x', message: 'é 😀 \u0000', n: 1 });
    expect(escapeLoneSurrogates('plain')).toBe('plain');
  });
});
