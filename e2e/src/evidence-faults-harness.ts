// Helpers of the evidence fault tests (docs/operations.md "Seal relay"): what they start (EVIDENCE_STACK:
// the whole real stack, with the ledger on a port that survives its restart and a quick relay), a tenant
// on it, and the counts the tests compare: the verdict gateway's consultations and the facts of the
// tenant's consultations stream.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { eventually } from '@arbiter/testing';
import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import type { Stack, StackSpec } from './stack';
import { createVerdictTenant, registryApi, SCOPE_SCHEMA, type VerdictTenant } from './verdict-harness';

/** Reads of the ledger are rate limited per tenant: the tests read whole streams, often. */
const GENEROUS = { rate_limit: { tier: 'enterprise', requests_per_minute: 1_000_000, burst: 100_000 } };

/** Every service; the ledger can be halted and restarted where the others expect it; workers relay quickly (small batches, short leases). */
export const EVIDENCE_STACK: StackSpec = {
  verdict: true,
  ledger: { stablePort: true },
  worker: { count: 0, env: { SEAL_BATCH_SIZE: '25', SEAL_LEASE_MS: '2000', LEDGER_TIMEOUT_MS: '5000', SHUTDOWN_GRACE_MS: '2000' } },
};

export interface EvidenceRig {
  stack: Stack;
  /** The ledger's URL (the same across its restarts). */
  ledgerUrl: string;
  tenant: VerdictTenant;
  /** A `read` key of the tenant (the ledger's stream reads). */
  readKey: string;
  /** One check of the tenant's agent; resolves with the status and the consultation id. */
  check(i: number): Promise<{ status: number; consultation_id?: string; verdict?: string }>;
}

/** A tenant on the stack with an advisory rule on EU transfers, so that every check is recorded and sealed. */
export async function evidenceRig(stack: Stack): Promise<EvidenceRig> {
  const { registry } = stack;
  const tenant = await createVerdictTenant({ registry }, `evidence-${randomUUID().slice(0, 8)}`, {
    scope_schema: SCOPE_SCHEMA,
    ...GENEROUS,
  });
  const readKey = (await createPrincipalWithKey(registry, tenant.adminKey, { permissions: ['read'] })).key;
  const scope = await registryApi({ registry }, tenant.adminKey).scope('eu', { region: 'eu' });
  await registryApi({ registry }, tenant.adminKey).rule(scope, { directive: 'Transfers need a second look', severity: 'ADVISORY' });
  return {
    stack,
    ledgerUrl: stack.ledger.url,
    tenant,
    readKey,
    async check(i: number) {
      const res = await request(stack.verdict.url)
        .post(`/${tenant.id}/v1/check`)
        .set('X-API-Key', tenant.agent.key)
        .send({ action: 'payments.transfer', resource: `acct:${i}`, scope: { region: 'eu', env: 'prod' }, on_behalf_of: tenant.humanId });
      return { status: res.status, consultation_id: res.body?.consultation_id, verdict: res.body?.verdict };
    },
  };
}

/** Every consultation id of the tenant in the verdict gateway, read page by page from GET /<tenant>/v1/consultations. */
export async function verdictConsultationIds(rig: EvidenceRig): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const res = await request(rig.stack.verdict.url)
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
    const res = await request(rig.ledgerUrl)
      .get(`/streams/${stream}/facts`)
      .set('X-API-Key', rig.readKey)
      .query({ limit: 1000, offset: facts.length });
    if (res.status === 404 && facts.length === 0) return facts;
    if (res.status !== 200) throw new Error(`GET /streams/${stream}/facts: ${res.status} ${JSON.stringify(res.body)}`);
    facts.push(...(res.body.facts as ConsultationFact[]));
    if (facts.length >= res.body.count || res.body.facts.length === 0) return facts;
  }
}

/** How many facts the tenant's consultations stream holds (one small read; 0 before the first). */
export async function consultationFactCount(rig: EvidenceRig): Promise<number> {
  const res = await request(rig.ledgerUrl)
    .get(`/streams/arbiter.${rig.tenant.id}.consultations/facts`)
    .set('X-API-Key', rig.readKey)
    .query({ limit: 1 });
  if (res.status === 404) return 0;
  if (res.status !== 200) throw new Error(`stream count: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.count as number;
}

/**
 * Waits (up to `ms`) until the ledger holds as many consultation facts as the verdict gateway has
 * consultations, then compares the two: every consultation id exactly once, no other fact.
 */
export async function expectSealedExactlyOnce(rig: EvidenceRig, ms: number): Promise<{ consultations: number; facts: number }> {
  const ids = await verdictConsultationIds(rig);
  await eventually(`${ids.length} consultation facts`, () => consultationFactCount(rig), {
    until: (count) => count >= ids.length,
    timeoutMs: ms,
    intervalMs: 250,
  });
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
