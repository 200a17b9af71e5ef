// Consultations leave PostgreSQL for the archive and keep their proofs (docs/operations.md "Archive", ADR 0035): with
// one-minute partitions, a tenant retention of 2m and a maintenance run every 2 s, the worker archives each past
// partition (a directory in one stack, a real S3 server in the other), seals the segments' manifests and the gateway
// drops the partitions; the consultations still answer from the archive with `archived: true`, their evidence verifies
// with the SDK and the CLI, and `arbiter archive verify` passes. Both stores run in parallel in one wait: the test
// spends about four minutes of wall clock, nearly all of it waiting for the retention to run out, with the CPU idle.
// One consultation carries a sensitive value (docs/verdicts.md "Sensitive fields"): the archive holds it only as
// ciphertext, the archived read reveals it while its subject's key lives and says `erased` after an erasure, and the
// record still verifies.
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import request from 'supertest';
import canonicalize from 'canonicalize';
import { createHash } from 'node:crypto';
import {
  indexKey,
  manifestKey,
  openArchiveStore,
  parseManifest,
  readSegmentLines,
  segmentKey,
  writeSegment,
  type ArchiveStore,
} from '@arbiter/archive';
import { buildEvidencePack, createRegistryClient, verifyConsultation, verifyEvidencePack, type ConsultationRecord } from '@arbiter/client';
import { eventually, startS3Server, type TestS3Server } from '@arbiter/testing';
import { cli } from './cli-harness';
import { ledgerAs, provisionTenant, SCOPE_SCHEMA, transfer, verdictAs, type SdkTenant } from './sdk-harness';
import { startStack, type Stack } from './stack';

jest.setTimeout(15 * 60_000);

const CHECKS = 4;
/** A card number no other test sends: it must be nowhere in the archive. */
const CARD = `4000${String(Date.now()).slice(-12)}`;
const SUBJECT = 'cust-lifecycle';

interface Run {
  name: string;
  stack: Stack;
  tenant: SdkTenant;
  archiveUrl: string;
  store: ArchiveStore;
  env: Record<string, string>;
  /** The records as the gateway answered them while they were in PostgreSQL. */
  records: ConsultationRecord[];
  /** The consultation that carried CARD under a sensitive path. */
  sensitiveId: string;
  /** Registry events written under the 2m retention of events. */
  events: string[];
  /** An allowed review that left a requires_prior mark (docs/verdicts.md "Budgets, rates and sequences"). */
  reviewId: string;
  since: string;
}

async function startRun(name: string, archiveUrl: string, extra: Record<string, string>): Promise<Run> {
  const env = {
    PARTITION_INTERVAL: '1m',
    RETENTION_MIN: '1m',
    MAINTENANCE_INTERVAL: '2s',
    ARCHIVE_URL: archiveUrl,
    ...extra,
  };
  const stack = await startStack({ verdict: true, ledger: true, worker: true, env });
  const tenant = await provisionTenant(stack, `lifecycle-${name}`);
  await request(stack.registry.url)
    .patch(`/api/v1/tenants/${tenant.id}`)
    .set('Authorization', `Bearer ${tenant.adminKey}`)
    .send({
      settings: {
        scope_schema: SCOPE_SCHEMA,
        retention: { consultations: '2m', events: '2m' },
        sensitive_fields: ['parameters.card', 'parameters.customer_id'],
        data_subject_field: 'parameters.customer_id',
      },
    })
    .expect(200);
  return {
    name,
    stack,
    tenant,
    archiveUrl,
    store: openArchiveStore({ ARCHIVE_URL: archiveUrl, ...extra })!,
    env,
    records: [],
    sensitiveId: '',
    events: [],
    reviewId: '',
    since: '',
  };
}

