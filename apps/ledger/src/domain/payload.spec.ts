import { canonicalPayload, LIMITS, PayloadError } from './payload';

describe(canonicalPayload.name, () => {
  it('returns the RFC 8785 text of an object payload', () => {
    expect(canonicalPayload({ b: [1, 2.5, -0], a: 'x' })).toBe('{"a":"x","b":[1,2.5,0]}');
  });

  it.each([[[1, 2]], [null], ['text'], [42], [true]])('refuses a non-object payload %j', (value) => {
    expect(() => canonicalPayload(value)).toThrow(PayloadError);
  });

  it('refuses a payload nested deeper than the limit, and accepts one at the limit', () => {
    const nest = (depth: number) => {
      let v: object = {};
      for (let i = 1; i < depth; i++) v = { v };
      return v;
    };
    expect(() => canonicalPayload(nest(LIMITS.payloadDepth))).not.toThrow();
    expect(() => canonicalPayload(nest(LIMITS.payloadDepth + 1))).toThrow(/nested deeper/);
  });

  it('refuses a pathologically deep payload without exhausting the stack', () => {
    const deep = JSON.parse(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(() => canonicalPayload(deep)).toThrow(/nested deeper/);
  });

  it('counts the size as UTF-8 bytes of the canonical form', () => {
    const overhead = '{"s":""}'.length;
    expect(() => canonicalPayload({ s: 'a'.repeat(LIMITS.payloadBytes - overhead) })).not.toThrow();
    expect(() => canonicalPayload({ s: 'a'.repeat(LIMITS.payloadBytes - overhead + 1) })).toThrow(/limit is 65536/);
    expect(() => canonicalPayload({ s: 'é'.repeat((LIMITS.payloadBytes - overhead) / 2 + 1) })).toThrow(/limit is 65536/);
  });

  it('refuses strings without a UTF-8 form (lone surrogates), naming the member', () => {
    expect(() => canonicalPayload({ a: [{ s: '\ud800' }] })).toThrow(
      expect.objectContaining({
        field: 'custom_payload.a.0.s',
        message: 'custom_payload.a.0.s contains a lone UTF-16 surrogate, which cannot be stored',
      }),
    );
    expect(() => canonicalPayload({ ['k\udc00']: 1 })).toThrow(expect.objectContaining({ field: 'custom_payload.k\udc00' }));
  });

  it('refuses U+0000 in a value or a member name at any depth, naming it', () => {
    expect(() => canonicalPayload({ a: { b: 'x\u0000y' } })).toThrow(
      expect.objectContaining({ field: 'custom_payload.a.b', message: 'custom_payload.a.b contains U+0000 (NUL), which cannot be stored' }),
    );
    expect(() => canonicalPayload({ a: { ['b\u0000']: 1 } })).toThrow(
      expect.objectContaining({
        field: 'custom_payload.a.b\u0000',
        message: 'The member name "custom_payload.a.b\\u0000" contains U+0000 (NUL), which cannot be stored',
      }),
    );
    expect(() => canonicalPayload({ list: [1, ['\u0000']] })).toThrow(expect.objectContaining({ field: 'custom_payload.list.1.0' }));
  });

  it('names U+0000 before the other faults of a payload (too deep, too large)', () => {
    const deep = JSON.parse(`{"s":"\\u0000","a":${'['.repeat(40)}${']'.repeat(40)}}`);
    expect(() => canonicalPayload(deep)).toThrow(expect.objectContaining({ field: 'custom_payload.s' }));
    expect(() => canonicalPayload({ big: 'x'.repeat(LIMITS.payloadBytes), k: '\u0000' })).toThrow(
      expect.objectContaining({ field: 'custom_payload.k' }),
    );
  });

  it('keeps the text `\\u0000` (an escaped backslash), which holds no NUL', () => {
    expect(canonicalPayload({ s: '\\u0000', ['\\u0000']: 1 })).toBe('{"\\\\u0000":1,"s":"\\\\u0000"}');
  });
});
