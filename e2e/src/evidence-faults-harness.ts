// Helpers of the evidence fault tests (docs/operations.md "Seal relay"): the whole real stack — a
// registry, a verdict gateway, a ledger on a fixed port with its own database (so it can be stopped and
// started again where the others expect it) and a worker — with a tenant, and the counts the tests
// compare: the verdict gateway's consultations and the facts of the tenant's consultations stream.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { generateKeyEncryptionKey } from '@arbiter/crypto';
import { findFreePort } from '@arbiter/devstack';
import { createLogger } from '@arbiter/http';
import { createTestDatabase, testRedisUrl } from '@arbiter/testing';
import { createPrincipalWithKey, startTestRegistry, TEST_INTERNAL_TOKEN, type RegistryHarness } from '../../apps/registry/test/harness';
import { loadLedgerConfig } from '../../apps/ledger/src/config';
import { startLedger, type RunningLedger } from '../../apps/ledger/src/server';
import { loadVerdictConfig } from '../../apps/verdict/src/config';
import { startVerdict, type RunningVerdict } from '../../apps/verdict/src/server';
import { loadWorkerConfig } from '../../apps/worker/src/config';
import { startWorker, type RunningWorker } from '../../apps/worker/src/worker';
import { createVerdictTenant, registryApi, SCOPE_SCHEMA, type VerdictTenant } from './verdict-harness';

/** Reads of the ledger are rate limited per tenant: the tests read whole streams, often. */
const GENEROUS = { rate_limit: { tier: 'enterprise', requests_per_minute: 1_000_000, burst: 100_000 } };

export interface EvidenceRig {
  registry: RegistryHarness;
  verdict: RunningVerdict;
  /** The ledger now running (undefined while stopped). */
  ledger: RunningLedger | undefined;
  ledgerUrl: string;
  verdictDbUrl: string;
  ledgerDbUrl: string;
  tenant: VerdictTenant;
  /** A `read` key of the tenant (the ledger's stream reads). */
  readKey: string;
  stopLedger(): Promise<void>;
  /** Starts the ledger again on the same port, database and key encryption key. */
  startLedger(): Promise<void>;
  /** The worker's environment (the relay quick: small batches, short leases). */
  workerEnv(extra?: Record<string, string>): Record<string, string>;
  /** Starts an in-process worker (stopped by `stop`). */
  addWorker(extra?: Record<string, string>): Promise<RunningWorker>;
  /** One check of the tenant's agent; resolves with the status and the consultation id. */
  check(i: number): Promise<{ status: number; consultation_id?: string; verdict?: string }>;
  stop(): Promise<void>;
}

export async function startEvidenceRig(opts: { redisUrl?: string; verdictEnv?: Record<string, string> } = {}): Promise<EvidenceRig> {
  const redisUrl = opts.redisUrl ?? testRedisUrl();
  const registry = await startTestRegistry({ REDIS_URL: redisUrl });
  const [verdictDb, ledgerDb] = await Promise.all([createTestDatabase('verdict'), createTestDatabase('ledger')]);
  const ledgerPort = await findFreePort();
  const ledgerUrl = `http://127.0.0.1:${ledgerPort}`;
  const common = { REDIS_URL: redisUrl, REGISTRY_URL: registry.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN };
  const ledgerConfig = loadLedgerConfig({ ...common, PORT: String(ledgerPort), HOST: '127.0.0.1', DATABASE_URL_LEDGER: ledgerDb.url, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey() });
  const verdict = await startVerdict(
    loadVerdictConfig({ ...common, PORT: '0', DATABASE_URL_VERDICT: verdictDb.url, KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(), LEDGER_URL: ledgerUrl, ...opts.verdictEnv }),
    createLogger('verdict', 'silent'),
  );
  const workers: RunningWorker[] = [];
  const rig: EvidenceRig = {
    registry,
    verdict,
    ledger: await startLedger(ledgerConfig, createLogger('ledger', 'silent')),
    ledgerUrl,
    verdictDbUrl: verdictDb.url,
    ledgerDbUrl: ledgerDb.url,
    tenant: undefined as unknown as VerdictTenant,
    readKey: '',
    async stopLedger() {
      await rig.ledger?.close();
      rig.ledger = undefined;
    },
    async startLedger() {
      rig.ledger = await startLedger(ledgerConfig, createLogger('ledger', 'silent'));
    },
    workerEnv: (extra = {}) => ({
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: `arbiter-e2e-${randomUUID()}`,
      REGISTRY_URL: registry.url,
      VERDICT_URL: verdict.url,
      LEDGER_URL: ledgerUrl,
      INTERNAL_TOKEN: TEST_INTERNAL_TOKEN,
      RELAY_INTERVAL_MS: '50',
      SEAL_BATCH_SIZE: '25',
      SEAL_LEASE_MS: '2000',
      LEDGER_TIMEOUT_MS: '5000',
      SHUTDOWN_GRACE_MS: '2000',
      ...extra,
    }),
    async addWorker(extra = {}) {
      const worker = await startWorker(loadWorkerConfig(rig.workerEnv(extra)), createLogger('worker', 'silent'));
      workers.push(worker);
      return worker;
    },
    async check(i: number) {
      const t = rig.tenant;
      const res = await request(verdict.url)
        .post(`/${t.id}/v1/check`)
        .set('X-API-Key', t.agent.key)
        .send({ action: 'payments.transfer', resource: `acct:${i}`, scope: { region: 'eu', env: 'prod' }, on_behalf_of: t.humanId });
      return { status: res.status, consultation_id: res.body?.consultation_id, verdict: res.body?.verdict };
    },
    async stop() {
      await Promise.all(workers.map((w) => w.close()));
      await verdict.close();
      await rig.ledger?.close();
      await Promise.all([registry.stop(), verdictDb.drop(), ledgerDb.drop()]);
    },
  };
  rig.tenant = await createVerdictTenant({ registry }, `evidence-${randomUUID().slice(0, 8)}`, { scope_schema: SCOPE_SCHEMA, ...GENEROUS });
  rig.readKey = (await createPrincipalWithKey(registry, rig.tenant.adminKey, { permissions: ['read'] })).key;
  const scope = await registryApi({ registry }, rig.tenant.adminKey).scope('eu', { region: 'eu' });
  await registryApi({ registry }, rig.tenant.adminKey).rule(scope, { directive: 'Transfers need a second look', severity: 'ADVISORY' });
  return rig;
}

