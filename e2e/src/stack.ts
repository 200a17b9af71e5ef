import { randomUUID } from 'node:crypto';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { createLogger } from '@arbiter/http';
import { createTestDatabase, testRedisUrl } from '@arbiter/testing';
import { startTestRegistry, TEST_INTERNAL_TOKEN, type RegistryHarness } from '../../apps/registry/test/harness';
import { loadVerdictConfig } from '../../apps/verdict/src/config';
import { startVerdict, type RunningVerdict } from '../../apps/verdict/src/server';
import { loadLedgerConfig } from '../../apps/ledger/src/config';
import { startLedger, type RunningLedger } from '../../apps/ledger/src/server';
import { loadWorkerConfig } from '../../apps/worker/src/config';
import { startWorker, type RunningWorker } from '../../apps/worker/src/worker';

export interface TestStack {
  registry: RegistryHarness;
  verdict: RunningVerdict;
  ledger: RunningLedger;
  /** With `worker: true`: the outbox relay and webhook delivery (ADR 0005), on its own queue prefix. */
  worker?: RunningWorker;
  stop(): Promise<void>;
}

/** The three services on fresh databases, talking over real HTTP to each other, PostgreSQL and Redis. */
export async function startTestStack(opts: { authCacheTtlMs?: number; worker?: boolean; registryEnv?: Record<string, string> } = {}): Promise<TestStack> {
  const registry = await startTestRegistry(opts.registryEnv);
  const [verdictDb, ledgerDb] = await Promise.all([createTestDatabase('verdict'), createTestDatabase('ledger')]);
  const common = {
    PORT: '0',
    REDIS_URL: testRedisUrl(),
    REGISTRY_URL: registry.url,
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    AUTH_CACHE_TTL_MS: String(opts.authCacheTtlMs ?? 30_000),
  };
  // The ledger first: the verdict reads its consultations' evidence from it (LEDGER_URL).
  const ledger = await startLedger(loadLedgerConfig({ ...common, DATABASE_URL_LEDGER: ledgerDb.url, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey() }), createLogger('ledger', 'silent'));
  const verdict = await startVerdict(
    loadVerdictConfig({ ...common, DATABASE_URL_VERDICT: verdictDb.url, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(), LEDGER_URL: ledger.url }),
    createLogger('verdict', 'silent'),
  );
  const worker = opts.worker
    ? await startWorker(
        loadWorkerConfig({ REDIS_URL: testRedisUrl(), QUEUE_PREFIX: `arbiter-e2e-${randomUUID()}`, REGISTRY_URL: registry.url, VERDICT_URL: verdict.url, LEDGER_URL: ledger.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, RELAY_INTERVAL_MS: '50' }),
        createLogger('worker', 'silent'),
      )
    : undefined;
  return {
    registry,
    verdict,
    ledger,
    worker,
    async stop() {
      await worker?.close();
      await Promise.all([verdict.close(), ledger.close()]);
      await Promise.all([registry.stop(), verdictDb.drop(), ledgerDb.drop()]);
    },
  };
}
