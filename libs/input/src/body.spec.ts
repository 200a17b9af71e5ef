import { decodeJsonBytes, jsonPointer, parseStorableJson, UnstorableJsonError } from './body';

describe(parseStorableJson.name, () => {
  const refusal = (input: Buffer | string) => {
    try {
      parseStorableJson(input);
    } catch (err) {
      if (err instanceof UnstorableJsonError) return err;
      throw err;
    }
    throw new Error('accepted');
  };

  it('reads what can be stored exactly, as JSON.parse does', () => {
    const text = '{"a":[0.1,9007199254740991,-0,1e21,"é 😀 \\\\u0000"],"b":{"c":null}}';
    expect(parseStorableJson(text)).toEqual(JSON.parse(text));
    expect(parseStorableJson(Buffer.from(text))).toEqual(JSON.parse(text));
  });

  it.each([
    [
      'bytes that are not UTF-8',
      Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
      'invalid_utf8',
      '/a',
    ],
    ['an integer the double cannot hold', '{"a":{"b":123456789012345678901234567890}}', 'inexact_number', '/a/b'],
    ['U+0000', '{"a":["\\u0000"]}', 'nul', '/a/0'],
    ['an escaped lone surrogate', '{"x/y":"\\ud800"}', 'lone_surrogate', '/x~1y'],
    ['nesting past 64 levels', `${'['.repeat(65)}${']'.repeat(65)}`, 'too_deep', `/${Array(64).fill(0).join('/')}`],
  ])('refuses %s, naming where', (_what, input, reason, pointer) => {
    const err = refusal(input);
    expect(err.unstorable.reason).toBe(reason);
    expect(jsonPointer(err.unstorable.path)).toBe(pointer);
    expect(err).toMatchObject({ status: 400, type: 'entity.unstorable' });
  });

  it('leaves a text that is not JSON to JSON.parse', () => {
    expect(() => parseStorableJson('{"a":')).toThrow(SyntaxError);
  });
});

describe(decodeJsonBytes.name, () => {
  it('decodes UTF-8 (a byte order mark included) and refuses an overlong NUL', () => {
    expect(decodeJsonBytes(Buffer.from('\ufeff{"a":"é"}'))).toBe('\ufeff{"a":"é"}');
    expect(() => decodeJsonBytes(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0x80, 0x22, 0x7d]))).toThrow(UnstorableJsonError);
  });
});

describe(jsonPointer.name, () => {
  it('writes RFC 6901 pointers', () => {
    expect(jsonPointer([])).toBe('');
    expect(jsonPointer(['a/b', 'm~n', 0, ''])).toBe('/a~1b/m~0n/0/');
  });
});
