import fc from 'fast-check';
import { canonicalJson as reference } from '@arbiter/canonical';
import { canonicalJson } from './canonical-json';

/** Either the text or the fact that it throws: both implementations must agree on both. */
const outcome = (f: () => string) => {
  try {
    return { text: f() };
  } catch {
    return { throws: true };
  }
};

describe(canonicalJson.name, () => {
  it('writes exactly what @arbiter/canonical writes, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees on strings of any UTF-16 code units, lone surrogates included (both refuse them)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary', maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 }), { maxKeys: 6 }), (v) => {
        expect(outcome(() => canonicalJson(v))).toEqual(outcome(() => reference(v)));
      }),
      { numRuns: 150 },
    );
    expect(() => canonicalJson({ a: '\ud800' })).toThrow();
    expect(canonicalJson({ a: '\ud83d\ude00' })).toBe('{"a":"😀"}');
  });

  it('follows the RFC 8785 examples for numbers and member order', () => {
    expect(canonicalJson({ numbers: [333333333.33333329, 1e30, 4.5, 2e-3, 0.000000000000000000000000001, -0] })).toBe(
      '{"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27,0]}',
    );
    expect(canonicalJson({ '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' })).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('reuses the text of objects it is told it already wrote', () => {
    const inner = { b: 1, a: [true, null] };
    expect(canonicalJson({ z: inner, y: 'x' }, new Map([[inner, '{"a":[true,null],"b":1}']]))).toBe(reference({ z: inner, y: 'x' }));
  });

  it('refuses what is not JSON data', () => {
    for (const v of [NaN, Infinity, [undefined], new Date(0), new Map(), () => 1, undefined]) expect(() => canonicalJson(v)).toThrow();
  });
});
