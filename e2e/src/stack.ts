import { createLogger } from '@arbiter/http';
import { createTestDatabase, testRedisUrl } from '@arbiter/testing';
import { startTestRegistry, TEST_INTERNAL_TOKEN, type RegistryHarness } from '../../apps/registry/test/harness';
import { loadVerdictConfig } from '../../apps/verdict/src/config';
import { startVerdict, type RunningVerdict } from '../../apps/verdict/src/server';
import { loadLedgerConfig } from '../../apps/ledger/src/config';
import { startLedger, type RunningLedger } from '../../apps/ledger/src/server';

export interface TestStack {
  registry: RegistryHarness;
  verdict: RunningVerdict;
  ledger: RunningLedger;
  stop(): Promise<void>;
}

/** The three services on fresh databases, talking over real HTTP to each other, PostgreSQL and Redis. */
export async function startTestStack(opts: { authCacheTtlMs?: number } = {}): Promise<TestStack> {
  const registry = await startTestRegistry();
  const [verdictDb, ledgerDb] = await Promise.all([createTestDatabase('verdict'), createTestDatabase('ledger')]);
  const common = {
    PORT: '0',
    REDIS_URL: testRedisUrl(),
    REGISTRY_URL: registry.url,
    INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
    AUTH_CACHE_TTL_MS: String(opts.authCacheTtlMs ?? 30_000),
  };
  const verdict = await startVerdict(loadVerdictConfig({ ...common, DATABASE_URL_VERDICT: verdictDb.url }), createLogger('verdict', 'silent'));
  const ledger = await startLedger(loadLedgerConfig({ ...common, DATABASE_URL_LEDGER: ledgerDb.url }), createLogger('ledger', 'silent'));
  return {
    registry,
    verdict,
    ledger,
    async stop() {
      await Promise.all([verdict.close(), ledger.close()]);
      await Promise.all([registry.stop(), verdictDb.drop(), ledgerDb.drop()]);
    },
  };
}
