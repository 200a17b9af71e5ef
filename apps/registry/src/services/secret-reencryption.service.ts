import { CryptoError } from '@arbiter/crypto';
import { resealSecret } from '../domain/standard-webhooks';
import type { PrismaClient } from '../generated/prisma/client';
import { SubscriptionSecretsAnyTenantRepository } from '../repositories/webhooks.repository';

/** What `keys reencrypt` did to the webhook subscriptions' Standard Webhooks secrets. */
export interface SecretReencryption {
  /** Subscriptions holding a secret (and maybe a previous one still in its overlap), of every tenant. */
  subscriptions: number;
  /** Subscriptions whose secrets were found under KEY_ENCRYPTION_KEY_PREVIOUS and are now under KEY_ENCRYPTION_KEY. */
  reencrypted: string[];
  alreadyCurrent: number;
}

/**
 * `keys reencrypt` of the registry CLI, for the subscriptions' secrets (the signing keys are the key store's): every
 * secret the current KEY_ENCRYPTION_KEY does not open is decrypted with the previous one and encrypted again, in
 * one transaction holding the subscription rows. Idempotent. A secret neither key opens stops it with CryptoError
 * decryption_failed naming the subscriptions, and nothing is written.
 */
export function reencryptWebhookSecrets(prisma: PrismaClient, kek: Buffer, previousKek?: Buffer): Promise<SecretReencryption> {
  return prisma.$transaction(
    async (tx) => {
      const repo = new SubscriptionSecretsAnyTenantRepository(tx);
      const rows = await repo.allCiphertextsForUpdate();
      const reencrypted: string[] = [];
      const unreadable: string[] = [];
      for (const row of rows) {
        let resealed: Array<string | null>;
        try {
          resealed = [row.secret_ciphertext, row.previous_secret_ciphertext].map((c) =>
            c === null ? null : resealSecret(c, row.id, kek, previousKek),
          );
        } catch (err) {
          if (!(err instanceof CryptoError) || err.code !== 'decryption_failed') throw err;
          unreadable.push(row.id);
          continue;
        }
        const [secret, previous] = resealed;
        if (secret === null && previous === null) continue;
        await repo.replaceCiphertexts(row.id, secret ?? row.secret_ciphertext, previous ?? row.previous_secret_ciphertext);
        reencrypted.push(row.id);
      }
      if (unreadable.length) {
        throw new CryptoError(
          'decryption_failed',
          `neither KEY_ENCRYPTION_KEY nor KEY_ENCRYPTION_KEY_PREVIOUS opens the webhook secrets of ${unreadable.join(', ')}`,
        );
      }
      return { subscriptions: rows.length, reencrypted, alreadyCurrent: rows.length - reencrypted.length };
    },
    { timeout: 60_000 },
  );
}
