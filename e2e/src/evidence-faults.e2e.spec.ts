import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findFreePort, startRedis, type RedisHandle } from '@arbiter/devstack';
import { eventually } from '@arbiter/testing';
import {
  checkLoop,
  consultationFactCount,
  EVIDENCE_STACK,
  evidenceRig,
  expectSealedExactlyOnce,
  type EvidenceRig,
} from './evidence-faults-harness';
import { outboxRows } from './seal-harness';
import { startStack, type Stack } from './stack';
import { bundleWorker, ROOT, spawnWorker, type WorkerProcess } from './worker-process';

jest.setTimeout(240_000);

/**
 * Faults of the evidence chain (docs/operations.md "Seal relay"), against the real stack: a registry,
 * a verdict gateway, the ledger, a worker, real PostgreSQL and Redis. Each test counts the verdict
 * gateway's consultations (its list API) and the facts of the tenant's `arbiter.<tenant>.consultations`
 * stream (the ledger's list API with the tenant's read key): every consultation exactly once, and
 * nothing else. Deadlines only bound the waiting; nothing is timed.
 */
const SEALED_WITHIN_MS = 120_000;

const expectAllAnswered = (answers: Array<{ status: number; verdict?: string }>) => {
  expect(answers.filter((a) => a.status !== 200 || typeof a.verdict !== 'string')).toEqual([]);
};

describe('evidence chain: the ledger stopped for 30 s', () => {
  let stack: Stack;
  let rig: EvidenceRig;

  beforeAll(async () => {
    stack = await startStack(EVIDENCE_STACK);
    rig = await evidenceRig(stack);
  });
  afterAll(() => stack?.stop());

  it('keeps answering checks, and seals every consultation exactly once after the ledger returns', async () => {
    await stack.addWorker();
    for (let i = 0; i < 5; i++) expect((await rig.check(i)).status).toBe(200);
    await expectSealedExactlyOnce(rig, 30_000);

    await stack.halt('ledger');
    const loop = checkLoop(rig, { pool: 2, pauseMs: 200, first: 100 });
    await new Promise((r) => setTimeout(r, 30_000));
    const during = await loop.stop();
    expectAllAnswered(during);
    expect(during.length).toBeGreaterThan(50);
    // Nothing of the outage reached a ledger: it waits in the verdict gateway's outbox.
    expect((await outboxRows(stack.databaseUrl('verdict'))).length).toBe(during.length);

    await stack.restart('ledger');
    const counts = await expectSealedExactlyOnce(rig, SEALED_WITHIN_MS);
    expect(counts.consultations).toBe(5 + during.length);
    await eventually('an empty outbox', () => outboxRows(stack.databaseUrl('verdict')), {
      until: (rows) => rows.length === 0,
      timeoutMs: SEALED_WITHIN_MS,
      intervalMs: 200,
    });
  });
});

describe('evidence chain: the worker killed with SIGKILL mid-batch', () => {
  let stack: Stack;
  let rig: EvidenceRig;
  let dir: string;
  let main: string;
  const processes: WorkerProcess[] = [];

  beforeAll(async () => {
    // Inside the repository: the bundle's externals resolve from its node_modules.
    await mkdir(path.join(ROOT, 'tmp'), { recursive: true });
    dir = await mkdtemp(path.join(ROOT, 'tmp', 'evidence-worker-'));
    [stack, main] = await Promise.all([startStack(EVIDENCE_STACK), bundleWorker(dir)]);
    rig = await evidenceRig(stack);
  });
  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('seals every consultation exactly once after a new worker takes over', async () => {
    // The burst first: several hundred consultations wait in the outbox when the worker starts.
    const burst = checkLoop(rig, { pool: 8 });
    await eventually('400 answered checks', () => burst.answers.length >= 400, { timeoutMs: 60_000 });
    const answers = await burst.stop();
    expectAllAnswered(answers);
    expect(await consultationFactCount(rig)).toBe(0);

    // One job at a time, batches of 25: the relay leases batch after batch at once (a full batch goes
    // on at once), and the jobs seal them one ledger request after another.
    const env = { ...stack.env('worker'), SEAL_BATCH_SIZE: '25', SEAL_LEASE_MS: '2000', WORKER_CONCURRENCY: '1' };
    const first = await spawnWorker(main, env);
    processes.push(first);
    // Some sealed, not all: killed between two of its ledger requests or inside one, holding leases.
    let sealedAtKill = 0;
    sealedAtKill = await eventually('25 consultation facts', () => consultationFactCount(rig), {
      until: (n) => n >= 25,
      timeoutMs: 60_000,
      intervalMs: 5,
    });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    const leasedAtKill = (await outboxRows(stack.databaseUrl('verdict'), 'leased_until > now()')).length;
    expect(sealedAtKill).toBeLessThan(answers.length);

    // The new worker on the same queues: it also finds the dead one's waiting and stalled jobs.
    const second = await spawnWorker(main, { ...env, WORKER_CONCURRENCY: '10' });
    processes.push(second);
    const counts = await expectSealedExactlyOnce(rig, SEALED_WITHIN_MS);
    expect(counts.consultations).toBe(answers.length);
    await eventually('an empty outbox', () => outboxRows(stack.databaseUrl('verdict')), {
      until: (rows) => rows.length === 0,
      timeoutMs: SEALED_WITHIN_MS,
      intervalMs: 200,
    });
    process.stdout.write(
      `SIGKILL test: ${sealedAtKill} sealed and ${leasedAtKill} rows under lease at the kill, ${answers.length} consultations\n`,
    );
  });
});

describe('evidence chain: Redis stopped', () => {
  let dir: string;
  let port: number;
  let redis: RedisHandle;
  let stack: Stack;
  let rig: EvidenceRig;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-evidence-redis-'));
    port = await findFreePort();
    redis = await startRedis({ dir, port });
    // Keys cached for one second only: the checks of the outage authenticate through the registry again.
    stack = await startStack({ ...EVIDENCE_STACK, redisUrl: redis.url, verdict: { env: { AUTH_CACHE_TTL_MS: '1000' } } });
    rig = await evidenceRig(stack);
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps answering checks while Redis is down, and seals every consultation exactly once after it returns', async () => {
    await stack.addWorker();
    for (let i = 0; i < 5; i++) expect((await rig.check(i)).status).toBe(200);
    await expectSealedExactlyOnce(rig, 30_000);

    await redis.stop();
    const loop = checkLoop(rig, { pool: 2, pauseMs: 100, first: 100 });
    await new Promise((r) => setTimeout(r, 10_000));
    const during = await loop.stop();
    expectAllAnswered(during);
    expect(during.length).toBeGreaterThan(20);

    redis = await startRedis({ dir, port });
    const counts = await expectSealedExactlyOnce(rig, SEALED_WITHIN_MS);
    expect(counts.consultations).toBe(5 + during.length);
  });
});
