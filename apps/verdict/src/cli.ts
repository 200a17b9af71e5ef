import type { Logger } from 'pino';
import { Command, Option } from 'commander';
import { Redis } from 'ioredis';
import { loadConfig, processIo, runCli, type CliIo } from '@arbiter/config';
import { createLogger } from '@arbiter/http';
import { withMigratedPool } from '@arbiter/db';
import type { RotationMode } from '@arbiter/crypto';
import { verdictConfigSchema } from './config';
import { publishKeysChanged } from './clients/change-feed';
import { VerdictKeys } from './keys';
import { parseKeyEncryptionKey } from '@arbiter/crypto';
import { rewrapKey } from '@arbiter/sensitive';
import { SubjectKeysRepository, type SubjectKeyReencryption } from './repositories/subject-keys.repository';

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

export type { CliIo };

function withKeys<T>(
  io: CliIo,
  fn: (
    keys: VerdictKeys,
    announce: (tenantId: string, kid: string, mode: string) => Promise<void>,
    subjectKeys: () => Promise<SubjectKeyReencryption>,
  ) => Promise<T>,
): Promise<T> {
  const config = loadConfig(cliConfigSchema, io.env);
  const db = { url: config.DATABASE_URL_VERDICT, service: 'verdict', bundleDir: __dirname, applicationName: 'arbiter-verdict-cli' };
  // The sensitive fields' tenant secrets and subject keys are wrapped under the same key (docs/verdicts.md "Sensitive fields").
  const kek = parseKeyEncryptionKey(config.KEY_ENCRYPTION_KEY);
  const previous = config.KEY_ENCRYPTION_KEY_PREVIOUS ? parseKeyEncryptionKey(config.KEY_ENCRYPTION_KEY_PREVIOUS) : null;
  return withMigratedPool(db, (pool) =>
    withAnnouncer(config.REDIS_URL, (announce, logger) =>
      fn(
        new VerdictKeys(pool, { current: config.KEY_ENCRYPTION_KEY, previous: config.KEY_ENCRYPTION_KEY_PREVIOUS }, logger),
        announce,
        () => new SubjectKeysRepository(pool).rewrapAllAnyTenant((blob, aad) => rewrapKey(blob, kek, previous, aad)),
      ),
    ),
  );
}

/** Tells running replicas of a key change over Redis when REDIS_URL is set (they switch within 10 s otherwise). */
async function withAnnouncer<T>(
  redisUrl: string | undefined,
  fn: (announce: (tenantId: string, kid: string, mode: string) => Promise<void>, logger: Logger) => Promise<T>,
): Promise<T> {
  const logger = createLogger('verdict-cli', 'silent');
  const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true }) : null;
  redis?.on('error', () => undefined);
  const announce = async (tenantId: string, kid: string, mode: string) => {
    if (redis) await publishKeysChanged(redis, { tenant_id: tenantId, kid, mode }, logger);
  };
  try {
    return await fn(announce, logger);
  } finally {
    redis?.disconnect();
  }
}

export function verdictCli(io: CliIo = processIo): Command {
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
    .addOption(
      new Option('--mode <mode>', "scheduled: this year's key; emergency: <year>.<n> at once")
        .choices(['scheduled', 'emergency'])
        .makeOptionMandatory(),
    )
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
    .description(
      'store every private key, tenant secret and subject key under KEY_ENCRYPTION_KEY (those only KEY_ENCRYPTION_KEY_PREVIOUS opens); idempotent',
    )
    .action(async () =>
      print(await withKeys(io, async (k, _announce, subjectKeys) => ({ ...(await k.reencrypt()), subjectKeys: await subjectKeys() }))),
    );
  return program;
}

if (require.main === module) runCli(verdictCli(), 'verdict-cli');