/** Checks until the gateway writes records under the tenant's 2m retention, then CHECKS more; answers their records. */
async function decide(run: Run): Promise<void> {
  const agent = verdictAs(run.stack, run.tenant.agentKey, run.tenant.id);
  const db = run.stack.db('verdict');
  run.since = new Date(Date.now() - 1000).toISOString();
  await eventually('records kept for 2m', async () => {
    const { consultation_id } = await agent.check(transfer(100));
    const { rows } = await db.query('SELECT keep_until - requested_at AS kept FROM consultations WHERE id = $1', [consultation_id]);
    return rows[0]?.kept?.minutes === 2 || undefined;
  });
  const ids: string[] = [];
  for (let i = 0; i < CHECKS; i++) ids.push((await agent.check(transfer(500 + i))).consultation_id);
  ids.push((await agent.check(transfer(50_000))).consultation_id); // approval_required: an explanation to read back
  const card = transfer(700);
  run.sensitiveId = (await agent.check({ ...card, parameters: { ...card.parameters, card: CARD, customer_id: SUBJECT } })).consultation_id;
  ids.push(run.sensitiveId);
  for (const id of ids) run.records.push(await agent.getConsultation(id));
  // A refund only after a review of the same order: the review's mark outlives its consultation's partition.
  const reg = createRegistryClient({ baseUrl: run.stack.registry.url, apiKey: run.tenant.adminKey });
  const sequence = await reg.createScope({ name: 'sequence' });
  await reg.createRule(sequence.id, {
    directive: 'A refund follows a review of the same order',
    severity: 'MANDATORY',
    applies_to: { actions: ['orders.refund'] },
    requires_prior: { action: 'orders.review', within: '24h', same: ['parameters.order'] },
  });
  await eventually('the sequence rule in the snapshot', async () => (await agent.check(refund('o-none'))).verdict === 'blocked');
  run.reviewId = (await agent.check({ ...refund('o-1'), action: 'orders.review' })).consultation_id;
  expect((await agent.check(refund('o-1'))).verdict).not.toBe('blocked');
  // A registry change after the retention of events was set: its event is kept for 2m too.
  await createRegistryClient({ baseUrl: run.stack.registry.url, apiKey: run.tenant.adminKey }).createScope({ name: 'archived' });
  const { rows } = await run.stack
    .db('registry')
    .query(`SELECT id FROM events WHERE tenant_id = $1 AND keep_until - created_at = interval '2 minutes'`, [run.tenant.id]);
  run.events = rows.map((r) => r.id);
  expect(run.events.length).toBeGreaterThan(0);
}

const refund = (order: string) => ({ action: 'orders.refund', resource: `order:${order}`, scope: { region: 'eu' }, parameters: { order } });

/**
 * Resolves once none of the run's records, and none of its registry events, is left in PostgreSQL. The registry
 * archives its events on its own maintenance runs, so the consultations leaving the verdict database says nothing of
 * them: waiting for the consultations alone let the events test run before the registry's partition left.
 */
function archived(run: Run): Promise<unknown> {
  const ids = [...run.records.map((r) => r.id), run.reviewId];
  const gone = async (service: 'verdict' | 'registry', table: string, rows: string[]) =>
    (await run.stack.db(service).query(`SELECT count(*)::int AS n FROM ${table} WHERE id = ANY($1)`, [rows])).rows[0].n === 0;
  return eventually(
    `${run.name}: ${ids.length} consultations and ${run.events.length} registry events gone from PostgreSQL`,
    async () => (await gone('verdict', 'consultations', ids)) && (await gone('registry', 'events', run.events)),
    { timeoutMs: 8 * 60_000, intervalMs: 1000 },
  );
}

