import { alignDown, partitionName } from '@arbiter/db';
import { eventually } from '@arbiter/testing';
import type { Pool } from 'pg';
import { createVerdictTenant, verdictApi, type VerdictTenant } from './verdict-harness';
import { startStack, type Stack } from './stack';

jest.setTimeout(300_000);

const MIN = 60_000;

/**
 * The maintenance job end to end (docs/operations.md "Partitions"): one-minute partitions, a run every second.
 * Partitions appear ahead; past partitions of transient tables go; a consultation stays while nothing archives it.
 */
describe('partition maintenance', () => {
  let stack: Stack;
  let t: VerdictTenant;

  beforeAll(async () => {
    stack = await startStack({
      verdict: { env: { RESOLVE_SESSION_TTL_S: '60' } },
      ledger: true,
      worker: { env: { MAINTENANCE_INTERVAL: '1s' } },
      env: { PARTITION_INTERVAL: '1m' },
      registry: { env: { RETENTION_MIN: '1m' } },
    });
    t = await createVerdictTenant(stack, 'partitions', { retention: { consultations: '1m' } });
  });
  afterAll(() => stack.stop());

  const partitions = async (db: Pool, table: string): Promise<string[]> =>
    (
      await db.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`,
        [table],
      )
    ).rows.map((r) => r.name);

  it('creates partitions ahead, drops past transient ones, and keeps consultations nothing archived', async () => {
    const verdict = stack.db('verdict');
    const registry = stack.db('registry');
    const start = Date.now();
    // Ahead: the outbox and sessions of the coming minutes, and consultations where this tenant's (1m) and the
    // default retention (90d) put them.
    const aheadSlot = alignDown(start, MIN) + 2 * MIN;
    await eventually(
      'the partitions ahead',
      async () =>
        (await partitions(verdict, 'seal_outbox')).includes(partitionName('seal_outbox', aheadSlot)) &&
        (await partitions(verdict, 'resolve_sessions')).includes(partitionName('resolve_sessions', aheadSlot)) &&
        (await partitions(verdict, 'consultations')).includes(partitionName('consultations', aheadSlot)) &&
        (await partitions(verdict, 'consultations')).includes(partitionName('consultations', alignDown(start + 90 * 86_400_000, MIN))) &&
        (await partitions(registry, 'seal_outbox')).includes(partitionName('seal_outbox', aheadSlot)) &&
        (await partitions(registry, 'events')).includes(partitionName('events', alignDown(start + 90 * 86_400_000, MIN))),
      { timeoutMs: 30_000 },
    );

    // A consultation kept one minute, sealed in the ledger (its outbox row leaves).
    const res = await verdictApi(stack, t.agent.key, t.id).check({ action: 'files.read', resource: 'f', scope: {} }).expect(200);
    const id: string = res.body.consultation_id;
    const { rows } = await verdict.query<{ keep_until: Date }>(`SELECT keep_until FROM consultations WHERE id = $1`, [id]);
    const consultationPartition = partitionName('consultations', alignDown(rows[0].keep_until.getTime(), MIN));
    const outboxPartition = partitionName('seal_outbox', alignDown(Date.now(), MIN));

    // The outbox partition of this minute goes once past and empty (the seal relay emptied it)...
    await eventually(
      'the past outbox partition dropped',
      async () => !(await partitions(verdict, 'seal_outbox')).includes(outboxPartition),
      {
        timeoutMs: 180_000,
        intervalMs: 1_000,
      },
    );
    // ... and a later one too, so maintenance has run after the consultation's partition became past.
    const laterOutbox = partitionName('seal_outbox', alignDown(rows[0].keep_until.getTime(), MIN) + MIN);
    await eventually('a later outbox partition dropped', async () => !(await partitions(verdict, 'seal_outbox')).includes(laterOutbox), {
      timeoutMs: 180_000,
      intervalMs: 1_000,
    });
    // The past sessions partitions went with them.
    expect(await partitions(verdict, 'resolve_sessions')).not.toContain(partitionName('resolve_sessions', alignDown(start, MIN)));
    // The consultation's partition is past, but nothing archived it: it stays, and the record answers.
    expect(await partitions(verdict, 'consultations')).toContain(consultationPartition);
    const read = await verdictApi(stack, t.agent.key, t.id).consultation(id).expect(200);
    expect(read.body.id).toBe(id);
    // What the services count (docs/operations.md "Partitions").
    const verdictMetrics = await (await fetch(`${stack.verdict.url}/metrics`)).text();
    expect(verdictMetrics).toMatch(/arbiter_partitions_created_total\{[^}]*table="consultations"[^}]*\} [1-9]/);
    expect(verdictMetrics).toMatch(/arbiter_partitions_dropped_total\{[^}]*table="seal_outbox"[^}]*\} [1-9]/);
    const registryMetrics = await (await fetch(`${stack.registry.url}/metrics`)).text();
    expect(registryMetrics).toMatch(/arbiter_partitions_created_total\{[^}]*table="events"[^}]*\} [1-9]/);
  });
});
