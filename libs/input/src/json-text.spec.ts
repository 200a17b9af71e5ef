import { randomBytes } from 'node:crypto';
import {
  countMemberNames,
  findInexactNumber,
  findInvalidUtf8,
  findRepeatedMemberName,
  invalidUtf8Offset,
  isInexactNumber,
  scanJsonText,
} from './json-text';

describe(invalidUtf8Offset.name, () => {
  const bytes = (...b: number[]) => Uint8Array.from(b);

  it.each([
    ['ASCII, 2-, 3- and 4-byte forms', Buffer.from('a é € 😀'), -1],
    ['a lone continuation byte', bytes(0x61, 0x80), 1],
    ['an overlong NUL (C0 80)', bytes(0xc0, 0x80), 0],
    ['an overlong 3-byte form (E0 80 80)', bytes(0xe0, 0x80, 0x80), 0],
    ['an encoded surrogate (ED A0 80)', bytes(0x61, 0xed, 0xa0, 0x80), 1],
    ['past U+10FFFF (F4 90 80 80)', bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ['a sequence cut short at the end', bytes(0x61, 0xe2, 0x82), 1],
    ['FF', bytes(0xff), 0],
  ])('%s', (_what, b, expected) => {
    expect(invalidUtf8Offset(b)).toBe(expected);
  });

  it('agrees with a fatal TextDecoder and node:buffer isUtf8 on random bytes', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    for (let i = 0; i < 3000; i++) {
      const b = randomBytes(1 + (i % 12));
      let decodes = true;
      try {
        fatal.decode(b);
      } catch {
        decodes = false;
      }
      expect(invalidUtf8Offset(b) < 0).toBe(decodes);
      if (!decodes) expect(() => fatal.decode(b.subarray(0, invalidUtf8Offset(b)))).not.toThrow();
    }
  });
});

describe(findInvalidUtf8.name, () => {
  it('names the value whose string holds the bytes, or the object whose member name does', () => {
    const body = Buffer.concat([Buffer.from('{"a":[1,{"b":"x'), Buffer.from([0xff]), Buffer.from('"}]}')]);
    expect(findInvalidUtf8(body)).toEqual({ path: ['a', 1, 'b'], reason: 'invalid_utf8', inName: false });
    const inName = Buffer.concat([Buffer.from('{"a":{"ok":1,"k'), Buffer.from([0xc0, 0x80]), Buffer.from('":1}}')]);
    expect(findInvalidUtf8(inName)).toEqual({ path: ['a'], reason: 'invalid_utf8', inName: true });
    expect(findInvalidUtf8(Buffer.from('{"a":"é"}'))).toBeNull();
  });
});

describe(isInexactNumber.name, () => {
  it.each([
    ['9007199254740991', false],
    ['-9007199254740991', false],
    ['9007199254740992', false],
    ['9007199254740993', true],
    ['-9007199254740993', true],
    ['10000000000000000', false],
    // 2^60 is a double; JSON.stringify and RFC 8785 write it 1152921504606847000, so that is what a
    // store would give back: its exact digits are refused, the digits it is written with accepted.
    ['1152921504606846976', true],
    ['1152921504606847000', false],
    ['123456789012345678901234567890', true],
    ['0.1', false],
    ['1.0', false],
    ['1e2', false],
    ['-0', false],
    ['0e99999', false],
    ['1.5e300', false],
    ['6.02214076e23', false],
    ['9007199254740993.0', true],
    ['1.2345678901234568e+29', false],
    ['0.10000000000000001', true],
    ['0.30000000000000004', false],
    ['3.141592653589793238', true],
    ['1e400', true],
    ['-1e400', true],
    ['1e-400', true],
    ['5e-324', false],
    ['1e21', false],
  ])('%s → %s', (literal, expected) => {
    expect(isInexactNumber(literal)).toBe(expected);
  });

  it('refuses an integer exactly when the digits the double is written with are another integer (BigInt)', () => {
    for (let i = 0; i < 2000; i++) {
      // Below 2^64 < 10^21, where JSON.stringify writes integers in full.
      const digits = String(BigInt(`0x${randomBytes(1 + (i % 8)).toString('hex')}`));
      const kept = BigInt(String(Number(digits))) === BigInt(digits);
      expect(isInexactNumber(digits)).toBe(!kept);
      expect(isInexactNumber(`-${digits}`)).toBe(!kept);
    }
  });

  it('accepts every number as JSON.stringify writes it (what a service passes on)', () => {
    for (let i = 0; i < 2000; i++) {
      const n = Number(`${randomBytes(3).readUIntBE(0, 3)}e${(i % 600) - 300}`) * (i % 2 ? -1 : 1);
      if (Number.isFinite(n)) expect(isInexactNumber(JSON.stringify(n))).toBe(false);
    }
    expect(isInexactNumber(JSON.stringify(2 ** 60))).toBe(false);
    expect(isInexactNumber(JSON.stringify(Number.MIN_VALUE))).toBe(false);
    expect(isInexactNumber(JSON.stringify(Number.MAX_VALUE))).toBe(false);
  });
});

