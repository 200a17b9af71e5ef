import { randomUUID } from 'node:crypto';
import { findFreePort } from '@arbiter/devstack';
import { createLogger } from '@arbiter/http';
import { RegistryInternalClient, VerdictInternalClient } from '@arbiter/internal-api';
import { closeRedisConnection, createProducer, createRedisConnection } from '@arbiter/queue';
import { TEST_INTERNAL_TOKEN } from '../../apps/registry/test/harness';
import { SealRelay } from '../../apps/worker/src/seal-relay';
import type { RunningWorker } from '../../apps/worker/src/worker';
import { createVerdictTenant, registryApi, verdictApi, type VerdictTenant } from './verdict-harness';
import { eventually } from '@arbiter/testing';
import { startStack, type Stack } from './stack';
import { outboxRows, sealOutboxApi, startFakeLedger, type FakeLedger, type OutboxRow } from './seal-harness';

/**
 * The seal relay end to end (docs/operations.md "Seal relay"): the verdict gateway and the registry
 * write seal_outbox rows, the worker leases them through the internal APIs, one BullMQ job per batch
 * seals them in a ledger (a fake one implementing the service seal endpoint's contract) and the
 * rows are deleted. Real PostgreSQL and Redis.
 */
describe('seal relay', () => {
  let stack: Stack;
  let ledger: FakeLedger;
  let t: VerdictTenant;
  let scope: string;
  let worker: RunningWorker | undefined;
  const logger = createLogger('worker', 'silent');

  const startTheWorker = (relayIntervalMs = '50') =>
    stack.addWorker({ LEDGER_URL: ledger.url, RELAY_INTERVAL_MS: relayIntervalMs, SEAL_BATCH_SIZE: '4', SEAL_LEASE_MS: '1000' });

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    ledger = await startFakeLedger();
    t = await createVerdictTenant(stack, 'relay-a');
    scope = await registryApi(stack, t.adminKey).scope('eu', { region: 'eu' });
  });
  afterAll(async () => {
    await worker?.close();
    await ledger.close();
    await stack.stop();
  });

  /** Makes decisions: `checks` consultations in the verdict gateway and `rules` rule versions in the registry. */
  async function decide(checks: number, rules: number): Promise<void> {
    const agent = verdictApi(stack, t.agent.key, t.id);
    for (let i = 0; i < checks; i++)
      await agent
        .check({ action: 'payments.transfer', resource: `acct:${i}`, scope: { region: 'eu', env: 'prod' }, on_behalf_of: t.humanId })
        .expect(200);
    for (let i = 0; i < rules; i++)
      await registryApi(stack, t.adminKey).rule(scope, { directive: `Rule ${randomUUID()}`, severity: 'ADVISORY' });
  }

  const allRows = async (): Promise<OutboxRow[]> => [
    ...(await outboxRows(stack.databaseUrl('verdict'))),
    ...(await outboxRows(stack.registry.databaseUrl)),
  ];
  const factsOf = (refs: string[]) => ledger.facts.filter((f) => refs.includes(f.client_ref));
  const sealedRefs = () => ledger.requests.flat().map((s) => s.client_ref);

  it('seals every outbox row once, in batches, and deletes the rows', async () => {
    await decide(6, 3);
    const rows = await allRows();
    // Six consultations, the tenant's first verdict key (made by the first check: its keys stream), three rule versions.
    expect(rows).toHaveLength(10);
    expect(rows.filter((r) => r.stream_id === `arbiter.${t.id}.keys`).map((r) => r.payload.mode)).toEqual(['first']);

    worker = await startTheWorker();
    await eventually('an empty outbox', () => allRows(), { until: (rows) => expect(rows).toEqual([]), timeoutMs: 20_000, intervalMs: 100 });

    const facts = factsOf(rows.map((r) => r.client_ref));
    expect(facts.map((f) => f.client_ref).sort()).toEqual(rows.map((r) => r.client_ref).sort());
    for (const row of rows) {
      expect(facts.find((f) => f.client_ref === row.client_ref)).toMatchObject({
        stream_id: row.stream_id,
        tenant_id: t.id,
        actor: row.stream_id.endsWith('.rules') ? 'service:registry' : 'service:verdict',
        custom_payload: row.payload,
      });
    }
    // One ledger request per batch: at most SEAL_BATCH_SIZE seals each.
    expect(ledger.requests.every((r) => r.length >= 1 && r.length <= 4)).toBe(true);
  });

  it('after a relay died between lease and done, seals the rows when their lease runs out, the ledger deduplicating', async () => {
    await worker!.close();
    worker = undefined;
    await decide(4, 2);
    const rows = await allRows();
    expect(rows).toHaveLength(6);
    // The dead relay: it leased everything, had the ledger seal the verdict batch, and never said done.
    const verdictLease = (await sealOutboxApi(stack.verdict.url).lease({ limit: 100, lease_ms: 1000 }).expect(200)).body;
    await sealOutboxApi(stack.registry.url).lease({ limit: 100, lease_ms: 1000 }).expect(200);
    const sealedBefore = verdictLease.items.map((i: { seal: { client_ref: string } }) => i.seal.client_ref) as string[];
    const res = await fetch(`${ledger.url}/internal/v1/seals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': TEST_INTERNAL_TOKEN },
      body: JSON.stringify({ seals: verdictLease.items.map((i: { seal: unknown }) => i.seal) }),
    });
    expect(res.status).toBe(200);
    expect(sealedBefore).toHaveLength(4);

    worker = await startTheWorker();
    await eventually('an empty outbox', () => allRows(), { until: (rows) => expect(rows).toEqual([]), timeoutMs: 20_000, intervalMs: 100 });

    const refs = rows.map((r) => r.client_ref);
    expect(
      factsOf(refs)
        .map((f) => f.client_ref)
        .sort(),
    ).toEqual([...refs].sort());
    // The rows sealed by the dead relay reached the ledger again and were answered as the same facts.
    for (const ref of sealedBefore) expect(sealedRefs().filter((r) => r === ref).length).toBeGreaterThanOrEqual(2);
  });

  it('leaves a seal the ledger refused in the outbox and seals it once the ledger takes it', async () => {
    await worker!.close();
    await decide(3, 0);
    const rows = await outboxRows(stack.databaseUrl('verdict'));
    const refused = rows[1].client_ref;
    ledger.refuse.add(refused);
    worker = await startTheWorker();

    await eventually(
      'only the refused seal left in the outbox',
      async () => (await outboxRows(stack.databaseUrl('verdict'))).map((r) => r.client_ref),
      { until: (v) => expect(v).toEqual([refused]), timeoutMs: 20_000, intervalMs: 100 },
    );
    expect(factsOf([refused])).toEqual([]);
    // It comes back after each lease; once the ledger takes it, it is sealed and deleted.
    await eventually(
      'a second attempt at the refused seal',
      async () => (await outboxRows(stack.databaseUrl('verdict'), 'client_ref = $1', [refused]))[0]?.attempts,
      { until: (v) => expect(v).toBeGreaterThanOrEqual(2), timeoutMs: 20_000, intervalMs: 100 },
    );
    ledger.refuse.delete(refused);
    await eventually('an empty outbox', () => outboxRows(stack.databaseUrl('verdict')), {
      until: (rows) => expect(rows).toEqual([]),
      timeoutMs: 20_000,
      intervalMs: 100,
    });
    expect(factsOf([refused])).toHaveLength(1);
  });

  it('hands a batch back at once when Redis is down, and loses nothing', async () => {
    await worker!.close();
    worker = undefined;
    await decide(3, 2);
    const rows = await allRows();
    const connection = createRedisConnection(`redis://127.0.0.1:${await findFreePort()}`, { forWorker: false });
    connection.on('error', () => undefined);
    const producer = createProducer(connection, { readyTimeoutMs: 200 });
    const owners = {
      verdict: new VerdictInternalClient({ baseUrl: stack.verdict.url, token: TEST_INTERNAL_TOKEN }),
      registry: new RegistryInternalClient({ baseUrl: stack.registry.url, token: TEST_INTERNAL_TOKEN }),
    };
    const relay = new SealRelay(owners, producer, { intervalMs: 1000, batchSize: 100, leaseMs: 600_000 }, logger);
    try {
      const pass = await relay.pass();

      expect(pass).toEqual({ leased: { verdict: 3, registry: 2 }, enqueued: 0, released: 5 });
      // Released, not left to a ten-minute lease: free at once.
      expect((await allRows()).map((r) => [r.client_ref, r.leased_until, r.attempts])).toEqual(rows.map((r) => [r.client_ref, null, 1]));
    } finally {
      await producer.close();
      await closeRedisConnection(connection);
    }

    worker = await startTheWorker();
    await eventually('an empty outbox', () => allRows(), { until: (rows) => expect(rows).toEqual([]), timeoutMs: 20_000, intervalMs: 100 });
    expect(factsOf(rows.map((r) => r.client_ref))).toHaveLength(5);
  });

  it('relays new rows as soon as the services nudge it, long before its fallback poll', async () => {
    await worker!.close();
    // A one-minute poll (the longest allowed): only the startup pass and the nudges move rows within 20 s.
    worker = await startTheWorker('60000');
    await eventually('an empty outbox', () => allRows(), { until: (rows) => expect(rows).toEqual([]), timeoutMs: 20_000, intervalMs: 100 });
    const before = new Set(ledger.facts.map((f) => f.client_ref));

    await decide(2, 1);

    // Two consultations and a rule version, sealed without a poll (reading the rows instead could race the relay).
    await eventually('three new facts in the ledger', async () => ledger.facts.filter((f) => !before.has(f.client_ref)), {
      until: (v) => expect(v).toHaveLength(3),
      timeoutMs: 20_000,
      intervalMs: 100,
    });
    expect(await allRows()).toEqual([]);
  });
});
