import { bisectOnRowFault } from '@arbiter/db';
import type { JobContext, JobHandler, LedgerSealItem, ledgerSealJob } from '@arbiter/queue';
import { recordInTrace, SpanKind } from '@arbiter/telemetry';
import { LedgerRejectedError, type LedgerInternalClient, type ServiceSealResult as SealResult } from '@arbiter/internal-api';
import type { SealOwner } from '../seal-relay';

/** What the job needs of the ledger: one request for the whole batch, results in request order. */
export type LedgerSeals = Pick<LedgerInternalClient, 'seal'>;

/**
 * ledger.v1.seal (docs/operations.md "Seal relay"): one ledger request for the batch, then `done` to
 * the owner for every acknowledged seal (new or a client_ref repeat). An unreachable ledger or owner
 * fails the job (BullMQ retries it; a repeat seals nothing twice). Seals the ledger refused one by
 * one stay in the outbox: their lease runs out and they come back in a later batch. A batch the
 * ledger refuses as a whole is split until the refused seals stand alone, so one bad row never holds
 * back the others.
 */
export const sealBatch =
  (deps: { ledger: LedgerSeals; owners: Record<'verdict' | 'registry', SealOwner> }): JobHandler<typeof ledgerSealJob> =>
  async (payload, ctx) => {
    const started = Date.now();
    let results: SealResult[];
    try {
      results = await sealSplitting(deps.ledger, payload.items, ctx.signal);
    } catch (err) {
      traceItems(payload.items, ctx, started, () => ({ outcome: 'failed', error: (err as Error).message }));
      throw err;
    }
    traceItems(payload.items, ctx, started, (i) => ({ outcome: results[i].ok ? 'sealed' : 'refused' }));
    const ok = payload.items.filter((_, i) => results[i].ok).map((item) => item.id);
    const refused = results.filter((r): r is Extract<SealResult, { ok: false }> => !r.ok);
    if (refused.length) {
      const codes = [...new Set(refused.map((r) => `${r.status} ${r.code}`))];
      ctx.log.warn({ owner: payload.owner, refused: refused.length, codes }, 'ledger refused seals; they stay in the outbox');
    }
    const done = ok.length ? (await deps.owners[payload.owner].sealsDone(ok, ctx.signal)).deleted : 0;
    return { sealed: ok.length, created: results.filter((r) => r.ok && r.created).length, refused: refused.length, done };
  };

/**
 * A span per traced item in the trace of the request that wrote its outbox row (docs/operations.md
 * "Tracing"), linked to the job's span: from the job's start to the ledger's answer.
 */
function traceItems(
  items: readonly LedgerSealItem[],
  ctx: JobContext,
  started: number,
  outcome: (i: number) => { outcome: string; error?: string },
): void {
  items.forEach((item, i) => {
    const traceparent = ctx.traceLinks[item.id];
    if (!traceparent) return;
    const o = outcome(i);
    recordInTrace('ledger.v1.seal item', traceparent, {
      kind: SpanKind.CONSUMER,
      startTime: started,
      error: o.error,
      attributes: {
        'arbiter.job.id': ctx.jobId,
        'arbiter.seal.stream_id': item.seal.stream_id,
        'arbiter.seal.client_ref': item.seal.client_ref,
        'arbiter.seal.outcome': o.outcome,
      },
    });
  });
}

/**
 * The ledger's results for the items, in order. A request the ledger refuses as a whole (LedgerRejectedError)
 * is halved until each refused seal stands alone (bisectOnRowFault, libs/db), which then gets a refused
 * result; any other failure (the ledger unavailable) fails the job.
 */
async function sealSplitting(ledger: LedgerSeals, items: readonly LedgerSealItem[], signal: AbortSignal): Promise<SealResult[]> {
  const outcomes = await bisectOnRowFault(
    items,
    async (part) =>
      (
        await ledger.seal(
          part.map((i) => i.seal),
          signal,
        )
      ).results,
    {
      isRowFault: (err) => err instanceof LedgerRejectedError,
    },
  );
  return outcomes.map((o): SealResult => {
    if (o.ok) return o.value!;
    const err = o.error as LedgerRejectedError;
    return { ok: false, status: err.status, code: 'rejected', message: err.detail };
  });
}
