import { base64ToBytes, base64UrlToBytes, bytesToBase64, bytesToBase64Url, bytesToHex, hexToBytes, toBytes } from './encoding';
import { catchCryptoError } from './test-helpers';

const bytes = new Uint8Array([0xfb, 0xff, 0x00, 0x10, 0x7e]);

describe(base64ToBytes.name, () => {
  it('round-trips with bytesToBase64', () => {
    expect(bytesToBase64(bytes)).toBe('+/8AEH4=');
    expect(base64ToBytes('+/8AEH4=')).toEqual(bytes);
  });

  it.each(['+/8AEH4', '-_8AEH4=', '+/8AEH5=', '+/8A EH4=', '===='])('rejects %p with malformed_encoding', (s) => {
    expect(catchCryptoError(() => base64ToBytes(s)).code).toBe('malformed_encoding');
  });
});

describe(base64UrlToBytes.name, () => {
  it('round-trips with bytesToBase64Url', () => {
    expect(bytesToBase64Url(bytes)).toBe('-_8AEH4');
    expect(base64UrlToBytes('-_8AEH4')).toEqual(bytes);
  });

  it.each(['-_8AEH4=', '+/8AEH4', '-_8AEH5', 'A'])('rejects %p with malformed_encoding', (s) => {
    expect(catchCryptoError(() => base64UrlToBytes(s)).code).toBe('malformed_encoding');
  });
});

describe(hexToBytes.name, () => {
  it('round-trips with bytesToHex and accepts either case', () => {
    expect(bytesToHex(bytes)).toBe('fbff00107e');
    expect(hexToBytes('FBFF00107E')).toEqual(bytes);
  });

  it.each(['abc', 'zz', '0x00'])('rejects %p with malformed_encoding', (s) => {
    expect(catchCryptoError(() => hexToBytes(s)).code).toBe('malformed_encoding');
  });
});

describe(toBytes.name, () => {
  it('encodes strings as UTF-8 and passes bytes through', () => {
    expect(toBytes('é')).toEqual(new Uint8Array([0xc3, 0xa9]));
    expect(toBytes(bytes)).toBe(bytes);
  });
});
