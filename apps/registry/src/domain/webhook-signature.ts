/**
 * What a webhook receiver checks (docs/registry.md "Events"; docs/webhooks.md): the message is the
 * Unix timestamp in seconds, a dot, and the raw body bytes; the signature is ECDSA P-256 with
 * SHA-256 over it, hex of the 64-byte r||s form. Every delivery also carries the Standard Webhooks
 * headers (./standard-webhooks.ts), with the delivery id as webhook-id and the same timestamp.
 */
import { standardWebhookHeaders } from './standard-webhooks';

export const WEBHOOK_HEADERS = {
  event: 'X-Service-Event',
  timestamp: 'X-Service-Timestamp',
  signature: 'X-Service-Signature',
  /** Extensions: the signing key (see /.well-known/webhook-key), the delivery (stable across retries) and the attempt number. */
  keyId: 'X-Service-Key-Id',
  delivery: 'X-Service-Delivery',
  attempt: 'X-Service-Attempt',
} as const;

export function signedMessage(timestampSeconds: number, rawBody: string): string {
  return `${timestampSeconds}.${rawBody}`;
}

export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * The body and headers of one attempt; `sign` makes the hex signature of the message, `secrets`
 * (the subscription's, at least one) the HMAC signatures of webhook-signature.
 */
export function signDelivery(
  input: { body: string; eventType: string; deliveryId: string; attempt: number; now: Date; kid: string; secrets: Uint8Array[] },
  sign: (message: string) => string,
): SignedRequest {
  const ts = Math.floor(input.now.getTime() / 1000);
  return {
    body: input.body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'Arbiter-Webhooks/1.0',
      [WEBHOOK_HEADERS.event]: input.eventType,
      [WEBHOOK_HEADERS.timestamp]: String(ts),
      [WEBHOOK_HEADERS.signature]: sign(signedMessage(ts, input.body)),
      [WEBHOOK_HEADERS.keyId]: input.kid,
      [WEBHOOK_HEADERS.delivery]: input.deliveryId,
      [WEBHOOK_HEADERS.attempt]: String(input.attempt),
      ...standardWebhookHeaders(input.deliveryId, ts, input.body, input.secrets),
    },
  };
}
