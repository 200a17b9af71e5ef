import { RegistryUnavailableError, VerdictUnavailableError, type DuePartition } from '@arbiter/internal-api';
import { LoggedJobFailure } from '@arbiter/queue';
import { runMaintenance, type MaintainedClient } from './maintenance-run';

const log = { info: () => undefined, warn: () => undefined } as never;
const ctx = { jobId: 'm', attempt: 1, log, signal: new AbortController().signal, traceLinks: {} };

const due = (partition: string, archive: DuePartition['archive']): DuePartition => ({
  table: partition.replace(/_p\d+t\d+$/, ''),
  partition,
  from: '2026-11-27T14:00:00.000Z',
  to: '2026-11-27T14:01:00.000Z',
  archive,
});

function client(list: DuePartition[], refuse: Record<string, string> = {}): MaintainedClient & { dropped: string[] } {
  const dropped: string[] = [];
  return {
    dropped,
    runPartitions: async () => ({ due: list }),
    dropPartition: async (p) => {
      if (refuse[p]) return { dropped: false, reason: refuse[p] };
      dropped.push(p);
      return { dropped: true };
    },
  };
}

describe('maintenance.v1.run', () => {
  it('archives the archived kinds first, then asks for every drop, counting what the gates kept', async () => {
    const order: string[] = [];
    const verdict = client([due('consultations_p20261127t1400', 'consultations'), due('resolve_sessions_p20261127t1400', null)], {
      consultations_p20261127t1400: 'not_archived',
    });
    const registry = client([due('seal_outbox_p20261127t1400', null)], { seal_outbox_p20261127t1400: 'not_empty' });
    const result = await runMaintenance({
      services: { verdict, registry },
      archiveDue: async (service, list) => void order.push(`${service}:${list.map((d) => d.partition).join(',')}`),
    })({}, ctx);
    expect(order).toEqual(['verdict:consultations_p20261127t1400']);
    expect(verdict.dropped).toEqual(['resolve_sessions_p20261127t1400']);
    expect(result).toEqual({ due: 3, dropped: 1, kept: { not_archived: 1, not_empty: 1 } });
  });

  it('drops nothing of an archived kind when archiving fails, maintains the other service, and fails the run', async () => {
    const verdict = client([due('consultations_p20261127t1400', 'consultations'), due('resolve_sessions_p20261127t1400', null)]);
    const registry: MaintainedClient = {
      runPartitions: async () => {
        throw new Error('registry unreachable');
      },
      dropPartition: async () => ({ dropped: true }),
    };
    await expect(
      runMaintenance({
        services: { verdict, registry },
        archiveDue: async () => {
          throw new Error('archive down');
        },
      })({}, ctx),
    ).rejects.toThrow(/registry: registry unreachable; verdict archive: archive down/);
    expect(verdict.dropped).toEqual(['resolve_sessions_p20261127t1400']);
  });

  it('says in one warn line, without a stack, that the services are not up yet, and still fails the run', async () => {
    const warned: Array<[Record<string, unknown>, string]> = [];
    const quietCtx = {
      ...ctx,
      log: { info: () => undefined, warn: (o: Record<string, unknown>, m: string) => void warned.push([o, m]) } as never,
    };
    const down = (err: Error): MaintainedClient => ({
      runPartitions: async () => {
        throw err;
      },
      dropPartition: async () => ({ dropped: true }),
    });
    const run = runMaintenance({
      services: {
        registry: down(new RegistryUnavailableError('registry_unreachable', 'registry unreachable (POST /maintenance): fetch failed')),
        verdict: down(new VerdictUnavailableError('verdict_unreachable', 'verdict unreachable (POST /maintenance): fetch failed')),
      },
      archiveDue: async () => undefined,
    });
    await expect(run({}, quietCtx)).rejects.toBeInstanceOf(LoggedJobFailure);
    expect(warned).toHaveLength(1);
    expect(JSON.stringify(warned[0][0])).not.toContain('stack');
    expect(warned[0][0].failures).toEqual([
      expect.stringContaining('registry unreachable'),
      expect.stringContaining('verdict unreachable'),
    ]);
    // A service that answered with an error is no start-up: the run fails loudly (the queue logs it with its stack).
    const broken = runMaintenance({
      services: { registry: down(new RegistryUnavailableError('registry_unavailable', 'registry answered 500')), verdict: client([]) },
      archiveDue: async () => undefined,
    });
    const err = await broken({}, quietCtx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(LoggedJobFailure);
    expect(warned).toHaveLength(1);
  });
});