describe('data lifecycle: consultations archived, still answered and verified', () => {
  let s3: TestS3Server;
  let dir: string;
  const runs: Run[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-lifecycle-'));
    s3 = await startS3Server();
    runs.push(
      ...(await Promise.all([
        startRun('directory', pathToFileURL(path.join(dir, 'archive')).href, {}),
        startRun('s3', `s3://${s3.bucket}/arbiter`, s3.env),
      ])),
    );
    await Promise.all(runs.map(decide));
    await Promise.all(runs.map(archived));
  });
  afterAll(async () => {
    await Promise.all(runs.map((r) => r.stack.stop()));
    await s3?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe.each(['directory', 's3'])('archive in %s', (name) => {
    const run = () => runs.find((r) => r.name === name)!;

    it('answers each consultation from the archive, unchanged, with archived: true beside it; the list no longer holds them', async () => {
      const { stack, tenant, records } = run();
      const agent = verdictAs(stack, tenant.agentKey, tenant.id);
      for (const before of records) {
        const after = await agent.getConsultation(before.id);
        expect(after).toEqual({ ...before, archived: true });
        // The stored text, member for member: what normative_hash was computed over.
        expect(JSON.stringify({ ...after, archived: undefined })).toBe(JSON.stringify(before));
        expect((await verifyConsultation(after, { jwks: (await agent.jwks(tenant.slug)).keySet })).valid).toBe(true);
      }
      const listed = await agent.listConsultations({ since: run().since, limit: 100 });
      expect(listed.items.map((r) => r.id)).not.toEqual(expect.arrayContaining([records[0].id]));
      const explanation = await agent.getConsultationExplanation(records.find((r) => r.verdict === 'approval_required')!.id);
      expect(explanation).toMatchObject({ archived: true, verdict: 'approval_required', explanation: expect.any(Object) });
    });

    it('keeps the evidence: the SDK builds and verifies a pack, and the CLI exports and verifies one', async () => {
      const { stack, tenant, records } = run();
      const agent = verdictAs(stack, tenant.agentKey, tenant.id);
      const id = records[0].id;
      expect(await agent.getConsultationEvidence(id)).toMatchObject({ consultation_id: id, archived: true });
      const pack = await buildEvidencePack(agent, id, { ledger: ledgerAs(stack, tenant.agentKey) });
      expect((await verifyEvidencePack(pack)).valid || (await verifyEvidencePack(pack)).status === 'unpinned').toBe(true);
      expect((await verifyEvidencePack(pack)).checks.filter((c) => c.status === 'fail')).toEqual([]);
      const env = { ARBITER_VERDICT_URL: stack.verdict.url, ARBITER_LEDGER_URL: stack.ledger.url, ARBITER_API_KEY: tenant.agentKey };
      const packFile = path.join(dir, `${name}-pack.json`);
      const exported = await cli(env)('evidence', 'export', id, '--out', packFile);
      expect(exported.code).toBe(0);
      const verified = await cli({}, { offline: true })('verify', 'evidence', packFile);
      expect(verified.stdout).toContain(`evidence pack of ${id}`);
      expect(verified.stdout).not.toContain('[FAIL]');
      expect([0, 3]).toContain(verified.code); // 3: valid, against the pack's own keys (no --trust)
    });

    it('wrote one segment per partition, its manifest beside it and sealed in arbiter.<tenant>.archives', async () => {
      const { stack, tenant, store, records } = run();
      const { rows } = await stack.db('verdict').query('SELECT * FROM archive_segments WHERE tenant_id = $1 ORDER BY "from"', [tenant.id]);
      expect(rows.reduce((n, r) => n + r.count, 0)).toBeGreaterThanOrEqual(records.length);
      const facts = [];
      for await (const page of ledgerAs(stack, tenant.agentKey).factPages(`arbiter.${tenant.id}.archives`)) facts.push(...page.facts);
      for (const r of rows) {
        const key = segmentKey({ tenant_id: tenant.id, kind: 'consultations', from: r.from, to: r.to });
        expect(r.url).toBe(store.urlOf(key));
        const manifest = parseManifest(JSON.parse((await store.get(manifestKey(key)))!.toString('utf8')));
        expect(manifest).toMatchObject({ count: r.count, sha256: r.sha256, first_id: r.first_id, last_id: r.last_id });
        expect(facts.find((f) => f.fact_id === r.fact_id)?.custom_payload).toEqual(manifest);
      }
    });

    it('archived the registry events of the tenant before their partition left: segment, sealed manifest, record', async () => {
      const { stack, tenant, store, events } = run();
      const { rows } = await stack
        .db('registry')
        .query(`SELECT * FROM archive_segments WHERE tenant_id = $1 AND kind = 'events'`, [tenant.id]);
      const lines: string[] = [];
      for (const r of rows) {
        const key = segmentKey({ tenant_id: tenant.id, kind: 'events', from: r.from, to: r.to });
        lines.push(
          ...gunzipSync((await store.get(key))!)
            .toString('utf8')
            .trimEnd()
            .split('\n'),
        );
      }
      const archivedIds = lines.map((l) => (JSON.parse(l) as { id: string; tenant_id: string }).id);
      expect(archivedIds).toEqual(expect.arrayContaining(events));
      expect(lines.every((l) => JSON.parse(l).tenant_id === tenant.id)).toBe(true);
      const facts = [];
      for await (const page of ledgerAs(stack, tenant.agentKey).factPages(`arbiter.${tenant.id}.archives`)) facts.push(...page.facts);
      expect(
        facts
          .filter((f) => (f.custom_payload as { kind: string }).kind === 'events')
          .map((f) => f.fact_id)
          .sort(),
      ).toEqual(rows.map((r) => r.fact_id).sort());
    });

    it('archives a sensitive value only as ciphertext; the archived read reveals it until the subject is erased', async () => {
      const { stack, tenant, store } = run();
      const { rows } = await stack
        .db('verdict')
        .query(`SELECT "from", "to" FROM archive_segments WHERE tenant_id = $1 AND kind = 'consultations'`, [tenant.id]);
      let lines = '';
      for (const r of rows) {
        const key = segmentKey({ tenant_id: tenant.id, kind: 'consultations', from: r.from, to: r.to });
        const bytes = (await store.get(key))!;
        expect(bytes.includes(CARD)).toBe(false);
        lines += gunzipSync(bytes).toString('utf8');
      }
      expect(lines).toContain(run().sensitiveId); // the search reaches the segment that holds the consultation
      expect(lines).not.toContain(CARD);
      const read = () =>
        request(stack.verdict.url).get(`/${tenant.id}/v1/consultations/${run().sensitiveId}`).set('X-API-Key', tenant.adminKey).expect(200);
      const before = (await read()).body;
      expect(before).toMatchObject({ archived: true, sensitive_values: { 'parameters.card': CARD } });
      expect(JSON.stringify(before.parameters)).not.toContain(CARD);
      await request(stack.verdict.url)
        .post(`/${tenant.id}/v1/erasures`)
        .set('X-API-Key', tenant.adminKey)
        .send({ subject: SUBJECT })
        .expect(201);
      const after = (await read()).body;
      expect(after).toMatchObject({ archived: true, sensitive_values: { 'parameters.card': 'erased' } });
      const agent = verdictAs(stack, tenant.agentKey, tenant.id);
      expect((await verifyConsultation(after, { jwks: (await agent.jwks(tenant.slug)).keySet })).valid).toBe(true);
    });

    it('opens and decides an approval for an archived approval_required consultation; its one-shot use allows the operation once', async () => {
      const { stack, tenant, records } = run();
      const agent = verdictAs(stack, tenant.agentKey, tenant.id);
      const held = records.find((r) => r.verdict === 'approval_required')!;
      expect(await agent.getConsultation(held.id)).toMatchObject({ archived: true });
      const approval = await agent.createApproval({ consultation_id: held.id });
      expect(approval).toMatchObject({ consultation_id: held.id, status: 'pending' });
      // Its caller still may not decide it: who asked is read from the archived record as from a stored one.
      await expect(agent.decideApproval(approval.id, { decision: 'approve' })).rejects.toMatchObject({ status: 403 });
      const cfo = verdictAs(stack, tenant.cfoKey, tenant.id);
      expect(await cfo.decideApproval(approval.id, { decision: 'approve' })).toMatchObject({ status: 'approved' });
      expect((await agent.check(transfer(50_000))).verdict).toBe('allowed');
      expect((await agent.check(transfer(50_000))).verdict).toBe('approval_required');
    });

    it("takes its caller's outcome for an archived consultation: the review's mark is withdrawn, and the refund it vouched for is blocked again", async () => {
      const agent = verdictAs(run().stack, run().tenant.agentKey, run().tenant.id);
      expect(await agent.getConsultation(run().reviewId)).toMatchObject({ archived: true, verdict: 'allowed' });
      expect((await agent.check(refund('o-1'))).verdict).not.toBe('blocked');
      expect(await agent.outcome(run().reviewId, { executed: false })).toMatchObject({ consultation_id: run().reviewId, executed: false });
      expect((await agent.check(refund('o-1'))).verdict).toBe('blocked');
      // Another caller's archived consultation is still none of its business.
      const other = verdictAs(run().stack, run().tenant.adminKey, run().tenant.id);
      await expect(other.outcome(run().records[0].id, { executed: false })).rejects.toMatchObject({
        status: 404,
        code: 'consultation_not_found',
      });
    });

    it('passes `arbiter archive verify` for the period', async () => {
      const { stack, tenant, archiveUrl, env, records } = run();
      const r = await cli({
        ...env,
        ARBITER_VERDICT_URL: stack.verdict.url,
        ARBITER_LEDGER_URL: stack.ledger.url,
        ARBITER_API_KEY: tenant.agentKey,
      })(
        'archive',
        'verify',
        '--tenant',
        tenant.id,
        '--since',
        run().since,
        '--until',
        new Date().toISOString(),
        '--archive',
        archiveUrl,
        '--json',
      );
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: expect.not.stringContaining('arbiter:') });
      const report = r.json<{ valid: boolean; in_segments: number; problems: unknown[] }>();
      expect(report.problems).toEqual([]);
      expect(report.in_segments).toBeGreaterThanOrEqual(records.length);
    });
  });

  it("refuses another tenant's archived consultation with 403 cross_tenant_forbidden, as before it was archived", async () => {
    const { stack, records } = runs[0];
    const other = await provisionTenant(stack, 'lifecycle-other');
    const res = await request(stack.verdict.url)
      .get(`/${other.id}/v1/consultations/${records[0].id}`)
      .set('X-API-Key', other.agentKey)
      .expect(403);
    expect(res.body.code).toBe('cross_tenant_forbidden');
    await request(stack.verdict.url)
      .get(`/${other.id}/v1/consultations/${records[0].id}/evidence`)
      .set('X-API-Key', other.agentKey)
      .expect(403);
  });

  it('refuses a partition name of no archived table on the internal API with 404 partition_not_found', async () => {
    const { stack } = runs[0];
    const res = await request(stack.verdict.url)
      .get('/internal/v1/maintenance/partitions/resolve_sessions_p20261127t1400/tenants')
      .set('X-Internal-Token', stack.env('verdict').INTERNAL_TOKEN)
      .expect(404);
    expect(res.body.code).toBe('partition_not_found');
    await request(stack.verdict.url)
      .get('/internal/v1/maintenance/partitions/consultations_p20261127t1400/tenants')
      .set('X-Internal-Token', 'not-the-token-of-this-stack')
      .expect(401);
  });

  it('answers 503 archive_unavailable when a segment cannot be read, and the verification names the altered segment', async () => {
    const run = runs.find((r) => r.name === 'directory')!;
    const { stack, tenant, records, archiveUrl, env } = run;
    const { rows } = await stack
      .db('verdict')
      .query('SELECT "from", "to" FROM archive_segments WHERE tenant_id = $1 AND first_id <= $2 AND last_id >= $2', [
        tenant.id,
        records[0].id,
      ]);
    const key = segmentKey({ tenant_id: tenant.id, kind: 'consultations', from: rows[0].from, to: rows[0].to });
    const file = path.join(dir, 'archive', ...key.split('/'));
    const bytes = await readFile(file);
    const index = await readFile(path.join(dir, 'archive', ...indexKey(key).split('/')));
    await unlink(path.join(dir, 'archive', ...indexKey(key).split('/')));
    const res = await request(stack.verdict.url)
      .get(`/${tenant.id}/v1/consultations/${records[0].id}`)
      .set('X-API-Key', tenant.agentKey)
      .expect(503);
    expect(res.body.code).toBe('archive_unavailable');
    // The index back, and one more gzip member appended: every read still works, the bytes are not the sealed ones.
    await writeFile(path.join(dir, 'archive', ...indexKey(key).split('/')), index);
    await run.store.put(
      key,
      Buffer.concat([bytes, gzipSync(`${JSON.stringify({ id: 'cns-ffffffffffffffffffffffff', tenant_id: tenant.id })}\n`)]),
    );
    const r = await cli({
      ...env,
      ARBITER_VERDICT_URL: stack.verdict.url,
      ARBITER_LEDGER_URL: stack.ledger.url,
      ARBITER_API_KEY: tenant.agentKey,
    })('archive', 'verify', '--tenant', tenant.id, '--since', run.since, '--until', new Date().toISOString(), '--archive', archiveUrl);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 1, stderr: expect.not.stringContaining('arbiter:') });
    expect(r.stdout).toContain(`[SEGMENT_ALTERED] ${key}: sha256`);
    expect(r.stdout).toContain(`[MISSING] ${records[0].id}: answered from the archive, but in no segment whose sealed manifest holds it`);
  });
  it('answers 503 archive_unavailable to a record forged in its segment with its hash recomputed, and to the rest of that segment', async () => {
    const run = runs.find((r) => r.name === 'directory')!;
    const { stack, tenant, records, store } = run;
    const target = records[1];
    const { rows } = await stack
      .db('verdict')
      .query('SELECT "from", "to" FROM archive_segments WHERE tenant_id = $1 AND first_id <= $2 AND last_id >= $2', [tenant.id, target.id]);
    const key = segmentKey({ tenant_id: tenant.id, kind: 'consultations', from: rows[0].from, to: rows[0].to });
    const bytes = (await store.get(key))!;
    const index = (await store.get(indexKey(key)))!;
    const lines: { id: string; line: string }[] = [];
    for await (const line of readSegmentLines(store, key)) {
      const row = JSON.parse(line);
      if (row.id === target.id) {
        // The forger flips the verdict, recomputes normative_hash (RFC 8785 by another implementation) and rewrites
        // the segment and its index; only the signature, which needs the tenant's key, stays as it was.
        const {
          normative_hash: _n,
          signed_verdict: _s,
          ...rest
        } = { ...row.record, verdict: target.verdict === 'allowed' ? 'blocked' : 'allowed' };
        const hash = `sha256:${createHash('sha256').update(canonicalize(rest)!).digest('hex')}`;
        lines.push({
          id: row.id,
          line: JSON.stringify({ ...row, record: { normative_hash: hash, signed_verdict: row.record.signed_verdict, ...rest } }),
        });
      } else lines.push({ id: row.id, line });
    }
    await writeSegment(store, key, lines);
    try {
      const res = await request(stack.verdict.url)
        .get(`/${tenant.id}/v1/consultations/${target.id}`)
        .set('X-API-Key', tenant.agentKey)
        .expect(503);
      expect(res.body.code).toBe('archive_unavailable');
      // The segment is no longer the one recorded (its index digest): the genuine records in it are not answered either;
      // those of other segments are.
      const sameSegment = records.find((r) => r.id !== target.id && lines.some((l) => l.id === r.id));
      if (sameSegment)
        await request(stack.verdict.url)
          .get(`/${tenant.id}/v1/consultations/${sameSegment.id}`)
          .set('X-API-Key', tenant.agentKey)
          .expect(503);
      const elsewhere = records.find((r) => !lines.some((l) => l.id === r.id));
      if (elsewhere)
        await request(stack.verdict.url)
          .get(`/${tenant.id}/v1/consultations/${elsewhere.id}`)
          .set('X-API-Key', tenant.agentKey)
          .expect(200);
    } finally {
      await store.put(key, bytes);
      await store.put(indexKey(key), index);
    }
    await request(stack.verdict.url).get(`/${tenant.id}/v1/consultations/${target.id}`).set('X-API-Key', tenant.agentKey).expect(200);
  });

  it('answers 503 archive_unavailable to a line whose unsigned members were changed (explanation basis, sealed values), index rewritten or not', async () => {
    const run = runs.find((r) => r.name === 'directory')!;
    const { stack, tenant, records, store } = run;
    const target = records[2];
    const { rows } = await stack
      .db('verdict')
      .query('SELECT "from", "to", index_sha256 FROM archive_segments WHERE tenant_id = $1 AND first_id <= $2 AND last_id >= $2', [
        tenant.id,
        target.id,
      ]);
    // What was recorded of the segment is the digest of its index as stored (checked here by node:crypto itself).
    const key = segmentKey({ tenant_id: tenant.id, kind: 'consultations', from: rows[0].from, to: rows[0].to });
    const bytes = (await store.get(key))!;
    const index = (await store.get(indexKey(key)))!;
    expect(rows[0].index_sha256).toBe(`sha256:${createHash('sha256').update(index).digest('hex')}`);
    const read = () => request(stack.verdict.url).get(`/${tenant.id}/v1/consultations/${target.id}`).set('X-API-Key', tenant.agentKey);
    expect((await read().expect(200)).body.consultation_id ?? target.id).toBe(target.id);
    // The record and its signature stay as they are; only what lies beside them in the line changes.
    const lines: { id: string; line: string }[] = [];
    for await (const line of readSegmentLines(store, key)) {
      const row = JSON.parse(line);
      lines.push({
        id: row.id,
        line:
          row.id === target.id ? JSON.stringify({ ...row, explanation_basis: { forged: true }, sealed_values: { forged: true } }) : line,
      });
    }
    await writeSegment(store, key, lines);
    try {
      expect((await read().expect(503)).body.code).toBe('archive_unavailable');
      // The old index put back beside the new bytes: the member read is not the one the index records.
      await store.put(indexKey(key), index);
      expect((await read().expect(503)).body.code).toBe('archive_unavailable');
    } finally {
      await store.put(key, bytes);
      await store.put(indexKey(key), index);
    }
    await read().expect(200);
  });

  it("reads the caller's own segments first: another tenant's unreadable segment neither fails the caller's read nor the 403", async () => {
    const { stack, tenant, records } = runs.find((r) => r.name === 'directory')!;
    const db = stack.db('verdict');
    // A tenant whose segment holds every id and is gone from the archive, newer than any other (read first before).
    await db.query(
      `INSERT INTO archive_segments (tenant_id, kind, partition, url, "from", "to", count, sha256, first_id, last_id, fact_id)
       VALUES ('tnt-lifecycle-broken', 'consultations', 'consultations_p20991231t0000', 'file:///gone', '2099-12-31T00:00:00Z',
               '2099-12-31T00:01:00Z', 1, $1, 'cns-', 'cns-~', 'fct-gone')`,
      [`sha256:${'0'.repeat(64)}`],
    );
    try {
      const read = await request(stack.verdict.url)
        .get(`/${tenant.id}/v1/consultations/${records[2].id}`)
        .set('X-API-Key', tenant.agentKey)
        .expect(200);
      expect(read.body).toMatchObject({ id: records[2].id, archived: true });
      const other = await provisionTenant(stack, 'lifecycle-third');
      const res = await request(stack.verdict.url)
        .get(`/${other.id}/v1/consultations/${records[2].id}`)
        .set('X-API-Key', other.agentKey)
        .expect(403);
      expect(res.body.code).toBe('cross_tenant_forbidden');
      const nowhere = await request(stack.verdict.url)
        .get(`/${tenant.id}/v1/consultations/${records[2].id.slice(0, -1)}${records[2].id.endsWith('0') ? '1' : '0'}`)
        .set('X-API-Key', tenant.agentKey)
        .expect(404);
      expect(nowhere.body.code).toBe('consultation_not_found');
    } finally {
      await db.query(`DELETE FROM archive_segments WHERE tenant_id = 'tnt-lifecycle-broken'`);
    }
  });
});
