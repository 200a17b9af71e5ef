// The scale benchmark's seed (bench/scale/run.ts): the partitions made by the gateway's own partition maintenance
// (libs/db PartitionMaintenance over the gateway's table of consultations), then the records streamed in with
// COPY ... FROM STDIN through pg-copy-streams, one tenant after the other, each in time order.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Pool } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { PartitionMaintenance } from '@arbiter/db';
import { verdictTables } from '../../apps/verdict/src/partitions';
import { copyEscape, DAY_MS, fillTemplate, recordTemplate, seedId, timeOf, type RecordTemplate, type SeedSpan } from './plan';

/** A real record of a tenant (a check through the API), the model of its seeded rows. */
export interface TemplateRow {
  record: string;
  explanation_basis: string | null;
  caller_principal_id: string;
  action: string;
  verdict: string;
  dominating_rule_id: string | null;
}

/**
 * Creates the daily partitions of consultations covering keep_until in [from, to): the gateway's maintenance (its
 * table definition and its SQL, libs/db PartitionMaintenance), run with its clock at each day of the range, as the
 * worker's maintenance job would have run it day after day. The table's own offsets (the default retention ahead)
 * are left out here: the partitions ahead of the real clock are made by the gateway's route afterwards.
 */
export async function makePartitions(pool: Pool, range: { from: number; to: number }): Promise<void> {
  const table = verdictTables({ RESOLVE_SESSION_TTL_S: 86_400 }).find((t) => t.table === 'consultations')!;
  let clock = range.from + DAY_MS;
  const maintenance = new PartitionMaintenance({
    pool,
    tables: [{ ...table, offsets: [] }],
    intervalMs: DAY_MS,
    offsets: async () => [0],
    now: () => clock,
  });
  // Each run makes the slots covering [clock - 1 day, clock + 2 days].
  for (; clock < range.to + DAY_MS; clock += 3 * DAY_MS) await maintenance.run();
}

/** The real records of each tenant, read back from the database after the checks. */
export async function templatesOf(pool: Pool, tenantId: string): Promise<TemplateRow[]> {
  const { rows } = await pool.query<TemplateRow>(
    `SELECT record::text AS record, explanation_basis::text AS explanation_basis, caller_principal_id, action, verdict, dominating_rule_id
       FROM consultations WHERE tenant_id = $1 ORDER BY id`,
    [tenantId],
  );
  return rows;
}

const COLUMNS =
  'id, tenant_id, caller_principal_id, requested_at, action, verdict, dominating_rule_id, record, explanation_basis, keep_until';
const CHUNK_BYTES = 512 * 1024;
const nullable = (v: string | null) => (v === null ? '\\N' : v);

/** COPY text lines of one span, in chunks of about 512 kB; the i-th row copies template i mod n. */
function* copyLines(span: SeedSpan, tenantId: string, templates: readonly TemplateRow[], seq: { next: number }): Generator<string> {
  const compiled: Array<{ t: RecordTemplate; row: TemplateRow; fixed: string; basis: string }> = templates.map((row) => ({
    t: recordTemplate(row.record),
    row,
    fixed: `${tenantId}\t${row.caller_principal_id}`,
    basis: row.explanation_basis === null ? '\\N' : copyEscape(row.explanation_basis),
  }));
  let chunk = '';
  for (let i = 0; i < span.count; i++) {
    const c = compiled[i % compiled.length];
    const at = timeOf(span, i);
    const id = seedId(at, seq.next++);
    const requestedAt = new Date(at).toISOString();
    const record = fillTemplate(c.t, { id, requested_at: requestedAt, number: 1 + (i % 100_000) });
    chunk += `${id}\t${c.fixed}\t${requestedAt}\t${c.row.action}\t${c.row.verdict}\t${nullable(c.row.dominating_rule_id)}\t${record}\t${c.basis}\t${new Date(at + span.retentionMs).toISOString()}\n`;
    if (chunk.length >= CHUNK_BYTES) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** Streams a span's rows into consultations with COPY FROM STDIN; resolves with the rows written. */
export async function copySpan(pool: Pool, span: SeedSpan, tenantId: string, templates: readonly TemplateRow[], seq: { next: number }) {
  const client = await pool.connect();
  try {
    const stream = client.query(copyFrom(`COPY consultations (${COLUMNS}) FROM STDIN`));
    await pipeline(Readable.from(copyLines(span, tenantId, templates, seq)), stream);
    return stream.rowCount;
  } finally {
    client.release();
  }
}
