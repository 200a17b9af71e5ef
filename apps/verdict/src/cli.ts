import { Command, Option } from 'commander';
import { Redis } from 'ioredis';
import { loadConfig } from '@arbiter/config';
import { createLogger } from '@arbiter/http';
import { applyMigrations, createPool, migrationsDir } from '@arbiter/db';
import type { RotationMode } from '@arbiter/crypto';
import { verdictConfigSchema } from './config';
import { publishKeysChanged } from './clients/change-feed';
import { VerdictKeys } from './keys';

// Operator commands of the verdict gateway (docs/verdicts.md "Signing keys": rotation is an admin endpoint and a
// CLI command). They work on the database directly, so they need DATABASE_URL_VERDICT and
// KEY_ENCRYPTION_KEY; with REDIS_URL set, running replicas are told at once (otherwise they switch
// within 10 s, the signer cache lifetime).
//
//   node dist/apps/verdict/cli.js keys setup  --tenant tnt-...
//   node dist/apps/verdict/cli.js keys rotate --tenant tnt-... --mode scheduled|emergency
//   node dist/apps/verdict/cli.js keys list   --tenant tnt-...
//   node dist/apps/verdict/cli.js keys reencrypt     (every tenant's keys under KEY_ENCRYPTION_KEY; needs
//                                                     KEY_ENCRYPTION_KEY_PREVIOUS for the keys still under the old one)

const cliConfigSchema = {
  DATABASE_URL_VERDICT: verdictConfigSchema.DATABASE_URL_VERDICT,
  KEY_ENCRYPTION_KEY: verdictConfigSchema.KEY_ENCRYPTION_KEY,
  KEY_ENCRYPTION_KEY_PREVIOUS: verdictConfigSchema.KEY_ENCRYPTION_KEY_PREVIOUS,
  REDIS_URL: { ...verdictConfigSchema.REDIS_URL, optional: true as const },
};

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
}

const defaultIo: CliIo = { env: process.env, out: (text) => void process.stdout.write(text) };

async function withKeys<T>(io: CliIo, fn: (keys: VerdictKeys, announce: (tenantId: string, kid: string, mode: string) => Promise<void>) => Promise<T>): Promise<T> {
  const config = loadConfig(cliConfigSchema, io.env);
  await applyMigrations(config.DATABASE_URL_VERDICT, migrationsDir('verdict', __dirname));
  const pool = createPool({ url: config.DATABASE_URL_VERDICT, max: 2, applicationName: 'arbiter-verdict-cli' });
  const logger = createLogger('verdict-cli', 'silent');
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true }) : null;
  redis?.on('error', () => undefined);
  const announce = async (tenantId: string, kid: string, mode: string) => {
    if (redis) await publishKeysChanged(redis, { tenant_id: tenantId, kid, mode }, logger);
  };
  try {
    return await fn(new VerdictKeys(pool, { current: config.KEY_ENCRYPTION_KEY, previous: config.KEY_ENCRYPTION_KEY_PREVIOUS }, logger), announce);
  } finally {
    redis?.disconnect();
    await pool.end();
  }
}

export function verdictCli(io: CliIo = defaultIo): Command {
  const print = (value: unknown) => io.out(`${JSON.stringify(value, null, 2)}\n`);
  const program = new Command('verdict-cli').description('Arbiter verdict gateway operator commands').exitOverride();
  const keys = program.command('keys').description("a tenant's ES256 verdict signing keys");
  const tenant = () => new Option('--tenant <tenant_id>', 'the tenant (tnt-...)').makeOptionMandatory();
  keys
    .command('setup')
    .description('make sure the tenant has a current key (idempotent)')
    .addOption(tenant())
    .action(async (opts: { tenant: string }) =>
      print(
        await withKeys(io, async (k, announce) => {
          const { key, created } = await k.ensureCurrent(opts.tenant);
          if (created) await announce(opts.tenant, key.kid, 'setup');
          return { tenant_id: opts.tenant, current_kid: key.kid, created };
        }),
      ),
    );
  keys
    .command('rotate')
    .description('retire the current key (it stays published) and sign with a new one from now on')
    .addOption(tenant())
    .addOption(new Option('--mode <mode>', "scheduled: this year's key; emergency: <year>.<n> at once").choices(['scheduled', 'emergency']).makeOptionMandatory())
    .action(async (opts: { tenant: string; mode: RotationMode }) =>
      print(
        await withKeys(io, async (k, announce) => {
          const rotation = await k.rotate(opts.tenant, opts.mode);
          await announce(opts.tenant, rotation.kid, opts.mode);
          return rotation;
        }),
      ),
    );
  keys
    .command('list')
    .description('the published keys, as the tenant JWKS lists them')
    .addOption(tenant())
    .action(async (opts: { tenant: string }) => print({ keys: await withKeys(io, (k) => k.publicKeys(opts.tenant)) }));
  keys
    .command('reencrypt')
    .description('store every private key under KEY_ENCRYPTION_KEY (those only KEY_ENCRYPTION_KEY_PREVIOUS opens); idempotent')
    .action(async () => print(await withKeys(io, (k) => k.reencrypt())));
  return program;
}

if (require.main === module) {
  verdictCli()
    .parseAsync(process.argv)
    .catch((err: unknown) => {
      const code = (err as { code?: string }).code;
      if (code === 'commander.helpDisplayed' || code === 'commander.version') return;
      process.stderr.write(`verdict-cli: ${(err as Error).message}\n`);
      process.exitCode = 1;
    });
}
