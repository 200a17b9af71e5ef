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

  it('refuses strings without a UTF-8 form (lone surrogates)', () => {
    expect(() => canonicalPayload({ s: '\ud800' })).toThrow(/canonical JSON/);
  });
});
