// Verifies a webhook delivery of the registry (docs/registry.md "Events"; docs/webhooks.md "Checking the
// signature"): ECDSA P-256 / SHA-256 over `<X-Service-Timestamp>.<raw body>`, the signature being the
// hex of the 64-byte r||s form (IEEE P1363), under a key of GET /.well-known/webhook-key.
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { expectFresh } from './freshness';
import { ReportBuilder, type VerificationReport } from './report';
import { expectBound, type WebhookBinding } from './webhook-binding';

type Rec = Record<string, unknown>;

export interface WebhookKeyEntry {
  kid?: string;
  pem?: string;
  jwk?: Rec;
  not_before?: string;
  not_after?: string | null;
}

/** `tenantId` and `subscriptionId`: your subscription's, checked against the body's (see WebhookBinding). */
export interface VerifyWebhookInput extends WebhookBinding {
  /** The raw body exactly as received (before any JSON parsing). */
  body: Buffer | string;
  /** X-Service-Timestamp (Unix seconds). */
  timestamp: string | number;
  /** X-Service-Signature (128 hex digits). */
  signature: string;
  /** A PEM public key, or the document of GET /.well-known/webhook-key, or one of its entries. */
  key: string | WebhookKeyEntry | { keys: WebhookKeyEntry[] };
  /** X-Service-Key-Id: which key of the set signed (else every key is tried). */
  keyId?: string;
  /** Refuse deliveries signed more than this many seconds from `now` (replay protection). */
  maxAgeSeconds?: number;
  now?: Date | number;
}

function candidates(key: VerifyWebhookInput['key'], keyId?: string): WebhookKeyEntry[] {
  if (typeof key === 'string') return [{ pem: key, kid: keyId }];
  const doc = key as Rec;
  const listed = Array.isArray(doc.keys) ? (doc.keys as WebhookKeyEntry[]) : [];
  const all = listed.length ? listed : [key as WebhookKeyEntry];
  return keyId ? all.filter((k) => k.kid === keyId) : all;
}

function publicKeyOf(entry: WebhookKeyEntry): KeyObject {
  if (entry.pem) return createPublicKey(entry.pem);
  if (entry.jwk) return createPublicKey({ key: entry.jwk as never, format: 'jwk' });
  throw new Error(`key ${entry.kid ?? '(no kid)'} has neither pem nor jwk`);
}

export function verifyWebhookSignature(input: VerifyWebhookInput): VerificationReport {
  const report = new ReportBuilder('webhook delivery');
  const ts = String(input.timestamp).trim();
  if (!/^\d{1,12}$/.test(ts)) return report.fail('timestamp', `timestamp ${JSON.stringify(input.timestamp)} is not Unix seconds`).build();
  const hex = input.signature.trim().toLowerCase();
  if (!/^[0-9a-f]{128}$/.test(hex))
    return report.fail('signature', `the signature is not 128 hex digits (the 64-byte r||s form); got ${hex.length} characters`).build();

  const keys = candidates(input.key, input.keyId);
  if (!keys.length)
    return report.fail('key', input.keyId ? `no key ${input.keyId} in the webhook key set` : 'the key set has no keys').build();

  const message = Buffer.concat([
    Buffer.from(`${ts}.`, 'utf8'),
    Buffer.isBuffer(input.body) ? input.body : Buffer.from(input.body, 'utf8'),
  ]);
  const signature = Buffer.from(hex, 'hex');
  let signer: WebhookKeyEntry | undefined;
  const unusable: string[] = [];
  for (const entry of keys) {
    try {
      if (verify('sha256', message, { key: publicKeyOf(entry), dsaEncoding: 'ieee-p1363' }, signature)) {
        signer = entry;
        break;
      }
    } catch (err) {
      unusable.push(`${entry.kid ?? 'the key'}: ${(err as Error).message}`);
    }
  }
  const tried = keys.map((k) => k.kid ?? 'the key').join(', ');
  if (!signer) {
    const why = unusable.length ? ` (unusable: ${unusable.join('; ')})` : '';
    return report
      .fail(
        'signature',
        `the ECDSA P-256 signature does not verify over "<timestamp>.<body>" with ${tried}${why}: the body, the timestamp or the signature was changed, or another key signed it`,
      )
      .build();
  }
  report.pass('signature', `ECDSA P-256 signature valid with ${signer.kid ?? 'the key'} over ${message.length} bytes`);

  const signedAt = Number(ts) * 1000;
  if (signer.not_before) {
    // The registry signs with the key current at the attempt; a retired key may still verify older deliveries.
    const nb = Math.floor(Date.parse(signer.not_before) / 1000) * 1000;
    const na = signer.not_after ? Date.parse(signer.not_after) : null;
    report.expect(
      'key_window',
      signedAt >= nb && (na === null || signedAt < na),
      `signed at ${new Date(signedAt).toISOString()}, inside key ${signer.kid}'s window`,
      `signed at ${new Date(signedAt).toISOString()}, outside key ${signer.kid}'s window [${signer.not_before}, ${signer.not_after ?? '∞'})`,
    );
  }
  if (input.maxAgeSeconds !== undefined) expectFresh(report, signedAt, input.maxAgeSeconds, input.now);
  expectBound(report, input.body, input);
  return report.build();
}
