import { createPublicKey, verify } from 'node:crypto';
import { generateP256KeyPair, p256PublicKeyToPem, p256SignHex } from '@arbiter/crypto';
import { Webhook } from 'standardwebhooks';
import { signDelivery, signedMessage } from './webhook-signature';

describe(signDelivery.name, () => {
  it('signs `<unix seconds>.<raw body>` so that node:crypto verifies it with the PEM key', () => {
    const pair = generateP256KeyPair();
    const body = JSON.stringify({ id: 'evt-0000000000000001', type: 'approval.requested', data: { é: 'ü' } });

    const sut = signDelivery(
      {
        body,
        eventType: 'approval.requested',
        deliveryId: 'dlv-1',
        attempt: 2,
        now: new Date('2026-03-01T10:00:00.900Z'),
        kid: 'webhooks:2026',
        secrets: [Buffer.alloc(32, 7)],
      },
      (m) => p256SignHex(m, pair.privateKey),
    );

    expect(sut.headers['X-Service-Timestamp']).toBe(String(Date.parse('2026-03-01T10:00:00Z') / 1000));
    expect(sut.headers).toMatchObject({
      'X-Service-Event': 'approval.requested',
      'X-Service-Key-Id': 'webhooks:2026',
      'X-Service-Delivery': 'dlv-1',
      'X-Service-Attempt': '2',
    });
    const key = createPublicKey(p256PublicKeyToPem(pair.publicKey));
    const message = Buffer.from(`${sut.headers['X-Service-Timestamp']}.${body}`, 'utf8');
    expect(verify('sha256', message, { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sut.headers['X-Service-Signature'], 'hex'))).toBe(
      true,
    );
    expect(
      verify(
        'sha256',
        Buffer.from(`${sut.headers['X-Service-Timestamp']}.${body} `),
        { key, dsaEncoding: 'ieee-p1363' },
        Buffer.from(sut.headers['X-Service-Signature'], 'hex'),
      ),
    ).toBe(false);
  });

  it('adds the Standard Webhooks headers: the delivery id as webhook-id and the same timestamp', () => {
    const secret = Buffer.alloc(32, 9);
    const now = new Date('2026-03-01T10:00:00Z');
    const body = '{"id":"evt-0000000000000002"}';

    const sut = signDelivery(
      { body, eventType: 'rule.created', deliveryId: 'dlv-2', attempt: 1, now, kid: 'k', secrets: [secret] },
      () => 'ab',
    );

    expect(sut.headers['webhook-id']).toBe('dlv-2');
    expect(sut.headers['webhook-timestamp']).toBe(sut.headers['X-Service-Timestamp']);
    const wh = new Webhook(secret.toString('base64'));
    // standardwebhooks refuses timestamps more than 5 minutes from its clock, so give it this one.
    jest.useFakeTimers({ now });
    try {
      expect(wh.verify(body, sut.headers)).toEqual({ id: 'evt-0000000000000002' });
    } finally {
      jest.useRealTimers();
    }
  });

  it('builds the message as timestamp, dot, body', () => {
    expect(signedMessage(1700000000, '{"a":1}')).toBe('1700000000.{"a":1}');
  });
});
