import { CryptoError, p256PublicKeyFromJwk, p256PublicKeyToPem, signingKeyAt, type KeyRecord, type RotationMode } from '@arbiter/crypto';
import { KeyStore, p256HexKeys, type KeyRing, type SqlPool } from '@arbiter/keystore';
import { badRequest } from './domain/errors';
import type { WebhookKeyRotation, WebhookKeySet, WebhookPublicKey } from './models/webhooks';

/**
 * The registry's webhook-signing ring (docs/webhooks.md): ECDSA P-256, owner `webhooks` in
 * webhook_signing_keys, kept by @arbiter/keystore. Created at the first start, rotated by an operator;
 * retired keys stay published so a delivery signed just before a rotation still verifies.
 */
export const WEBHOOK_KEY_OWNER = 'webhooks';

/** sign() answers the hex of the 64-byte r||s ECDSA P-256 / SHA-256 signature (docs/webhooks.md). */
export type WebhookKeys = KeyRing<(message: string | Uint8Array) => string>;
export type WebhookKeyStore = KeyStore<(message: string | Uint8Array) => string>;

/** The registry's key store: KEY_ENCRYPTION_KEY, and KEY_ENCRYPTION_KEY_PREVIOUS during its rotation. */
export function createWebhookKeyStore(pool: SqlPool, keyEncryptionKey: Buffer, previousKeyEncryptionKey?: Buffer): WebhookKeyStore {
  return new KeyStore({ pool, table: 'webhook_signing_keys', type: p256HexKeys, keyEncryptionKey, previousKeyEncryptionKey });
}

export function createWebhookKeys(pool: SqlPool, keyEncryptionKey: Buffer, previousKeyEncryptionKey?: Buffer): WebhookKeys {
  return createWebhookKeyStore(pool, keyEncryptionKey, previousKeyEncryptionKey).ring(WEBHOOK_KEY_OWNER);
}

/** GET /.well-known/webhook-key: every published key, the current one also at the top level. */
export async function webhookKeySet(keys: WebhookKeys): Promise<WebhookKeySet> {
  const records = await keys.publishedRecords();
  const current = signingKeyAt(records, new Date()) ?? (await keys.ensureCurrent()).key;
  const published = records.map(publish);
  return { ...(published.find((k) => k.kid === current.kid) ?? publish(current)), keys: published };
}

/** POST /api/v1/admin/webhook-key/rotate; a scheduled rotation that is not due answers 400. */
export async function rotateWebhookKey(keys: WebhookKeys, mode: RotationMode): Promise<WebhookKeyRotation> {
  try {
    const { key, retired } = await keys.rotate(mode);
    return { mode, kid: key.kid, retired, keys: (await keys.publishedRecords()).map(publish) };
  } catch (err) {
    if (err instanceof CryptoError && err.code === 'rotation_not_due') throw badRequest(err.message);
    throw err;
  }
}

function publish(record: KeyRecord): WebhookPublicKey {
  const { x, y } = record.publicJwk as { x: string; y: string };
  return {
    kid: record.kid,
    alg: 'ES256',
    jwk: { kty: 'EC', crv: 'P-256', x, y, kid: record.kid, alg: 'ES256', use: 'sig' },
    pem: p256PublicKeyToPem(p256PublicKeyFromJwk({ kty: 'EC', crv: 'P-256', x, y })),
    not_before: record.notBefore.toISOString(),
    not_after: record.notAfter ? record.notAfter.toISOString() : null,
  };
}
