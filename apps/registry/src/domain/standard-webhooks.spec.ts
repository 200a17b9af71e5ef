import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import {
  formatSecret,
  newSecretBytes,
  openSecret,
  resealSecret,
  sealSecret,
  standardSignature,
  standardSignedContent,
  standardWebhookHeaders,
} from './standard-webhooks';

const kek = Buffer.alloc(32, 1);

/** The reference library's clock must be near the signed timestamp; tests pin it. */
function verifyAt(secret: string, body: string, headers: Record<string, string>, now: Date): unknown {
  jest.useFakeTimers({ now });
  try {
    return new Webhook(secret).verify(body, headers);
  } finally {
    jest.useRealTimers();
  }
}

describe('Standard Webhooks signing', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  const ts = Math.floor(now.getTime() / 1000);
  const body = JSON.stringify({ id: 'evt-00000000000000aa', type: 'approval.requested', data: { note: 'é ü' } });

  it('makes a whsec_ secret of 32 random bytes that the reference library accepts and verifies with', () => {
    const bytes = newSecretBytes();
    const secret = formatSecret(bytes);

    const headers = standardWebhookHeaders('dlv-0123', ts, body, [bytes]);

    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toEqual(bytes);
    expect(newSecretBytes()).not.toEqual(bytes);
    expect(headers).toEqual({
      'webhook-id': 'dlv-0123',
      'webhook-timestamp': String(ts),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(verifyAt(secret, body, headers, now)).toEqual(JSON.parse(body));
  });

  it('signs with every secret given, space-separated, each verifying on its own', () => {
    const [a, b] = [newSecretBytes(), newSecretBytes()];

    const headers = standardWebhookHeaders('dlv-0456', ts, body, [a, b]);

    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyAt(formatSecret(a), body, headers, now)).toEqual(JSON.parse(body));
    expect(verifyAt(formatSecret(b), body, headers, now)).toEqual(JSON.parse(body));
    expect(() => verifyAt(formatSecret(newSecretBytes()), body, headers, now)).toThrow(WebhookVerificationError);
  });

  it('covers the id, the timestamp and the body: changing any fails verification', () => {
    const bytes = newSecretBytes();
    const secret = formatSecret(bytes);
    const headers = standardWebhookHeaders('dlv-0789', ts, body, [bytes]);

    expect(() => verifyAt(secret, body.replace('é', 'e'), headers, now)).toThrow(WebhookVerificationError);
    expect(() => verifyAt(secret, body, { ...headers, 'webhook-id': 'dlv-0780' }, now)).toThrow(WebhookVerificationError);
    expect(() => verifyAt(secret, body, { ...headers, 'webhook-timestamp': String(ts + 1) }, now)).toThrow(WebhookVerificationError);
  });

  it('is HMAC-SHA256 over `<id>.<timestamp>.<body>`, base64, behind `v1,`', () => {
    const key = Buffer.from('k'.repeat(24));
    const expected = createHmac('sha256', key).update(`msg_1.1674087231.{"a":1}`).digest('base64');

    expect(standardSignedContent('msg_1', 1674087231, '{"a":1}')).toBe('msg_1.1674087231.{"a":1}');
    expect(standardSignature('msg_1', 1674087231, '{"a":1}', [key])).toBe(`v1,${expected}`);
  });

  it('refuses to sign without a secret, or with an id holding a dot', () => {
    expect(() => standardSignature('dlv-1', ts, body, [])).toThrow(/at least one secret/);
    expect(() => standardSignature('dlv.1', ts, body, [newSecretBytes()])).toThrow(/dot/);
  });
});

describe('secrets at rest', () => {
  it('round-trips under the key and the subscription id, and never stores the secret in clear', () => {
    const bytes = newSecretBytes();

    const sealed = sealSecret(bytes, 'whk-1', kek);

    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(bytes.toString('base64'));
    expect(sealed).not.toContain(bytes.toString('base64url'));
    expect(openSecret(sealed, 'whk-1', kek)).toEqual(bytes);
  });

  it('does not open under another subscription id or another key', () => {
    const sealed = sealSecret(newSecretBytes(), 'whk-1', kek);

    expect(() => openSecret(sealed, 'whk-2', kek)).toThrow(/does not decrypt/);
    expect(() => openSecret(sealed, 'whk-1', Buffer.alloc(32, 2))).toThrow(/does not decrypt/);
  });

  it('opens under KEY_ENCRYPTION_KEY_PREVIOUS during a rotation, and reseals under the current key only what needs it', () => {
    const bytes = newSecretBytes();
    const newKek = Buffer.alloc(32, 7);
    const underOld = sealSecret(bytes, 'whk-1', kek);

    expect(openSecret(underOld, 'whk-1', newKek, kek)).toEqual(bytes);
    expect(() => openSecret(underOld, 'whk-1', newKek)).toThrow(/does not decrypt/);
    const resealed = resealSecret(underOld, 'whk-1', newKek, kek)!;
    expect(openSecret(resealed, 'whk-1', newKek)).toEqual(bytes);
    expect(resealSecret(resealed, 'whk-1', newKek, kek)).toBeNull();
    expect(() => resealSecret(underOld, 'whk-1', newKek, Buffer.alloc(32, 9))).toThrow(/does not decrypt/);
  });
});
