import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorker, ROOT, spawnWorker, type WorkerProcess } from './worker-process';
import { eventually } from '@arbiter/testing';
import { FAST_WEBHOOKS, rigApi, webhookRig, type WebhookRig } from './webhooks-harness';
import { startStack, type Stack } from './stack';

/** Several worker processes on one queue, and a SIGTERM in the middle of a delivery. */
describe('worker processes', () => {
  let dir: string;
  let main: string;
  let stack: Stack;
  let rig: WebhookRig;
  const processes: WorkerProcess[] = [];

  beforeAll(async () => {
    // tmp/ is gitignored: a fresh clone has none until some test makes it.
    await mkdir(path.join(ROOT, 'tmp'), { recursive: true });
    dir = await mkdtemp(path.join(ROOT, 'tmp', 'worker-bundle-'));
    [main, stack] = await Promise.all([bundleWorker(dir), startStack({ registry: { env: FAST_WEBHOOKS } })]);
    rig = await webhookRig(stack);
  });
  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('delivers each attempt once with two worker processes, and finishes the delivery in flight on SIGTERM', async () => {
    const a = rigApi(rig);
    processes.push(await spawnWorker(main, stack.env('worker')), await spawnWorker(main, stack.env('worker')));
    const sub = await a.subscribe({ events: ['approval.requested'] });

    const approvals = await Promise.all(Array.from({ length: 8 }, (_, i) => a.requestApproval(`two processes ${i}`)));
    const ds = await eventually(
      'every delivery',
      async () => {
        const list = await a.deliveries(sub.id);
        return list.length === approvals.length && list.every((d) => d.status === 'succeeded') ? list : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(ds.every((d) => d.attempt_count === 1)).toBe(true);
    expect(rig.receiver.received).toHaveLength(approvals.length);

    // An idle process stops at once on SIGTERM.
    const [first, second] = processes;
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    // The other one gets a delivery whose receiver holds the request until released, and a SIGTERM meanwhile.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    rig.receiver.respond = async () => {
      await released;
      return 200;
    };
    const slow = await a.requestApproval('in flight at SIGTERM');
    await eventually('the held request', () => rig.receiver.received.find((r) => (r.body.data as { id: string }).id === slow.id));
    let releasedYet = false;
    const exitedBeforeRelease = second.exited.then(() => !releasedYet);
    second.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    releasedYet = true;
    release();

    expect(await second.exited).toBe(0);
    expect(await exitedBeforeRelease).toBe(false);
    const delivery = (await a.deliveries(sub.id)).find((d) =>
      rig.receiver.received.some((r) => r.headers['x-service-delivery'] === d.id && (r.body.data as { id: string }).id === slow.id),
    );
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    expect(rig.receiver.received.filter((r) => (r.body.data as { id: string }).id === slow.id)).toHaveLength(1);
  });
});
