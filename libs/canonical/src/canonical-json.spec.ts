import { canonicalJson } from './canonical-json';
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

  it.each([['7fffffffffffffff'], ['7ff0000000000000'], ['fff0000000000000']])(
    'rejects the Appendix B non-finite double %s',
    (bits) => {
      expectNotCanonicalizable(doubleFromHex(bits));
    },
  );

  it('sorts nested object members and keeps array order', () => {
    expect(sut({ b: [3, { z: 1, a: 2 }, 1], a: { y: null, x: true } })).toBe(
      '{"a":{"x":true,"y":null},"b":[3,{"a":2,"z":1},1]}',
    );
  });

  it('escapes only what RFC 8785 section 3.2.2.2 requires', () => {
    expect(sut('\u0000\u001f\b\t\n\f\r"\\/\u007f\u2028é')).toBe(
      '"\\u0000\\u001f\\b\\t\\n\\f\\r\\"\\\\/\u007f\u2028é"',
    );
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
