import pino from 'pino';
import type { JobContext, LedgerSealItem } from '@arbiter/queue';
import {
  LedgerRejectedError,
  LedgerUnavailableError,
  type ServiceSeal as SealRequest,
  type ServiceSealAnswer,
} from '@arbiter/internal-api';
import type { SealOwner } from '../seal-relay';
import { sealBatch, type LedgerSeals } from './ledger-seal';

const ctx: JobContext = {
  jobId: 'seal.verdict.x',
  attempt: 1,
  log: pino({ level: 'silent' }),
  signal: new AbortController().signal,
  traceLinks: {},
};
const item = (id: string): LedgerSealItem => ({
  id,
  seal: {
    stream_id: 'arbiter.ten-1.consultations',
    tenant_id: 'ten-1',
    actor: 'service:verdict',
    custom_payload: { consultation_id: `cns-${id}` },
    client_ref: `cns-${id}`,
  },
});

/**
 * A ledger that refuses every request holding a poisoned client_ref (400), refuses `refused` one by one, and knows `known`;
 * unreachable from its `downFrom`-th request on (0: always).
 */
function ledgerFake(opts: { poisoned?: string[]; refused?: string[]; known?: string[]; down?: boolean; downFrom?: number } = {}) {
  const requests: string[][] = [];
  const ledger: LedgerSeals = {
    async seal(seals: SealRequest[]): Promise<ServiceSealAnswer> {
      if (opts.down || (opts.downFrom !== undefined && requests.length >= opts.downFrom))
        throw new LedgerUnavailableError('ledger_unreachable', 'down');
      requests.push(seals.map((s) => s.client_ref));
      if (seals.some((s) => opts.poisoned?.includes(s.client_ref))) throw new LedgerRejectedError(400, 'VALIDATION_ERROR');
      const results = seals.map((s): ServiceSealAnswer['results'][number] =>
        opts.refused?.includes(s.client_ref)
          ? { ok: false, status: 422, code: 'UNSTORABLE', message: 'no' }
          : {
              ok: true,
              fact_id: `fct-${s.client_ref}`,
              stream_id: s.stream_id,
              seq: 1,
              fact_hash: 'sha256:00',
              created: !opts.known?.includes(s.client_ref),
            },
      );
      return { results };
    },
  };
  return { ledger, requests };
}

function ownerFake() {
  const done: string[][] = [];
  const owner = {
    sealsDone: async (ids: string[]) => {
      done.push(ids);
      return { deleted: ids.length };
    },
  } as unknown as SealOwner;
  return { owner, done };
}

describe('ledger.v1.seal handler', () => {
  const payload = (ids: string[]) => ({ owner: 'verdict' as const, leased_until: '2026-01-01T00:00:00.000Z', items: ids.map(item) });

  it('seals the batch in one request and tells the owner done for every acknowledged seal, new or repeated', async () => {
    const { ledger, requests } = ledgerFake({ known: ['cns-2'], refused: ['cns-3'] });
    const verdict = ownerFake();
    const sut = sealBatch({ ledger, owners: { verdict: verdict.owner, registry: ownerFake().owner } });

    const result = await sut(payload(['1', '2', '3', '4']), ctx);

    expect(requests).toEqual([['cns-1', 'cns-2', 'cns-3', 'cns-4']]);
    expect(verdict.done).toEqual([['1', '2', '4']]);
    expect(result).toEqual({ sealed: 3, created: 2, refused: 1, done: 3 });
  });

  it('splits a batch the ledger refuses as a whole until the refused seal stands alone', async () => {
    const { ledger, requests } = ledgerFake({ poisoned: ['cns-3'] });
    const verdict = ownerFake();
    const sut = sealBatch({ ledger, owners: { verdict: verdict.owner, registry: ownerFake().owner } });

    const result = await sut(payload(['1', '2', '3', '4', '5']), ctx);

    expect(result).toEqual({ sealed: 4, created: 4, refused: 1, done: 4 });
    expect(verdict.done).toEqual([['1', '2', '4', '5']]);
    expect(requests[0]).toHaveLength(5);
    expect(requests.length).toBeLessThanOrEqual(1 + 2 * Math.ceil(Math.log2(5)));
  });

  it('fails while the ledger is unavailable and tells the owner nothing (BullMQ retries)', async () => {
    const verdict = ownerFake();
    const sut = sealBatch({ ledger: ledgerFake({ down: true }).ledger, owners: { verdict: verdict.owner, registry: ownerFake().owner } });

    await expect(sut(payload(['1']), ctx)).rejects.toBeInstanceOf(LedgerUnavailableError);
    expect(verdict.done).toEqual([]);
  });

  it('fails the job when the ledger becomes unavailable while a refused batch is split, without trying the other halves', async () => {
    const { ledger, requests } = ledgerFake({ poisoned: ['cns-3'], downFrom: 1 });
    let attempts = 0;
    const counted: LedgerSeals = { seal: (seals, signal) => (attempts++, ledger.seal(seals, signal)) };
    const verdict = ownerFake();
    const sut = sealBatch({ ledger: counted, owners: { verdict: verdict.owner, registry: ownerFake().owner } });

    await expect(sut(payload(['1', '2', '3', '4']), ctx)).rejects.toBeInstanceOf(LedgerUnavailableError);
    expect(requests).toEqual([['cns-1', 'cns-2', 'cns-3', 'cns-4']]);
    expect(attempts).toBe(2); // the whole batch, then its first half, which met the outage
    expect(verdict.done).toEqual([]);
  });
});
