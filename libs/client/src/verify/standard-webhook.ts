// Verifies a webhook delivery by its Standard Webhooks headers (docs/webhooks.md "Standard Webhooks"):
// HMAC-SHA256, keyed with the subscription's secret (`whsec_` + base64), over
// `<webhook-id>.<webhook-timestamp>.<raw body>`; webhook-signature lists `v1,<base64>` entries,
// space-separated (two during a secret rotation), and one matching entry suffices.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { expectFresh } from './freshness';
import { ReportBuilder, type VerificationReport } from './report';
import { expectBound, type WebhookBinding } from './webhook-binding';

/**
 * `tenantId` and `subscriptionId`: your subscription's, checked against the body's. The secret is
 * the subscription's own, so a matching HMAC already ties the delivery to the subscriptions sharing
 * that secret; the ids say which one (see WebhookBinding).
 */
export interface VerifyStandardWebhookInput extends WebhookBinding {
  /** The raw body exactly as received (before any JSON parsing). */
  body: Buffer | string;
  /** The `webhook-id` header (the registry's delivery id, the same on every retry). */
  id: string;
  /** The `webhook-timestamp` header (Unix seconds). */
  timestamp: string | number;
  /** The `webhook-signature` header. */
  signature: string;
  /** The subscription's secret, `whsec_…` (or the bare base64); several while rotating on the receiving side. */
  secret: string | string[];
  /** Refuse deliveries signed more than this many seconds from `now` (the libraries use 300). */
  maxAgeSeconds?: number;
  now?: Date | number;
}

const SECRET = /^(?:whsec_)?([A-Za-z0-9+/]+={0,2})$/;

export function verifyStandardWebhook(input: VerifyStandardWebhookInput): VerificationReport {
  const report = new ReportBuilder(`webhook delivery ${input.id}`);
  const ts = String(input.timestamp).trim();
  if (!/^\d{1,12}$/.test(ts))
    return report.fail('timestamp', `webhook-timestamp ${JSON.stringify(input.timestamp)} is not Unix seconds`).build();
  if (!input.id || input.id.includes('.'))
    return report.fail('id', `webhook-id ${JSON.stringify(input.id)} is empty or holds a dot`).build();
  const secrets = (Array.isArray(input.secret) ? input.secret : [input.secret]).map((s) => SECRET.exec(s.trim())?.[1]);
  if (!secrets.length || secrets.some((s) => !s)) return report.fail('secret', 'a secret is not "whsec_" followed by base64').build();
  const entries = input.signature
    .trim()
    .split(/\s+/)
    .map((e) => e.split(','))
    .filter(([version, sig]) => version === 'v1' && sig)
    .map(([, sig]) => Buffer.from(sig, 'base64'));
  if (!entries.length) return report.fail('signature', 'webhook-signature has no "v1,<base64>" entry').build();

  const body = Buffer.isBuffer(input.body) ? input.body : Buffer.from(input.body, 'utf8');
  const content = Buffer.concat([Buffer.from(`${input.id}.${ts}.`, 'utf8'), body]);
  const matched = secrets.findIndex((s) => {
    const expected = createHmac('sha256', Buffer.from(s!, 'base64')).update(content).digest();
    return entries.some((got) => got.length === expected.length && timingSafeEqual(got, expected));
  });
  if (matched < 0) {
    return report
      .fail(
        'signature',
        `no v1 entry of ${entries.length} matches HMAC-SHA256 over "<id>.<timestamp>.<body>" with the secret(s) given: the body, id or timestamp was changed, or another secret signed it`,
      )
      .build();
  }
  report.pass(
    'signature',
    `HMAC-SHA256 signature valid with secret ${matched + 1} of ${secrets.length} over ${content.length} bytes (${entries.length} v1 entr${entries.length === 1 ? 'y' : 'ies'})`,
  );

  if (input.maxAgeSeconds !== undefined) expectFresh(report, Number(ts) * 1000, input.maxAgeSeconds, input.now);
  expectBound(report, body, input);
  return report.build();
}
