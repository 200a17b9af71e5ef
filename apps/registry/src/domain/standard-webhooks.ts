/**
 * Standard Webhooks 1.0, symmetric scheme (docs/webhooks.md "Standard Webhooks"): each delivery
 * also carries `webhook-id`, `webhook-timestamp` and `webhook-signature`, the latter a
 * space-separated list of `v1,<base64 HMAC-SHA256>` over `<webhook-id>.<webhook-timestamp>.<raw
 * body>`, one entry per secret in use (two during a rotation's overlap). A secret is 32 random
 * bytes, shown to the subscriber as `whsec_<base64>`, and kept encrypted under KEY_ENCRYPTION_KEY
 * with the subscription id as associated data, so a ciphertext copied onto another subscription
 * does not decrypt.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { decryptSecretRotating, encryptSecret } from '@arbiter/crypto';

export const STANDARD_WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

export const SECRET_PREFIX = 'whsec_';
/** The specification asks for at least 24 bytes. */
export const SECRET_BYTES = 32;

/** A new secret's bytes. */
export function newSecretBytes(): Buffer {
  return randomBytes(SECRET_BYTES);
}

/** The form a subscriber is shown (and the `standardwebhooks` libraries accept). */
export function formatSecret(bytes: Uint8Array): string {
  return SECRET_PREFIX + Buffer.from(bytes).toString('base64');
}

function aad(subscriptionId: string): string {
  return `webhook-secret:${subscriptionId}`;
}

export function sealSecret(bytes: Uint8Array, subscriptionId: string, kek: Buffer): string {
  return encryptSecret(bytes, kek, aad(subscriptionId));
}

/**
 * Decrypts with KEY_ENCRYPTION_KEY or else, during its rotation, KEY_ENCRYPTION_KEY_PREVIOUS. Throws (CryptoError)
 * on a wrong key, a ciphertext of another subscription, or a changed byte.
 */
export function openSecret(ciphertext: string, subscriptionId: string, kek: Buffer, previousKek?: Buffer): Buffer {
  return decryptSecretRotating(ciphertext, kek, previousKek, aad(subscriptionId)).plaintext;
}

/**
 * `keys reencrypt` of the registry CLI: the ciphertext of the same secret under the current key when only the
 * previous key opens it, null when the current key already does. Throws when neither opens it.
 */
export function resealSecret(ciphertext: string, subscriptionId: string, kek: Buffer, previousKek?: Buffer): string | null {
  const { plaintext, under } = decryptSecretRotating(ciphertext, kek, previousKek, aad(subscriptionId));
  return under === 'current' ? null : sealSecret(plaintext, subscriptionId, kek);
}

/** `<id>.<timestamp>.<body>`; the id and timestamp are registry-made and hold no dot. */
export function standardSignedContent(id: string, timestampSeconds: number, rawBody: string): string {
  if (id.includes('.')) throw new Error(`webhook-id ${id} must not contain a dot`);
  return `${id}.${timestampSeconds}.${rawBody}`;
}

/** The `webhook-signature` value: one `v1,<base64>` per secret, in the order given. */
export function standardSignature(id: string, timestampSeconds: number, rawBody: string, secrets: Uint8Array[]): string {
  if (!secrets.length) throw new Error('a Standard Webhooks signature needs at least one secret');
  const content = standardSignedContent(id, timestampSeconds, rawBody);
  return secrets.map((s) => `v1,${createHmac('sha256', s).update(content, 'utf8').digest('base64')}`).join(' ');
}

/** The three headers of one attempt. */
export function standardWebhookHeaders(
  id: string,
  timestampSeconds: number,
  rawBody: string,
  secrets: Uint8Array[],
): Record<string, string> {
  return {
    [STANDARD_WEBHOOK_HEADERS.id]: id,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: String(timestampSeconds),
    [STANDARD_WEBHOOK_HEADERS.signature]: standardSignature(id, timestampSeconds, rawBody, secrets),
  };
}
