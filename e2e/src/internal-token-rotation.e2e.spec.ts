import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createPrincipalWithKey, createTenantWithAdmin } from '../../apps/registry/test/harness';
import type { RunningLedger } from '../../apps/ledger/src/server';
import { startStack, type Stack } from './stack';

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

  let stack: Stack;
  let ledgerNotRestarted: RunningLedger;
  let readKey: string;

  beforeAll(async () => {
    // The ledger reaches the registry through the proxy, which notes the token of every call.
    stack = await startStack({ env: rotated, verdict: true, ledger: { registryProxy: true } });
    ledgerNotRestarted = await stack.startReplica('ledger', {
      env: { INTERNAL_TOKEN: OLD, INTERNAL_TOKEN_PREVIOUS: undefined, REGISTRY_URL: stack.registry.url },
    });
    const t = await createTenantWithAdmin(stack.registry, `rotation-${randomBytes(3).toString('hex')}`);
    readKey = (await createPrincipalWithKey(stack.registry, t.admin.key, { permissions: ['read'] })).key;
  });

  afterAll(() => stack?.stop());

  /** A path under /internal/v1 that no route serves: 404 past the token guard, 401 before it. */
  const probe = (url: string, given: string | undefined) => {
    const r = request(url).get('/internal/v1/no-such-route');
    return given === undefined ? r : r.set('X-Internal-Token', given);
  };
  const urls = () => ({ registry: stack.registry.url, verdict: stack.verdict.url, ledger: stack.ledger.url });

  it.each(['registry', 'verdict', 'ledger'] as const)(
    '%s accepts INTERNAL_TOKEN and INTERNAL_TOKEN_PREVIOUS on /internal/v1',
    async (service) => {
      expect((await probe(urls()[service], NEW)).status).toBe(404);
      expect((await probe(urls()[service], OLD)).status).toBe(404);
    },
  );

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
    stack.proxy.tokens.length = 0;
    await request(stack.ledger.url).get('/health').set('X-API-Key', readKey).expect(200);
    expect(stack.proxy.tokens.length).toBeGreaterThan(0);
    expect(new Set(stack.proxy.tokens)).toEqual(new Set([NEW]));
  });
});