/** Every consultation id of the tenant in the verdict gateway, read page by page from GET /<tenant>/v1/consultations. */
export async function verdictConsultationIds(rig: EvidenceRig): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const res = await request(rig.verdict.url)
      .get(`/${rig.tenant.id}/v1/consultations`)
      .set('X-API-Key', rig.readKey)
      .query({ limit: 1000, ...(cursor ? { cursor } : {}) })
      .expect(200);
    ids.push(...(res.body.items as Array<{ id: string }>).map((c) => c.id));
    cursor = res.body.next_cursor ?? undefined;
  } while (cursor);
  return ids;
}

export interface ConsultationFact {
  fact_id: string;
  sealed_at_ms: number;
  custom_payload: { consultation_id: string; decided_at: string; [k: string]: unknown };
}

/** The facts of the tenant's `arbiter.<tenant>.consultations` stream through the ledger's public API (none before its first fact). */
export async function consultationFacts(rig: EvidenceRig): Promise<ConsultationFact[]> {
  const stream = `arbiter.${rig.tenant.id}.consultations`;
  const facts: ConsultationFact[] = [];
  for (;;) {
    const res = await request(rig.ledgerUrl).get(`/streams/${stream}/facts`).set('X-API-Key', rig.readKey).query({ limit: 1000, offset: facts.length });
    if (res.status === 404 && facts.length === 0) return facts;
    if (res.status !== 200) throw new Error(`GET /streams/${stream}/facts: ${res.status} ${JSON.stringify(res.body)}`);
    facts.push(...(res.body.facts as ConsultationFact[]));
    if (facts.length >= res.body.count || res.body.facts.length === 0) return facts;
  }
}

/** How many facts the tenant's consultations stream holds (one small read; 0 before the first). */
export async function consultationFactCount(rig: EvidenceRig): Promise<number> {
  const res = await request(rig.ledgerUrl).get(`/streams/arbiter.${rig.tenant.id}.consultations/facts`).set('X-API-Key', rig.readKey).query({ limit: 1 });
  if (res.status === 404) return 0;
  if (res.status !== 200) throw new Error(`stream count: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.count as number;
}

/**
 * Waits until the ledger holds as many consultation facts as the verdict gateway has consultations
 * (or `ms` pass), then compares the two: every consultation id exactly once, no other fact.
 */
export async function expectSealedExactlyOnce(rig: EvidenceRig, ms: number): Promise<{ consultations: number; facts: number }> {
  const ids = await verdictConsultationIds(rig);
  const deadline = Date.now() + ms;
  while ((await consultationFactCount(rig)) < ids.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  const facts = await consultationFacts(rig);
  const sealed = facts.map((f) => f.custom_payload.consultation_id);
  const times = new Map<string, number>();
  for (const id of sealed) times.set(id, (times.get(id) ?? 0) + 1);
  expect(new Set(ids).size).toBe(ids.length);
  expect([...times].filter(([, n]) => n !== 1)).toEqual([]);
  expect([...ids].sort()).toEqual([...sealed].sort());
  expect(facts).toHaveLength(ids.length);
  return { consultations: ids.length, facts: facts.length };
}

/** Makes checks one after another until `stop()` says so; each must answer 200 with a verdict. */
export function checkLoop(rig: EvidenceRig, opts: { pauseMs?: number; pool?: number; first?: number } = {}) {
  let running = true;
  let n = opts.first ?? 0;
  const answers: Array<{ status: number; consultation_id?: string; verdict?: string }> = [];
  const lanes = Array.from({ length: opts.pool ?? 1 }, async () => {
    while (running) {
      answers.push(await rig.check(n++));
      if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
    }
  });
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(lanes);
      return answers;
    },
  };
}
