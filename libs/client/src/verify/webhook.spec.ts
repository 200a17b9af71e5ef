import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { verifyWebhookSignature } from './webhook';

// Signed with @noble/curves (as the registry's libs/crypto does); the SDK verifies with node:crypto.
const secret = p256.utils.randomSecretKey();
const point = p256.getPublicKey(secret, false);
const jwk = {
  kty: 'EC',
  crv: 'P-256',
  x: Buffer.from(point.subarray(1, 33)).toString('base64url'),
  y: Buffer.from(point.subarray(33)).toString('base64url'),
};
const pem = createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
const signHex = (message: string) =>
  Buffer.from(p256.sign(Buffer.from(message), secret, { prehash: true, format: 'compact' })).toString('hex');

const body = '{"id":"evt-000000000000002a","type":"approval.requested","data":{"note":"café ✓"}}';
const timestamp = '1772366400';
const signature = signHex(`${timestamp}.${body}`);
// An unrelated, retired key of the same set.
const otherPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
const keySet = {
  kid: 'webhooks:2026.1',
  keys: [
    { kid: 'webhooks:2026', pem: otherPem, not_before: '2026-01-01T00:00:00Z', not_after: '2026-02-01T00:00:00Z' },
    { kid: 'webhooks:2026.1', jwk, not_before: '2026-02-01T00:00:00Z', not_after: null },
  ],
};

describe(verifyWebhookSignature.name, () => {
  const sut = verifyWebhookSignature;

  it('verifies a delivery with a PEM key', () => {
    expect(sut({ body, timestamp, signature, key: pem })).toMatchObject({
      valid: true,
      checks: [
        { check: 'signature', status: 'pass' },
        { check: 'binding', status: 'info', message: expect.stringContaining('not checked') },
      ],
    });
  });

  it('finds the signing key in the published key set and checks its window', () => {
    const report = sut({ body: Buffer.from(body), timestamp, signature, key: keySet });
    expect(report.valid).toBe(true);
    expect(report.checks.map((c) => c.message).join(' ')).toContain('webhooks:2026.1');
  });

  it('fails a changed body byte, saying what may have changed', () => {
    const report = sut({ body: body.replace('café', 'cafe'), timestamp, signature, key: pem });
    expect(report.valid).toBe(false);
    expect(report.checks[0]).toMatchObject({
      check: 'signature',
      status: 'fail',
      message: expect.stringContaining('the body, the timestamp or the signature was changed'),
    });
  });

  it('fails another timestamp (the signature covers it)', () => {
    expect(sut({ body, timestamp: '1772366401', signature, key: pem }).valid).toBe(false);
  });

  it('fails with a key id the set does not have', () => {
    const report = sut({ body, timestamp, signature, key: keySet, keyId: 'webhooks:1999' });
    expect(report.checks[0]).toMatchObject({ check: 'key', status: 'fail', message: 'no key webhooks:1999 in the webhook key set' });
  });

  it('fails a delivery signed outside the key window', () => {
    const early = '1767225600'; // 2026-01-01, before webhooks:2026.1 existed
    const report = sut({ body, timestamp: early, signature: signHex(`${early}.${body}`), key: keySet });
    expect(report.valid).toBe(false);
    expect(report.checks.find((c) => c.check === 'key_window')?.message).toContain('outside key webhooks:2026.1');
  });

  it('fails an old delivery when a maximum age is asked for', () => {
    const report = sut({ body, timestamp, signature, key: pem, maxAgeSeconds: 300, now: (Number(timestamp) + 3600) * 1000 });
    expect(report.checks.find((c) => c.check === 'timestamp')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('3600 s ago'),
    });
  });

  it('refuses a signature that is not 128 hex digits', () => {
    expect(sut({ body, timestamp, signature: 'abc', key: pem }).checks[0]).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('128 hex digits'),
    });
  });

  describe('the tenant and subscription the delivery was made for', () => {
    const bound = '{"id":"evt-000000000000002a","type":"approval.requested","tenant_id":"tnt-a","subscription_id":"whk-a","data":{}}';
    const boundSignature = signHex(`${timestamp}.${bound}`);
    const check = (tenantId?: string, subscriptionId?: string, b = bound, sig = boundSignature) =>
      sut({ body: b, timestamp, signature: sig, key: pem, tenantId, subscriptionId });

    it('passes when the body names the tenant and subscription given', () => {
      const report = check('tnt-a', 'whk-a');
      expect(report.valid).toBe(true);
      expect(report.checks.map((c) => [c.check, c.status])).toEqual([
        ['signature', 'pass'],
        ['tenant_id', 'pass'],
        ['subscription_id', 'pass'],
      ]);
    });

    it('refuses a validly signed delivery made for another subscription or tenant (a replay to another receiver)', () => {
      expect(check('tnt-a', 'whk-b').checks.find((c) => c.check === 'subscription_id')).toMatchObject({
        status: 'fail',
        message: expect.stringContaining('made for another subscription'),
      });
      expect(check('tnt-b').valid).toBe(false);
      expect(check(undefined, 'whk-b').valid).toBe(false);
    });

    it('refuses a body without the fields, or not a JSON object, when ids are given (fail closed)', () => {
      expect(check('tnt-a', undefined, body, signature).checks.find((c) => c.check === 'tenant_id')?.message).toContain('absent');
      const text = 'not json';
      expect(
        check('tnt-a', undefined, text, signHex(`${timestamp}.${text}`)).checks.find((c) => c.check === 'tenant_id')?.message,
      ).toContain('not a JSON object');
    });
  });
});
