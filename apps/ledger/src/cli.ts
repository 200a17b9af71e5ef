import { Command, Option } from 'commander';
import { loadConfig, processIo, runCli, type CliIo } from '@arbiter/config';
import { withMigratedPool } from '@arbiter/db';
import type { RotationMode } from '@arbiter/crypto';
import { ledgerConfigSchema } from './config';
import { createLedgerKeyStore, LEDGER_KEY_OWNER, rotateLedgerKey, type LedgerKeys, type LedgerKeyStore } from './keys';

// Operator commands of the ledger (docs/ledger-formats.md: rotation is an admin endpoint and a CLI
// command). Works on the database directly, so it needs only DATABASE_URL_LEDGER and
// KEY_ENCRYPTION_KEY (and KEY_ENCRYPTION_KEY_PREVIOUS while that rotates); running services pick the new key up at their next bundle. It imports
// no HTTP code, so it starts in a fraction of the service's time.
//
//   node dist/apps/ledger/cli.js keys rotate --mode scheduled|emergency
//   node dist/apps/ledger/cli.js keys list
//   node dist/apps/ledger/cli.js keys reencrypt   (the keys under KEY_ENCRYPTION_KEY_PREVIOUS moved to KEY_ENCRYPTION_KEY)

const cliConfigSchema = {
  DATABASE_URL_LEDGER: ledgerConfigSchema.DATABASE_URL_LEDGER,
  KEY_ENCRYPTION_KEY: ledgerConfigSchema.KEY_ENCRYPTION_KEY,
  KEY_ENCRYPTION_KEY_PREVIOUS: ledgerConfigSchema.KEY_ENCRYPTION_KEY_PREVIOUS,
};

function withStore<T>(io: CliIo, fn: (store: LedgerKeyStore) => Promise<T>): Promise<T> {
  const config = loadConfig(cliConfigSchema, io.env);
  const db = { url: config.DATABASE_URL_LEDGER, service: 'ledger', bundleDir: __dirname, applicationName: 'arbiter-ledger-cli' };
  return withMigratedPool(db, (pool) => fn(createLedgerKeyStore(pool, config.KEY_ENCRYPTION_KEY, config.KEY_ENCRYPTION_KEY_PREVIOUS)));
}

const withKeys = <T>(io: CliIo, fn: (keys: LedgerKeys) => Promise<T>): Promise<T> =>
  withStore(io, (store) => fn(store.ring(LEDGER_KEY_OWNER)));

export function ledgerCli(io: CliIo = processIo): Command {
  const print = (value: unknown): void => io.out(`${JSON.stringify(value, null, 2)}\n`);
  const program = new Command('ledger-cli').description('Arbiter fact ledger operator commands');
  const keys = program.command('keys').description('the Ed25519 key ring that signs proof bundles');
  keys
    .command('rotate')
    .description('retire the current signing key (it stays published) and make a new one')
    .addOption(
      new Option('--mode <mode>', "scheduled: this year's key; emergency: <year>.<n> at once")
        .choices(['scheduled', 'emergency'])
        .makeOptionMandatory(),
    )
    .action(async (opts: { mode: RotationMode }) => print(await withKeys(io, (k) => rotateLedgerKey(k, opts.mode))));
  keys
    .command('list')
    .description('the published keys, as GET /.well-known/ledger-keys answers them')
    .action(async () => print({ keys: await withKeys(io, (k) => k.published()) }));
  keys
    .command('reencrypt')
    .description('store every private key under KEY_ENCRYPTION_KEY (those only KEY_ENCRYPTION_KEY_PREVIOUS opens); idempotent')
    .action(async () => print(await withStore(io, (store) => store.reencrypt())));
  return program;
}

if (require.main === module) runCli(ledgerCli(), 'ledger-cli');
