import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { canonicalJson } from './canonical-json';
import { isCanonicalText } from './canonical-text';

/** What the ledger's verification did before this scan: parse and write again (null: no canonical form). */
function rewritten(text: string): string | null {
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return null;
  }
}

/** JSON text with members in a random order, random whitespace and random (equivalent) escapes. */
const jsonTexts = fc.jsonValue().chain((v) =>
  fc.tuple(fc.constant(v), fc.boolean(), fc.boolean()).map(([value, spaced, reversed]) => {
    const reorder = (x: unknown): unknown => {
      if (Array.isArray(x)) return x.map(reorder);
      if (x && typeof x === 'object') {
        const keys = Object.keys(x).sort();
        if (reversed) keys.reverse();
        return Object.fromEntries(keys.map((k) => [k, reorder((x as Record<string, unknown>)[k])]));
      }
      return x;
    };
    return JSON.stringify(reorder(value), null, spaced ? 1 : undefined);
  }),
);

describe(isCanonicalText.name, () => {
  const sut = isCanonicalText;

  it('accepts what canonicalJson writes, and the `canonicalize` package too (random JSON)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(sut(canonicalJson(v))).toBe(true);
        expect(sut(canonicalize(v) as string)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('accepts a text only when writing it again gives the same text (random JSON, orders and spacing)', () => {
    fc.assert(
      fc.property(jsonTexts, (text) => {
        expect(sut(text)).toBe(rewritten(text) === text);
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['whitespace', '{"a": 1}'],
    ['a trailing newline', '{"a":1}\n'],
    ['members out of order', '{"b":1,"a":2}'],
    ['a repeated member', '{"a":1,"a":2}'],
    ['integer-like names in numeric order', '{"2":0,"10":0}'],
    ['1.0', '[1.0]'],
    ['an upper-case exponent', '[1E+21]'],
    ['an exponent without its sign', '[1e21]'],
    ['1e2 for 100', '[1e2]'],
    ['-0', '[-0]'],
    ['a leading zero', '[01]'],
    ['a number beyond a double', '[1e400]'],
    ['an integer that a double rounds', '[12345678901234567890]'],
    ['an escaped slash', '["\\/"]'],
    ['an escaped letter', '["\\u0041"]'],
    ['upper-case hex', '["\\u001F"]'],
    ['\\u000a for \\n', '["\\u000a"]'],
    ['an escaped DEL', '["\\u007f"]'],
    ['a raw control character', '["a\u0001"]'],
    ['a lone high surrogate', '["\ud800"]'],
    ['a lone low surrogate', '["\udc00x"]'],
    ['an escaped surrogate', '["\\ud83d\\ude00"]'],
    ['True', '[True]'],
    ['a missing value', '{"a":}'],
    ['a trailing comma', '[1,]'],
    ['two values', '1 2'],
    ['nothing', ''],
  ])('refuses %s', (_what, text) => {
    expect(sut(text)).toBe(false);
    expect(rewritten(text)).not.toBe(text);
  });

  it.each([
    ['escapes as section 3.2.2.2 writes them', '["\\"\\\\\\b\\t\\n\\f\\r\\u0000\\u001f/\u007f\u2028"]'],
    ['numbers as ECMAScript writes them', '[0,-1,1e+21,1e-7,0.000001,333333333.3333333,5e-324,-1.7976931348623157e+308]'],
    ['names compared as UTF-16 code units', '{"\u20ac":1,"\ud83d\ude00":2,"\ufb33":3}'],
    ['an escaped name in order', '{"\\n":1,"a":2}'],
    ['__proto__ as a name', '{"__proto__":1,"a":{}}'],
    ['a surrogate pair', '["\ud83d\ude00"]'],
    ['empty containers and literals', '{"a":[],"b":{},"c":[true,false,null],"d":""}'],
  ])('accepts %s', (_what, text) => {
    expect(sut(text)).toBe(true);
    expect(rewritten(text)).toBe(text);
  });

  it('gives up on nesting deeper than it scans (re-canonicalising then decides)', () => {
    const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
    expect(sut(deep)).toBe(false);
    expect(sut(`${'['.repeat(100)}${']'.repeat(100)}`)).toBe(true);
  });
});
