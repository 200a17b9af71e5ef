import { startFakeApprovals, type FakeApprovals } from '../test/fake-approvals-server';
import { requestApprovalAndWait, waitForApproval } from './approvals';
import { ApprovalWaitError, VerdictError } from './errors';
import { createVerdictClient, type VerdictClient } from './verdict-client';

describe(requestApprovalAndWait.name, () => {
  let server: FakeApprovals;
  let client: VerdictClient;
  const sut = requestApprovalAndWait;

  beforeAll(async () => {
    server = await startFakeApprovals({ tenant: 'tnt-a', approvalRequired: new Set(['cns-needs', 'cns-other']) });
    client = createVerdictClient({ baseUrl: server.url, apiKey: 'ak-test', tenant: 'tnt-a' });
  });
  afterAll(() => server.close());

  /** A clock that only moves when the loop sleeps: no real waiting, no timing in the test. */
  function virtualTime() {
    let t = 0;
    const pauses: number[] = [];
    return { pauses, now: () => t, sleep: async (ms: number) => void (pauses.push(ms), (t += ms)) };
  }

  it('creates the approval, polls with growing pauses and resolves with the decision', async () => {
    const time = virtualTime();
    let polls = 0;
    const decided = await sut(
      client,
      { consultation_id: 'cns-needs', requester_notes: 'quarter end' },
      {
        ...time,
        pollMs: { initialMs: 100, factor: 2, maxMs: 300 },
        onPoll: (a) => {
          if (++polls === 3) server.decide(a.id, 'approve');
        },
      },
    );
    expect(decided).toMatchObject({
      status: 'approved',
      decision: 'approve',
      decider: 'hum-cfo',
      consultation_id: 'cns-needs',
      requester_notes: 'quarter end',
    });
    expect(time.pauses).toEqual([100, 200, 300]);
    expect(server.requests.filter((r) => r.startsWith('POST'))).toEqual(['POST /tnt-a/v1/approvals']);
  });

  it('resolves with a rejection as well (the caller reads status)', async () => {
    const time = virtualTime();
    const decided = await sut(client, { consultation_id: 'cns-other' }, { ...time, onPoll: (a) => server.decide(a.id, 'reject') });
    expect(decided).toMatchObject({ status: 'rejected', decision: 'reject' });
  });

  it('ends the wait with approval_expired at the first read of an expired approval, and polls no more', async () => {
    const time = virtualTime();
    let polls = 0;
    const err = await sut(
      client,
      { consultation_id: 'cns-needs' },
      {
        ...time,
        pollMs: 100,
        onPoll: (a) => {
          if (++polls === 2) server.expire(a.id);
        },
      },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApprovalWaitError);
    expect(err).toMatchObject({ code: 'approval_expired', approval: { status: 'expired' } });
    expect((err as Error).message).toMatch(/expired at .* before it was decided/);
    expect(polls).toBe(3);
    expect(time.pauses).toEqual([100, 100]);
  });

  it('gives up with approval_timeout, carrying the pending approval', async () => {
    const time = virtualTime();
    const err = await sut(client, { consultation_id: 'cns-needs' }, { ...time, timeoutMs: 1000, pollMs: 400 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApprovalWaitError);
    expect(err).toMatchObject({ code: 'approval_timeout', approval: { status: 'pending' } });
    expect(time.pauses).toEqual([400, 400, 200]);
  });

  it('passes the service refusal through as a typed VerdictError', async () => {
    const err = await sut(client, { consultation_id: 'cns-allowed' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VerdictError);
    expect(err).toMatchObject({ service: 'verdict', status: 400, code: 'consultation_not_approval_required' });
  });

  it('stops waiting when aborted', async () => {
    const controller = new AbortController();
    const created = await client.createApproval({ consultation_id: 'cns-needs' });
    const sleep = async () => {
      controller.abort();
      throw new Error('aborted');
    };
    await expect(waitForApproval(client, created.id, { sleep, signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
  });

  it('reads an unknown approval as 404 approval_not_found', async () => {
    await expect(client.getApproval('apr-missing')).rejects.toMatchObject({ status: 404, code: 'approval_not_found' });
  });
});
