import { Command } from 'commander';
import { loadConfig, processIo, runCli, type CliIo, type ConfigOf } from '@arbiter/config';
import type { Pool } from 'pg';
import { createPrismaClient, withMigratedPool } from '@arbiter/db';
import type { ReencryptionResult } from '@arbiter/keystore';
import { registryConfigSchema } from './config';
import { PrismaClient } from './generated/prisma/client';
import { createWebhookKeyStore, WEBHOOK_KEY_OWNER, type WebhookKeyStore } from './keys';
import { reencryptWebhookSecrets, type SecretReencryption } from './services/secret-reencryption.service';

// Operator commands of the registry (docs/operations.md "Keys and their rotation"). They work on the database
// directly, so they need only DATABASE_URL_REGISTRY and KEY_ENCRYPTION_KEY (and KEY_ENCRYPTION_KEY_PREVIOUS while
// that key rotates); they import no HTTP code, so they start in a fraction of the service's time.
//
//   node dist/apps/registry/cli.js keys list        the published webhook signing keys
//   node dist/apps/registry/cli.js keys reencrypt   the keys and webhook secrets under KEY_ENCRYPTION_KEY_PREVIOUS
//                                                  moved to KEY_ENCRYPTION_KEY

const cliConfigSchema = {
  DATABASE_URL_REGISTRY: registryConfigSchema.DATABASE_URL_REGISTRY,
  KEY_ENCRYPTION_KEY: registryConfigSchema.KEY_ENCRYPTION_KEY,
  KEY_ENCRYPTION_KEY_PREVIOUS: registryConfigSchema.KEY_ENCRYPTION_KEY_PREVIOUS,
};

type CliConfig = ConfigOf<typeof cliConfigSchema>;

function withDatabase<T>(io: CliIo, fn: (pool: Pool, config: CliConfig) => Promise<T>): Promise<T> {
  const config = loadConfig(cliConfigSchema, io.env);
  const db = { url: config.DATABASE_URL_REGISTRY, service: 'registry', bundleDir: __dirname, applicationName: 'arbiter-registry-cli' };
  return withMigratedPool(db, (pool) => fn(pool, config));
}

const keyStore = (pool: Pool, config: CliConfig): WebhookKeyStore =>
  createWebhookKeyStore(pool, config.KEY_ENCRYPTION_KEY, config.KEY_ENCRYPTION_KEY_PREVIOUS);

/** The webhook signing keys (the key store), then the subscriptions' Standard Webhooks secrets. */
async function reencrypt(pool: Pool, config: CliConfig): Promise<ReencryptionResult & { webhookSecrets: SecretReencryption }> {
  const keys = await keyStore(pool, config).reencrypt();
  const prisma = createPrismaClient(PrismaClient, pool);
  try {
    return {
      ...keys,
      webhookSecrets: await reencryptWebhookSecrets(prisma, config.KEY_ENCRYPTION_KEY, config.KEY_ENCRYPTION_KEY_PREVIOUS),
    };
  } finally {
    await prisma.$disconnect();
  }
}

export function registryCli(io: CliIo = processIo): Command {
  const print = (value: unknown): void => io.out(`${JSON.stringify(value, null, 2)}\n`);
  const program = new Command('registry-cli').description('Arbiter registry operator commands').exitOverride();
  const keys = program.command('keys').description('the ECDSA P-256 ring that signs webhook deliveries');
  keys
    .command('list')
    .description('the published webhook signing keys, as GET /.well-known/webhook-key lists them in `keys`')
    .action(async () => print({ keys: await withDatabase(io, (pool, config) => keyStore(pool, config).published(WEBHOOK_KEY_OWNER)) }));
  keys
    .command('reencrypt')
    .description(
      'store every private key and webhook secret under KEY_ENCRYPTION_KEY (those only KEY_ENCRYPTION_KEY_PREVIOUS opens); idempotent',
    )
    .action(async () => print(await withDatabase(io, reencrypt)));
  return program;
}

if (require.main === module) runCli(registryCli(), 'registry-cli');
