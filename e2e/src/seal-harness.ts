// Helpers of the seal outbox tests (docs/operations.md "Seal relay"): a fake ledger implementing the
// service seal endpoint's contract (POST /internal/v1/seals; one fact per (stream_id, client_ref), in
// memory), reads of a service's seal_outbox table, and the internal API of an outbox owner.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import request from 'supertest';
import { TEST_INTERNAL_TOKEN } from '../../apps/registry/test/harness';

export interface FakeSeal {
  stream_id: string;
  tenant_id: string;
  actor: string;
  custom_payload: Record<string, unknown>;
  client_ref: string;
}

export interface FakeLedger {
  url: string;
  /** Every seal request's seals, in arrival order. */
  requests: FakeSeal[][];
  /** The facts, one per (stream_id, client_ref), in sealing order. */
  facts: Array<FakeSeal & { fact_id: string; seq: number }>;
  /** When set, answers 503 to every request. */
  down: boolean;
  /** Client refs answered `ok: false` (a seal the database refused on its own). */
  refuse: Set<string>;
  close(): Promise<void>;
}

/** The ledger's `POST /internal/v1/seals` as the contract describes it, in memory. */
export async function startFakeLedger(token = TEST_INTERNAL_TOKEN): Promise<FakeLedger> {
  const ledger: FakeLedger = { url: '', requests: [], facts: [], down: false, refuse: new Set(), close: async () => undefined };
  const byRef = new Map<string, FakeLedger['facts'][number]>();
  const seqs = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    req.on('end', () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/internal/v1/seals') return answer(404, { error: { code: 'NOT_FOUND' } });
      if (req.headers['x-internal-token'] !== token) return answer(401, { error: { code: 'UNAUTHORIZED' } });
      if (ledger.down) return answer(503, { error: { code: 'UNAVAILABLE' } });
      const seals = (JSON.parse(text) as { seals: FakeSeal[] }).seals;
      if (!Array.isArray(seals) || seals.length < 1 || seals.length > 1000) return answer(400, { error: { code: 'VALIDATION_ERROR' } });
      for (const [i, s] of seals.entries()) {
        if (
          s.stream_id !== `arbiter.${s.tenant_id}.${s.stream_id.split('.').pop()}` ||
          !/^(consultations|approvals|rules|keys)$/.test(s.stream_id.split('.').pop()!)
        ) {
          return answer(400, { error: { code: 'VALIDATION_ERROR', message: `seals[${i}].stream_id` } });
        }
        if (!s.client_ref || typeof s.custom_payload !== 'object' || !s.actor)
          return answer(400, { error: { code: 'VALIDATION_ERROR', message: `seals[${i}]` } });
      }
      ledger.requests.push(seals);
      const results = seals.map((s) => {
        if (ledger.refuse.has(s.client_ref)) return { ok: false, status: 422, code: 'UNSTORABLE', message: 'refused' };
        const key = `${s.stream_id}\n${s.client_ref}`;
        const known = byRef.get(key);
        if (known)
          return { ok: true, fact_id: known.fact_id, stream_id: known.stream_id, seq: known.seq, fact_hash: hashOf(known), created: false };
        const seq = (seqs.get(s.stream_id) ?? 0) + 1;
        seqs.set(s.stream_id, seq);
        const fact = { ...s, fact_id: `fct-${ledger.facts.length + 1}`, seq };
        byRef.set(key, fact);
        ledger.facts.push(fact);
        return { ok: true, fact_id: fact.fact_id, stream_id: s.stream_id, seq, fact_hash: hashOf(fact), created: true };
      });
      answer(200, { results });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ledger.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ledger.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return ledger;
}

function hashOf(fact: object): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(fact)).digest('hex')}`;
}

export interface OutboxRow {
  id: string;
  tenant_id: string;
  stream_id: string;
  client_ref: string;
  payload: Record<string, unknown>;
  attempts: number;
  leased_until: Date | null;
}

/** The rows of a service's seal_outbox (read behind the service's back), oldest first. */
export async function outboxRows(databaseUrl: string, where = 'true', params: unknown[] = []): Promise<OutboxRow[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // ORDER BY the bigint column: the output column `id` is its text, which sorts 10 before 9.
    return (
      await client.query<OutboxRow>(
        `SELECT id::text AS id, tenant_id, stream_id, client_ref, payload, attempts, leased_until FROM seal_outbox WHERE ${where} ORDER BY seal_outbox.id`,
        params,
      )
    ).rows;
  } finally {
    await client.end();
  }
}

/** Runs SQL on a service's database. */
export async function sql(databaseUrl: string, text: string, params: unknown[] = []): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

/** The seal outbox of an owner's internal API, with the service token. */
export function sealOutboxApi(baseUrl: string, token = TEST_INTERNAL_TOKEN) {
  const post = (op: string, body?: object) =>
    request(baseUrl)
      .post(`/internal/v1/seal-outbox/${op}`)
      .set('X-Internal-Token', token)
      .send(body ?? {});
  return {
    lease: (body?: { limit?: number; lease_ms?: number }) => post('lease', body),
    done: (ids: string[]) => post('done', { ids }),
    release: (ids: string[], leased_until: string) => post('release', { ids, leased_until }),
    raw: post,
  };
}
