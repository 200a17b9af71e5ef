// The scale benchmark's archiving process (bench/scale/run.ts; docs/benchmarks.md "Scale: partitions, retention and
// archive"): the worker's archive step (apps/worker/src/archive, the step the maintenance job runs before a drop)
// with the worker's own clients, in a process of its own so that its memory is the step's. It archives the past
// partitions named on its command line one after the other and prints one JSON line per partition: rows, seconds,
// its resident set and V8 heap before (after a full GC) and at their peak (sampled every 10 ms), and its live heap
// while streaming: every LIVE_EVERY rows read from the gateway, a full GC and the heap used after it (what the step
// still holds, not what the collector has yet to free).
//
//   node --expose-gc dist/bench/scale/archive-step.js <partition>...
//   env: ARCHIVE_URL, VERDICT_URL, REGISTRY_URL, LEDGER_URL, INTERNAL_TOKEN
import { openArchiveStore } from '@arbiter/archive';
import { LedgerInternalClient, RegistryInternalClient, VerdictInternalClient } from '@arbiter/internal-api';
import { archiveDue } from '../../apps/worker/src/archive';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

const MB = 1024 * 1024;
/** Rows between two samples of the live heap. */
const LIVE_EVERY = 2_500;

async function main() {
  const token = env('INTERNAL_TOKEN');
  const timeoutMs = 600_000;
  const verdict = new VerdictInternalClient({ baseUrl: env('VERDICT_URL'), token, timeoutMs });
  const registry = new RegistryInternalClient({ baseUrl: env('REGISTRY_URL'), token, timeoutMs });
  const ledger = new LedgerInternalClient({ baseUrl: env('LEDGER_URL'), token, timeoutMs });
  const store = openArchiveStore({ ARCHIVE_URL: env('ARCHIVE_URL') });
  let rows = 0;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  // The rows as the step reads them, counted: every LIVE_EVERY, a full GC and the heap used after it.
  let streamed = 0;
  let live: Array<[rows: number, mb: number]> = [];
  const liveHeap = () => {
    gc();
    live.push([streamed, process.memoryUsage().heapUsed / MB]);
  };
  const owner = {
    partitionTenants: verdict.partitionTenants.bind(verdict),
    recordSegment: verdict.recordSegment.bind(verdict),
    async *partitionRows(partition: string, tenantId: string, signal?: AbortSignal) {
      for await (const line of verdict.partitionRows(partition, tenantId, signal)) {
        if (++streamed % LIVE_EVERY === 0) liveHeap();
        yield line;
      }
    },
  };
  const deps = {
    store,
    owners: { verdict: owner, registry },
    ledger,
    log: { info: () => undefined, warn: (obj: object, msg: string) => process.stderr.write(`${msg} ${JSON.stringify(obj)}\n`) },
    onArchived: (_kind: string, n: number) => void (rows += n),
  };
  for (const partition of process.argv.slice(2)) {
    gc();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 10);
    rows = 0;
    streamed = 0;
    live = [];
    const t0 = process.hrtime.bigint();
    await archiveDue(deps, 'verdict', [{ table: 'consultations', partition, from: null, to: '', archive: 'consultations' }]);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    clearInterval(sampler);
    const after = process.memoryUsage();
    liveHeap(); // once the partition is done: what is left of it
    process.stdout.write(
      `${JSON.stringify({
        partition,
        rows,
        seconds,
        rss_before_mb: before.rss / MB,
        rss_peak_mb: Math.max(peakRss, after.rss) / MB,
        heap_before_mb: before.heapUsed / MB,
        heap_peak_mb: Math.max(peakHeap, after.heapUsed) / MB,
        live_heap_mb: live,
      })}\n`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
