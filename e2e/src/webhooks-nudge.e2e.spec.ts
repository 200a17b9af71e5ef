import { eventually } from '@arbiter/testing';
import { FAST_WEBHOOKS, rigApi, webhookRig, type WebhookRig } from './webhooks-harness';
import { startStack, type Stack } from './stack';

/**
 * The worker's relay without its poll (docs/operations.md "Seal relay", the nudge): with a fallback poll of a
 * minute, a new event is delivered because the registry nudges the relay after the commit, and each retry goes
 * out when it falls due because the worker that ran the failed attempt wakes the relay at that time.
 */
describe('webhook relay on nudges', () => {
  let stack: Stack;
  let rig: WebhookRig;

  beforeAll(async () => {
    stack = await startStack({ registry: { env: FAST_WEBHOOKS } });
    rig = await webhookRig(stack);
    await stack.addWorker({ RELAY_INTERVAL_MS: '60000' });
  });
  afterAll(() => stack?.stop());

  it('delivers a new event and its retries long before the fallback poll', async () => {
    const a = rigApi(rig);
    const sub = await a.subscribe({ events: ['approval.requested'] });
    rig.receiver.respond = (_req, i) => (i < 2 ? 503 : 200);

    await a.requestApproval('nudged');

    // Two retries (20 ms and 40 ms after their failures) and three attempts: each would wait a minute for the poll.
    const [delivery] = await eventually('the delivery to succeed', async () => {
      const ds = await a.deliveries(sub.id);
      return ds.length && ds[0].status === 'succeeded' ? ds : undefined;
    });
    expect(delivery.attempts.map((x) => [x.attempt, x.outcome])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'succeeded'],
    ]);
  });
});
