import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { canonicalJson, verbatim, withLeadingMembers, type CanonicalText } from './canonical-json';
import { CanonicalizationError } from './errors';

/** Decodes an RFC 8785 Appendix B IEEE 754 bit pattern (16 hex digits) into a double. */
function doubleFromHex(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

function expectNotCanonicalizable(value: unknown): CanonicalizationError {
  let caught: unknown;
  try {
    canonicalJson(value);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(CanonicalizationError);
  expect((caught as CanonicalizationError).code).toBe('not_canonicalizable');
  return caught as CanonicalizationError;
}

describe(canonicalJson.name, () => {
  const sut = canonicalJson;

  it('serialises the RFC 8785 section 3.2.2 sample as in section 3.2.4', () => {
    // Input text exactly as printed in RFC 8785 section 3.2.2.
    const input = JSON.parse(String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`);
    // Expected output of RFC 8785 section 3.2.4, written by hand ("€" as the raw character).
    const expected =
      '{"literals":[null,true,false],' +
      '"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
      '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}';

    expect(sut(input)).toBe(expected);
  });

  it('sorts property names by UTF-16 code units (RFC 8785 section 3.2.3 example)', () => {
    const input = JSON.parse(String.raw`{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`);
    // The emoji (surrogates D83D DE00) sorts before U+FB33: UTF-16 order, not code point order.
    const expected =
      '{"\\r":"Carriage Return",' +
      '"1":"One",' +
      '"\u0080":"Control",' +
      '"\u00f6":"Latin Small Letter O With Diaeresis",' +
      '"\u20ac":"Euro Sign",' +
      '"\ud83d\ude00":"Emoji: Grinning Face",' +
      '"\ufb33":"Hebrew Letter Dalet With Dagesh"}';

    expect(sut(input)).toBe(expected);
  });

  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('serialises the RFC 8785 Appendix B double %s as %s', (bits, expected) => {
    expect(sut(doubleFromHex(bits))).toBe(expected);
  });

  it.each([
    [1e30, '1e+30'],
    [4.5, '4.5'],
    [0.002, '0.002'],
    [1e-7, '1e-7'],
    [333333333.3333333, '333333333.3333333'],
    [-0, '0'],
    [9007199254740992, '9007199254740992'],
  ])('serialises the number %p as %s', (value, expected) => {
    expect(sut(value)).toBe(expected);
  });

  it.each([['7fffffffffffffff'], ['7ff0000000000000'], ['fff0000000000000']])('rejects the Appendix B non-finite double %s', (bits) => {
    expectNotCanonicalizable(doubleFromHex(bits));
  });

  it('sorts nested object members and keeps array order', () => {
    expect(sut({ b: [3, { z: 1, a: 2 }, 1], a: { y: null, x: true } })).toBe('{"a":{"x":true,"y":null},"b":[3,{"a":2,"z":1},1]}');
  });

  it('escapes only what RFC 8785 section 3.2.2.2 requires', () => {
    expect(sut('\u0000\u001f\b\t\n\f\r"\\/\u007f\u2028é')).toBe('"\\u0000\\u001f\\b\\t\\n\\f\\r\\"\\\\/\u007f\u2028é"');
  });

  it('omits object properties whose value is undefined', () => {
    expect(sut({ a: 1, b: undefined })).toBe('{"a":1}');
  });

  it('serialises a Date through toJSON as its ISO string', () => {
    expect(sut({ at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)) })).toBe('{"at":"2026-01-02T03:04:05.006Z"}');
  });

  it('keeps a "__proto__" property name as an ordinary member', () => {
    expect(sut(JSON.parse('{"__proto__":{"x":1},"a":2}'))).toBe('{"__proto__":{"x":1},"a":2}');
  });

  it('accepts a repeated (non-circular) reference', () => {
    const shared = { k: 1 };
    expect(sut([shared, shared])).toBe('[{"k":1},{"k":1}]');
  });

  it.each<[string, unknown]>([
    ['undefined', undefined],
    ['a function', () => 1],
    ['a symbol', Symbol('s')],
    ['a BigInt', BigInt(1)],
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['a lone high surrogate', '\ud800'],
    ['a lone low surrogate', 'a\udfffb'],
    ['a Map', new Map([['a', 1]])],
    ['a Set', new Set([1])],
    ['a Uint8Array', new Uint8Array([1])],
    ['a Buffer', Buffer.from('x')],
  ])('rejects %s at the top level with not_canonicalizable', (_label, value) => {
    expectNotCanonicalizable(value);
  });

  it.each<[string, unknown, string]>([
    ['a function in an object', { a: { f: () => 1 } }, '/a/f'],
    ['undefined in an array', { list: [1, undefined] }, '/list/1'],
    ['a BigInt in an array', [BigInt(2)], '/0'],
    ['NaN in an object', { n: NaN }, '/n'],
    ['a lone surrogate in a property name', { ['\udc00']: 1 }, '/\udc00'],
    ['a symbol value', { s: Symbol('s') }, '/s'],
  ])('rejects %s and names its path', (_label, value, path) => {
    expect(expectNotCanonicalizable(value).path).toBe(path);
  });

  it('rejects a circular structure', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expectNotCanonicalizable(cyclic);
  });
});

/** The test oracle: the `canonicalize` package, an independent RFC 8785 implementation. */
const oracle = (v: unknown): string | undefined => canonicalize(v);

/** Either the text or the fact that it throws: writer and oracle must agree on both. */
const outcome = (f: () => string | undefined) => {
  try {
    const text = f();
    return text === undefined ? { throws: true } : { text };
  } catch {
    return { throws: true };
  }
};

describe(`${canonicalJson.name} against the canonicalize package`, () => {
  const sut = canonicalJson;

  it('writes byte for byte what canonicalize writes, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (v) => {
        expect(sut(v)).toBe(oracle(v));
      }),
      { numRuns: 1000, seed: 8785 },
    );
  });

  it('agrees on any double, as a value and inside an object', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(sut(n)).toBe(oracle(n));
        expect(sut({ n, m: [n] })).toBe(oracle({ n, m: [n] }));
      }),
      { numRuns: 2000, seed: 8785 },
    );
  });

  it('agrees on member names and strings of any UTF-16 code units (lone surrogates: the writer refuses them)', () => {
    // Code units from the whole BMP, with surrogate halves (paired or not) and controls made frequent.
    const unit = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0, max: 0x7f }));
    const units = fc.array(unit, { maxLength: 8 }).map((codes) => String.fromCharCode(...codes));
    let refused = 0;
    fc.assert(
      fc.property(fc.dictionary(units, fc.oneof(units, fc.array(units, { maxLength: 3 })), { maxKeys: 8 }), (v) => {
        const wellFormed = [...Object.keys(v), ...Object.values(v).flat()].every((s) => s.isWellFormed());
        if (wellFormed) {
          expect(sut(v)).toBe(oracle(v));
        } else {
          refused++;
          expect(outcome(() => sut(v))).toEqual({ throws: true });
        }
      }),
      { numRuns: 500, seed: 8785 },
    );
    expect(refused).toBeGreaterThan(50);
  });

  it('agrees on objects whose members are already in order, out of order and in reverse', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 4 }), { maxLength: 10 }), fc.boolean(), (names, reverse) => {
        const sorted = [...names].sort();
        for (const order of [names, sorted, reverse ? [...sorted].reverse() : sorted]) {
          const v = Object.fromEntries(order.map((n, i) => [n, i]));
          expect(sut(v)).toBe(oracle(v));
        }
      }),
      { numRuns: 300, seed: 8785 },
    );
  });

  it('writes Dates, class instances and null-prototype objects as canonicalize does through JSON.stringify semantics', () => {
    class Point {
      constructor(
        readonly y: number,
        readonly x: number,
      ) {}
    }
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: [new Date(0)] });
    const v = { at: new Date(Date.UTC(2026, 4, 1)), p: new Point(2, 1), bare, nested: { z: { toJSON: () => ({ k: 'v' }) } } };
    expect(sut(v)).toBe(oracle(JSON.parse(JSON.stringify(v))));
  });
});

describe('splicing canonical text', () => {
  it('reuses the text of objects it is told it already wrote (the known map)', () => {
    const inner = { b: 1, a: [true, null] };
    const known = new Map([[inner, canonicalJson(inner)]]);
    expect(canonicalJson({ z: inner, y: 'x', w: [inner] }, known)).toBe(oracle({ z: inner, y: 'x', w: [inner] }));
  });

  it('writes a verbatim() value as its text, wherever it sits', () => {
    const payload = canonicalJson({ é: [1, 'x'], a: { c: null } });
    const v = { tail: 1, custom_payload: verbatim(payload), list: [verbatim(payload)] };
    const plain = JSON.parse(payload);
    expect(canonicalJson(v)).toBe(oracle({ tail: 1, custom_payload: plain, list: [plain] }));
    // The careful pass too (a Date sends the writer there).
    expect(canonicalJson({ ...v, at: new Date(0) })).toBe(
      oracle({ tail: 1, custom_payload: plain, list: [plain], at: '1970-01-01T00:00:00.000Z' }),
    );
  });

  it('puts leading members before the members of canonical object text', () => {
    const rest = canonicalJson({ b: 2, a: 'x' });
    expect(withLeadingMembers({ z: 'h', y: [1] }, rest)).toBe('{"z":"h","y":[1],"a":"x","b":2}');
    expect(withLeadingMembers({ z: 'h' }, canonicalJson({}))).toBe('{"z":"h"}');
    expect(withLeadingMembers({}, rest)).toBe(rest);
    expect(JSON.parse(withLeadingMembers({ z: 'h', u: undefined }, rest))).toEqual({ z: 'h', a: 'x', b: 2 });
    expect(() => withLeadingMembers({ z: 1 }, canonicalJson([1]))).toThrow(CanonicalizationError);
  });

  it("types spliced text as the library's own output", () => {
    // @ts-expect-error a string built by hand is not CanonicalText
    const forged: CanonicalText = '{"a":1}';
    expect(typeof forged).toBe('string');
  });
});
