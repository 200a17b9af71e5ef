import { Webhook } from 'standardwebhooks';
import { verifyStandardWebhook } from './standard-webhook';

// Signed with the `standardwebhooks` reference library; the SDK verifies with its own node:crypto code.
const secretA = `whsec_${Buffer.alloc(32, 0xa1).toString('base64')}`;
const secretB = `whsec_${Buffer.alloc(32, 0xb2).toString('base64')}`;
const body = '{"id":"evt-000000000000002a","type":"approval.requested","data":{"note":"café ✓"}}';
const id = 'dlv-0123456789abcdef01234567';
const at = new Date('2026-03-01T12:00:00Z');
const timestamp = String(at.getTime() / 1000);
const sign = (secret: string, msgId = id) => new Webhook(secret).sign(msgId, at, body);

describe(verifyStandardWebhook.name, () => {
  const sut = verifyStandardWebhook;

  it('verifies a signature made by the reference library, with the raw body as text or bytes', () => {
    const signature = sign(secretA);

    expect(sut({ body, id, timestamp, signature, secret: secretA })).toMatchObject({
      valid: true,
      checks: [
        { check: 'signature', status: 'pass' },
        { check: 'binding', status: 'info' },
      ],
    });
    expect(sut({ body: Buffer.from(body), id, timestamp: Number(timestamp), signature, secret: secretA.slice(6) }).valid).toBe(true);
  });

  it('accepts either entry of a rotation, and either of several secrets on the receiving side', () => {
    const signature = `${sign(secretB)} ${sign(secretA)}`;

    expect(sut({ body, id, timestamp, signature, secret: secretA }).valid).toBe(true);
    expect(sut({ body, id, timestamp, signature, secret: secretB }).valid).toBe(true);
    expect(sut({ body, id, timestamp, signature: sign(secretB), secret: [secretA, secretB] }).checks[0].message).toContain('secret 2 of 2');
  });

  it('fails a changed body, id or timestamp, and another secret', () => {
    const signature = sign(secretA);

    for (const report of [
      sut({ body: body.replace('café', 'cafe'), id, timestamp, signature, secret: secretA }),
      sut({ body, id: 'dlv-0123456789abcdef01234568', timestamp, signature, secret: secretA }),
      sut({ body, id, timestamp: String(Number(timestamp) + 1), signature, secret: secretA }),
      sut({ body, id, timestamp, signature, secret: secretB }),
    ]) {
      expect(report).toMatchObject({ valid: false, checks: [{ check: 'signature', status: 'fail' }] });
    }
  });

  it('refuses malformed inputs with a reason', () => {
    const signature = sign(secretA);

    expect(sut({ body, id, timestamp: 'soon', signature, secret: secretA }).checks[0]).toMatchObject({
      check: 'timestamp',
      status: 'fail',
    });
    expect(sut({ body, id: 'a.b', timestamp, signature, secret: secretA }).checks[0]).toMatchObject({ check: 'id', status: 'fail' });
    expect(sut({ body, id, timestamp, signature, secret: 'not a secret!' }).checks[0]).toMatchObject({ check: 'secret', status: 'fail' });
    expect(sut({ body, id, timestamp, signature: signature.replace('v1,', 'v1a,'), secret: secretA }).checks[0]).toMatchObject({
      check: 'signature',
      status: 'fail',
    });
  });

  it('checks the age when asked', () => {
    const signature = sign(secretA);

    expect(sut({ body, id, timestamp, signature, secret: secretA, maxAgeSeconds: 300, now: at.getTime() + 299_000 }).valid).toBe(true);
    const late = sut({ body, id, timestamp, signature, secret: secretA, maxAgeSeconds: 300, now: at.getTime() + 301_000 });
    expect(late.valid).toBe(false);
    expect(late.checks[1]).toMatchObject({ check: 'timestamp', status: 'fail' });
  });

  it('checks the tenant and subscription the body names when they are given', () => {
    const bound = '{"id":"evt-000000000000002a","tenant_id":"tnt-a","subscription_id":"whk-a","data":{}}';
    const signature = new Webhook(secretA).sign(id, at, bound);

    expect(sut({ body: bound, id, timestamp, signature, secret: secretA, tenantId: 'tnt-a', subscriptionId: 'whk-a' }).valid).toBe(true);
    const other = sut({ body: bound, id, timestamp, signature, secret: secretA, tenantId: 'tnt-a', subscriptionId: 'whk-b' });
    expect(other.valid).toBe(false);
    expect(other.checks.find((c) => c.check === 'subscription_id')).toMatchObject({ status: 'fail' });
  });
});