describe(findInexactNumber.name, () => {
  it('names the first inexact number by its path, and ignores digits inside strings', () => {
    const text = '{"id":"12345678901234567890","a":[1,2,{"n":123456789012345678901234567890}],"b":9007199254740993}';
    expect(findInexactNumber(text)).toEqual({
      path: ['a', 2, 'n'],
      reason: 'inexact_number',
      inName: false,
      literal: '123456789012345678901234567890',
    });
    expect(findInexactNumber('{"k\\"ey":[0.1, 9007199254740991, "1e400"]}')).toBeNull();
    expect(findInexactNumber('{"a\\\\":1e400}')).toMatchObject({ path: ['a\\'] });
    expect(findInexactNumber('[1e400]')).toMatchObject({ path: [0] });
  });
});

describe(scanJsonText.name, () => {
  it('gives the position where a prefix of JSON text ends', () => {
    expect(scanJsonText('{"a":{"b":[true,null,"x')).toEqual({ path: ['a', 'b', 2], inName: false });
    expect(scanJsonText('{"a":{"b":1,"c')).toEqual({ path: ['a'], inName: true });
    expect(scanJsonText('[')).toEqual({ path: [0], inName: false });
    expect(scanJsonText('not json }}]]')).toEqual({ path: [], inName: false });
  });
});

describe(findRepeatedMemberName.name, () => {
  it('names the first member whose object already has its name, escaped spellings included', () => {
    expect(findRepeatedMemberName('{"verdict":"allowed","verdict":"blocked"}')).toEqual(['verdict']);
    expect(findRepeatedMemberName('{"a":[{"b":1},{"c":{"d":1,"e":2,"d":3}}]}')).toEqual(['a', 1, 'c', 'd']);
    expect(findRepeatedMemberName('{"verdict":1,"\\u0076erdict":2}')).toEqual(['verdict']);
    expect(findRepeatedMemberName('{"x":"{\\"y\\":1,\\"y\\":2}","z":{"x":1}}')).toBeNull();
  });

  it('takes one name in two objects, or in an array of objects, for no repetition, and agrees with JSON.parse on random objects', () => {
    expect(findRepeatedMemberName('[{"a":1},{"a":2}]')).toBeNull();
    expect(findRepeatedMemberName('{"a":{"a":{"a":1}},"b":[{"a":0}]}')).toBeNull();
    for (let i = 0; i < 200; i++) {
      const names = Array.from({ length: 1 + (i % 5) }, (_, j) => `k${(i * 7 + j * 3) % 4}`);
      const text = `{${names.map((n, j) => `${JSON.stringify(n)}:${j}`).join(',')}}`;
      const distinct = Object.keys(JSON.parse(text) as object).length === names.length;
      expect(findRepeatedMemberName(text) === null).toBe(distinct);
    }
  });
});

describe(countMemberNames.name, () => {
  it('counts the colons outside strings: one per member name, escaped quotes and backslashes read as JSON reads them', () => {
    expect(countMemberNames('{"a":1,"b":{"c":"x:y","d":[{"e":null}]}}')).toBe(5);
    expect(countMemberNames('{"a\\"":":","b\\\\":"\\\\",":":1}')).toBe(3);
    expect(countMemberNames('[1,"2:3",{}]')).toBe(0);
    expect(countMemberNames('"a:b"')).toBe(0);
  });

  it('equals the member count of the parsed value exactly when no name repeats, on random documents', () => {
    const members = (v: unknown): number =>
      v && typeof v === 'object'
        ? Array.isArray(v)
          ? v.reduce((n: number, x) => n + members(x), 0)
          : Object.entries(v).reduce((n, [, x]) => n + 1 + members(x), 0)
        : 0;
    for (let i = 0; i < 300; i++) {
      const names = ['a', 'b', 'a:"b', '\\', 'c'];
      const pick = (k: number) => names[(i * 7 + k * 3) % names.length];
      const inner = `{${[0, 1].map((k) => `${JSON.stringify(pick(k))}:${JSON.stringify(pick(k + 2))}`).join(',')}}`;
      const text = `{"x":${inner},${JSON.stringify(pick(4))}:[${inner},"q:\\"r"]}`;
      expect(countMemberNames(text) === members(JSON.parse(text))).toBe(findRepeatedMemberName(text) === null);
    }
  });
});
