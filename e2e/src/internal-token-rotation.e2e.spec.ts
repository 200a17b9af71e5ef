import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { createLogger } from '@arbiter/http';
import { createTestDatabase, testRedisUrl } from '@arbiter/testing';
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness } from '../../apps/registry/test/harness';
import { loadLedgerConfig } from '../../apps/ledger/src/config';
import { startLedger, type RunningLedger } from '../../apps/ledger/src/server';
import { loadVerdictConfig } from '../../apps/verdict/src/config';
import { startVerdict, type RunningVerdict } from '../../apps/verdict/src/server';
import { startRegistryProxy, type RegistryProxy } from './verdict-harness';

/**
 * Rotating INTERNAL_TOKEN with an overlap (docs/operations.md "Other secrets"): a service accepts INTERNAL_TOKEN and
 * INTERNAL_TOKEN_PREVIOUS on /internal/v1, sends only INTERNAL_TOKEN, and refuses any other token with 401. Real
 * registry, verdict and ledger on their own databases, at the rotation's second step: every service has been given
 * the new token and still accepts the old one, except one ledger replica not restarted yet.
 */
describe('INTERNAL_TOKEN rotation', () => {
  const token = (label: string) => `${label}-${randomBytes(16).toString('hex')}`;
  const OLD = token('old');
  const NEW = token('new');
  const UNRELATED = token('unrelated');
  const rotated = { INTERNAL_TOKEN: NEW, INTERNAL_TOKEN_PREVIOUS: OLD };

  let registry: RegistryHarness;
  let proxy: RegistryProxy;
  let verdict: RunningVerdict;
  let ledger: RunningLedger;
  let ledgerNotRestarted: RunningLedger;
  const drops: Array<() => Promise<void>> = [];
  let readKey: string;

  beforeAll(async () => {
    registry = await startTestRegistry(rotated);
    proxy = await startRegistryProxy(registry.url);
    const [verdictDb, ledgerDb] = await Promise.all([createTestDatabase('verdict'), createTestDatabase('ledger')]);
    drops.push(verdictDb.drop, ledgerDb.drop);
    const common = { PORT: '0', REDIS_URL: testRedisUrl() };
    verdict = await startVerdict(
      loadVerdictConfig({ ...common, ...rotated, REGISTRY_URL: registry.url, DATABASE_URL_VERDICT: verdictDb.url, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey() }),
      createLogger('verdict', 'silent'),
    );
    const ledgerEnv = { ...common, DATABASE_URL_LEDGER: ledgerDb.url, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey() };
    // Reaches the registry through the proxy, which notes the token of every call.
    ledger = await startLedger(loadLedgerConfig({ ...ledgerEnv, ...rotated, REGISTRY_URL: proxy.url }), createLogger('ledger', 'silent'));
    ledgerNotRestarted = await startLedger(loadLedgerConfig({ ...ledgerEnv, INTERNAL_TOKEN: OLD, REGISTRY_URL: registry.url }), createLogger('ledger', 'silent'));
    const t = await createTenantWithAdmin(registry, `rotation-${randomBytes(3).toString('hex')}`);
    readKey = (await createPrincipalWithKey(registry, t.admin.key, { permissions: ['read'] })).key;
  });

  afterAll(async () => {
    await Promise.all([verdict?.close(), ledger?.close(), ledgerNotRestarted?.close(), proxy?.close()]);
    await registry?.stop();
    await Promise.all(drops.map((drop) => drop()));
  });

  /** A path under /internal/v1 that no route serves: 404 past the token guard, 401 before it. */
  const probe = (url: string, given: string | undefined) => {
    const r = request(url).get('/internal/v1/no-such-route');
    return given === undefined ? r : r.set('X-Internal-Token', given);
  };
  const urls = () => ({ registry: registry.url, verdict: verdict.url, ledger: ledger.url });

  it.each(['registry', 'verdict', 'ledger'] as const)('%s accepts INTERNAL_TOKEN and INTERNAL_TOKEN_PREVIOUS on /internal/v1', async (service) => {
    expect((await probe(urls()[service], NEW)).status).toBe(404);
    expect((await probe(urls()[service], OLD)).status).toBe(404);
  });

  it.each(['registry', 'verdict', 'ledger'] as const)('%s answers 401 to an unrelated token, a near miss and no token', async (service) => {
    for (const given of [UNRELATED, `${NEW}x`, NEW.slice(0, -1), `${OLD}${NEW}`, undefined]) {
      const res = await probe(urls()[service], given);
      expect({ given, status: res.status }).toEqual({ given, status: 401 });
    }
  });

  it('answers 401 to the new token where it is not configured yet (why the rotation starts by accepting it everywhere)', async () => {
    expect((await probe(ledgerNotRestarted.url, NEW)).status).toBe(401);
    expect((await probe(ledgerNotRestarted.url, OLD)).status).toBe(404);
  });

  it('serves a replica still sending the previous token: the registry accepts its key checks', async () => {
    await request(ledgerNotRestarted.url).get('/health').set('X-API-Key', readKey).expect(200);
  });

  it('sends only INTERNAL_TOKEN, never the previous one', async () => {
    proxy.tokens.length = 0;
    await request(ledger.url).get('/health').set('X-API-Key', readKey).expect(200);
    expect(proxy.tokens.length).toBeGreaterThan(0);
    expect(new Set(proxy.tokens)).toEqual(new Set([NEW]));
  });
});
