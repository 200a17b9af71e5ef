import { Command } from 'commander';
import { loadConfig, processIo, runCli, type CliIo } from '@arbiter/config';
import { withMigratedPool } from '@arbiter/db';
import { registryConfigSchema } from './config';
import { createWebhookKeyStore, WEBHOOK_KEY_OWNER, type WebhookKeyStore } from './keys';

// Operator commands of the registry (docs/operations.md "Keys and their rotation"). They work on the database
// directly, so they need only DATABASE_URL_REGISTRY and KEY_ENCRYPTION_KEY (and KEY_ENCRYPTION_KEY_PREVIOUS while
// that key rotates); they import no HTTP code, so they start in a fraction of the service's time.
//
//   node dist/apps/registry/cli.js keys list        the published webhook signing keys
//   node dist/apps/registry/cli.js keys reencrypt   the keys under KEY_ENCRYPTION_KEY_PREVIOUS moved to KEY_ENCRYPTION_KEY

const cliConfigSchema = {
  DATABASE_URL_REGISTRY: registryConfigSchema.DATABASE_URL_REGISTRY,
  KEY_ENCRYPTION_KEY: registryConfigSchema.KEY_ENCRYPTION_KEY,
  KEY_ENCRYPTION_KEY_PREVIOUS: registryConfigSchema.KEY_ENCRYPTION_KEY_PREVIOUS,
};

function withStore<T>(io: CliIo, fn: (store: WebhookKeyStore) => Promise<T>): Promise<T> {
  const config = loadConfig(cliConfigSchema, io.env);
  const db = { url: config.DATABASE_URL_REGISTRY, service: 'registry', bundleDir: __dirname, applicationName: 'arbiter-registry-cli' };
  return withMigratedPool(db, (pool) => fn(createWebhookKeyStore(pool, config.KEY_ENCRYPTION_KEY, config.KEY_ENCRYPTION_KEY_PREVIOUS)));
}

export function registryCli(io: CliIo = processIo): Command {
  const print = (value: unknown): void => io.out(`${JSON.stringify(value, null, 2)}\n`);
  const program = new Command('registry-cli').description('Arbiter registry operator commands').exitOverride();
  const keys = program.command('keys').description('the ECDSA P-256 ring that signs webhook deliveries');
  keys
    .command('list')
    .description('the published webhook signing keys, as GET /.well-known/webhook-key lists them in `keys`')
    .action(async () => print({ keys: await withStore(io, (store) => store.published(WEBHOOK_KEY_OWNER)) }));
  keys
    .command('reencrypt')
    .description('store every private key under KEY_ENCRYPTION_KEY (those only KEY_ENCRYPTION_KEY_PREVIOUS opens); idempotent')
    .action(async () => print(await withStore(io, (store) => store.reencrypt())));
  return program;
}

if (require.main === module) runCli(registryCli(), 'registry-cli');
