// The one-shot migration step of a service image: `node migrate.js [registry|verdict|ledger]` (the service defaults
// to ARBITER_SERVICE, which the image sets). It applies the migrations bundled next to it (./migrations) to
// DATABASE_URL_<SERVICE> with the same applier and advisory lock the service uses at start (ADR 0003), so it can run
// before, or concurrently with, any number of replicas. Bundled by scripts/bundle.mjs; imports only libs/db and
// libs/config, so it starts in a fraction of a service's time. Exit status: 0 applied or current, 1 failed, 2 usage.
import { ConfigError, loadConfig, url } from '@arbiter/config';
import { applyMigrations, migrationsDir, MigrationError } from '@arbiter/db';

export const SERVICES = ['registry', 'verdict', 'ledger'] as const;
export type Service = (typeof SERVICES)[number];

/** One JSON line per event, shaped like the services' pino lines (level 30 = info, 50 = error). */
function log(level: 30 | 50, service: string, msg: string, extra: Record<string, unknown> = {}): void {
  const stream = level >= 50 ? process.stderr : process.stdout;
  stream.write(`${JSON.stringify({ level, time: Date.now(), service, name: `${service}-migrate`, msg, ...extra })}\n`);
}

export async function migrate(service: Service, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const variable = `DATABASE_URL_${service.toUpperCase()}`;
  const config = loadConfig({ [variable]: url({ protocols: ['postgres', 'postgresql'], secret: true }) }, env);
  const { applied } = await applyMigrations(config[variable] as string, migrationsDir(service, __dirname));
  return applied;
}

async function main(argv: string[]): Promise<number> {
  const service = argv[0] ?? process.env.ARBITER_SERVICE;
  if (!SERVICES.includes(service as Service)) {
    process.stderr.write(`usage: node migrate.js <${SERVICES.join('|')}>   (or set ARBITER_SERVICE)\n`);
    return 2;
  }
  try {
    const applied = await migrate(service as Service);
    log(30, service!, applied.length ? 'migrations applied' : 'migrations current', { applied });
    return 0;
  } catch (err) {
    const code = err instanceof MigrationError ? err.code : err instanceof ConfigError ? 'invalid_configuration' : 'failed';
    log(50, service!, 'migration failed', { code, err: { message: (err as Error).message } });
    return 1;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((status) => {
    process.exitCode = status;
  });
}
