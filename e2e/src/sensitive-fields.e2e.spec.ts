import { randomInt, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import request from 'supertest';
import { buildEvidencePack, createRegistryClient, parseTrustFile, verifyEvidencePack, type TrustFile } from '@arbiter/client';
import { eventually, installTestTracing, type TestTracing } from '@arbiter/testing';
import { startReceiver, type Receiver } from '../../apps/registry/test/receiver';
import { parseTrustFile as parseConsoleTrust, verifyConsultationEvidence } from '../../apps/console/src/evidence';
import { cli } from './cli-harness';
import { canonicalHash, checkpointSignatureHolds, inclusionHolds, type PublishedLedgerKey } from './evidence-harness';
import { ledgerAs, verdictAs } from './sdk-harness';
import { startStack, type Stack } from './stack';
import { expectConforms } from './verdict-harness';
import { FAST_WEBHOOKS } from './webhooks-harness';

/** Every regular file under `dir`, recursively (a file that vanishes meanwhile is skipped). */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(file)));
    else if (entry.isFile()) out.push(file);
  }
  return out;
}

/** The files under `dir` whose bytes hold any of `needles` (as UTF-8). */
async function filesHolding(dir: string, needles: string[]): Promise<string[]> {
  const hits: string[] = [];
  const bytes = needles.map((n) => Buffer.from(n, 'utf8'));
  for (const file of await filesUnder(dir)) {
    const content = await readFile(file).catch(() => null);
    if (content && bytes.some((b) => content.includes(b))) hits.push(file);
  }
  return hits;
}

/** Every value under the keys of `prefix` in Redis (the stack's BullMQ queues: job payloads, events, results), as text. */
async function redisValues(url: string, prefix: string): Promise<string[]> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const out: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        if (type === 'string') out.push((await redis.get(key)) ?? '');
        else if (type === 'hash') out.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === 'list') out.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        else if (type === 'set') out.push(JSON.stringify(await redis.smembers(key)));
        else if (type === 'zset') out.push(JSON.stringify(await redis.zrange(key, 0, -1)));
        else if (type === 'stream') out.push(JSON.stringify(await redis.xrange(key, '-', '+')));
      }
    } while (cursor !== '0');
    return out;
  } finally {
    redis.disconnect();
  }
}

/**
 * Sensitive fields and erasure (docs/verdicts.md "Sensitive fields", docs/operations.md "Erasure") on the real stack: a
 * check with a card number and an email under sensitive paths is decided on the plain values, and the plain values
 * are then nowhere (the PostgreSQL data directory and write-ahead log, every table of every service, the queues in Redis, the services'
 * logs, the traces, the webhook bodies). After an erasure the values read back `erased`, while the record's hashes,
 * its signed verdict (verified with jose), its seal, its inclusion proof and an evidence pack all still verify.
 */
describe('sensitive fields and erasure', () => {
  // Random per run, so that nothing else on this PostgreSQL server can hold them.
  const CARD = `4${String(randomInt(10 ** 7, 10 ** 8))}${String(randomInt(10 ** 6, 10 ** 7))}`;
  const EMAIL = `person-${randomUUID()}@example.test`;
  const COUNTRY_NOTE = `note-${randomUUID()}`;
  const SUBJECT = `cust-${randomUUID()}`;
  const CVV = `cvv-${randomUUID()}`;
  const OTHER_SUBJECT = `cust-${randomUUID()}`;
  // Not sensitive: the control that a search for values reaches the rows.
  const ORDER_REF = `order-${randomUUID()}`;
  const PLAIN = [CARD, EMAIL, COUNTRY_NOTE, SUBJECT, CVV];
  const COMMIT = /^hmac-sha256:[0-9a-f]{64}$/;

  let tracing: TestTracing;
  let stack: Stack;
  let receiver: Receiver;
  let dir: string;
  let tenantId: string;
  let adminKey: string;
  let agentKey: string;
  let checkOnlyKey: string;
  let rulesOnlyKey: string;
  let cfoKey: string;
  let consultationId: string;
  let resolvedId: string;
  let before: Record<string, unknown>;
  let approvalRuleId: string;
  let scopeId: string;

  const verdict = (key: string) => ({
    get: (p: string) => request(stack.verdict.url).get(`/${tenantId}/v1${p}`).set('X-API-Key', key),
    post: (p: string, body: object) => request(stack.verdict.url).post(`/${tenantId}/v1${p}`).set('X-API-Key', key).send(body),
  });
  /** A simulation archiving the approval rule: how the tenant's consultations would change, by id. */
  const simulateArchive = async (key = adminKey) => {
    const res = await verdict(key)
      .post('/simulations', { changes: [{ op: 'archive', rule_id: approvalRuleId }], window: { last: 1000 }, sample_limit: 100 })
      .expect(200);
    expect(JSON.stringify(res.body)).not.toContain(CARD);
    return new Map(
      (res.body.samples as Array<{ consultation_id: string; before: string; after: string }>).map((x) => [x.consultation_id, x]),
    );
  };
  const charge = (subject: string | number | null) => ({
    action: 'payments.charge',
    resource: 'card-vault',
    scope: { region: 'eu' },
    parameters: {
      ...(subject !== null ? { customer_id: subject } : {}),
      card: { number: CARD, brand: 'visa' },
      amount: 12,
      order_ref: ORDER_REF,
    },
    context: { email: { value: EMAIL, source: 'crm' } },
  });

  beforeAll(async () => {
    tracing = installTestTracing();
    stack = await startStack({ verdict: true, ledger: true, worker: true, logs: true, registry: { env: FAST_WEBHOOKS } });
    receiver = await startReceiver();
    stack.onStop(() => receiver.close());
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-sensitive-'));

    const platform = createRegistryClient({ baseUrl: stack.registry.url, apiKey: stack.registry.adminKey });
    const slug = `sens-${randomUUID().slice(0, 8)}`;
    const tenant = await platform.createTenant({
      name: slug,
      slug,
      settings: {
        scope_schema: { fields: { region: { allowed_values: ['eu', 'us'] } } },
        sensitive_fields: ['parameters.card.number', 'parameters.card.cvv', 'context.email', 'context.note', 'parameters.customer_id'],
        data_subject_field: 'parameters.customer_id',
      },
    });
    tenantId = tenant.id;
    const admin = await platform.createPrincipal({ kind: 'human', name: 'admin', tenant_id: tenantId });
    adminKey = (await platform.createApiKey({ principal_id: admin.id, permissions: ['admin'], tenant_id: tenantId })).key;
    const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: adminKey });
    const scope = await reg.createScope({ name: 'eu', selector: { region: 'eu' } });
    scopeId = scope.id;
    // Fires only on the plain value: a commitment never starts with the card's prefix.
    approvalRuleId = (
      await reg.createRule(scope.id, {
        directive: 'Charges to this card range need a human',
        severity: 'REQUIRES_APPROVAL',
        applies_to: { actions: ['payments.charge'] },
        conditions: [{ field: 'card.number', op: 'starts_with', value: CARD.slice(0, 6) }],
        deciders: ['role-cfo'],
      })
    ).id;
    // A window keyed by the card: its key must hold a digest, never the number.
    await reg.createRule(scope.id, {
      directive: 'At most 100 charges per card an hour',
      severity: 'MANDATORY',
      applies_to: { actions: ['payments.charge'] },
      limit: { count: true, max: 100, window: '1h', by: ['parameters.card.number'] },
    });
    // Resolve asks for the country once it has the note (a sensitive Fact kept across rounds).
    await reg.createRule(scope.id, {
      directive: 'Reviews of noted customers abroad are blocked',
      severity: 'MANDATORY',
      applies_to: { actions: ['customers.review'] },
      conditions: [
        { field: 'note', op: 'exists', value: true },
        { field: 'country', op: 'eq', value: 'FR' },
      ],
    });
    const agent = await reg.createPrincipal({ kind: 'agent', name: 'billing-bot' });
    const cfo = await reg.createPrincipal({ kind: 'human', name: 'cfo', roles: ['role-cfo'] });
    agentKey = (await reg.createApiKey({ principal_id: agent.id, permissions: ['check', 'read'] })).key;
    checkOnlyKey = (await reg.createApiKey({ principal_id: agent.id, permissions: ['check'] })).key;
    rulesOnlyKey = (await reg.createApiKey({ principal_id: admin.id, permissions: ['manage_rules'] })).key;
    cfoKey = (await reg.createApiKey({ principal_id: cfo.id, permissions: ['approve', 'read'] })).key;
    await request(stack.registry.url)
      .post('/api/v1/webhooks')
      .set('Authorization', `Bearer ${adminKey}`)
      .send({ url: receiver.url, events: ['approval.requested'] })
      .expect(201);
  });
  afterAll(async () => {
    await stack?.stop();
    await tracing?.shutdown();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('decides on the plain values, records their commitments, and answers the values beside the record to read callers only', async () => {
    const checked = await verdict(agentKey).post('/check', charge(SUBJECT)).expect(200);
    expect(checked.body.verdict).toBe('approval_required');
    expect(JSON.stringify(checked.body)).not.toContain(CARD);
    consultationId = checked.body.consultation_id;

    const readRes = await verdict(agentKey).get(`/consultations/${consultationId}`).expect(200);
    expectConforms(readRes, 'get', '/{tenant_id}/v1/consultations/{consultation_id}');
    const read = readRes.body;
    // The subject too: it names a person, so it is one of the sensitive fields (the registry requires it).
    expect(read.parameters).toEqual({
      customer_id: { $commit: expect.stringMatching(COMMIT) },
      card: { number: { $commit: expect.stringMatching(COMMIT) }, brand: 'visa' },
      amount: 12,
      order_ref: ORDER_REF,
    });
    expect(read.context_snapshot.email).toEqual({ value: { $commit: expect.stringMatching(COMMIT) }, source: 'crm' });
    expect(read.sensitive_values).toEqual({ 'parameters.card.number': CARD, 'parameters.customer_id': SUBJECT, 'context.email': EMAIL });
    expect(read.limits).toHaveLength(1);
    expect(read.limits[0].key).not.toContain(CARD);
    expect(JSON.parse(read.limits[0].key)['parameters.card.number']).toEqual({ $digest: expect.stringMatching(COMMIT) });
    const { sensitive_values: _values, ...record } = read;
    before = record;

    const checkOnly = (await verdict(checkOnlyKey).get(`/consultations/${consultationId}`).expect(200)).body;
    expect(checkOnly).toEqual(record);

    // The same subject and values commit alike: the commitments are keyed by the subject, not random per check.
    const again = (await verdict(agentKey).post('/check', charge(SUBJECT)).expect(200)).body;
    const second = (await verdict(agentKey).get(`/consultations/${again.consultation_id}`).expect(200)).body;
    expect(second.parameters).toEqual(read.parameters);
    expect(second.limits[0].key).toBe(read.limits[0].key);

    // The approval (and the registry's approval.requested event and webhook) copies the record's parameters.
    const approval = (await verdict(agentKey).post('/approvals', { consultation_id: consultationId, requester_notes: 'n' }).expect(201))
      .body;
    expect(approval.intended_parameters).toEqual(read.parameters);
    await verdict(cfoKey).post(`/approvals/${approval.id}/decision`, { decision: 'approve', decider_notes: 'ok' }).expect(200);

    // The one-shot approval binds the context hash, which covers the commitments: the same operation again is allowed once.
    const approved = (await verdict(agentKey).post('/check', charge(SUBJECT)).expect(200)).body;
    expect(approved.verdict).toBe('allowed');
    expect((await verdict(agentKey).get(`/consultations/${approved.consultation_id}`).expect(200)).body.approval_id).toBe(approval.id);
    expect((await verdict(agentKey).post('/check', charge(SUBJECT)).expect(200)).body.verdict).toBe('approval_required');

    // A simulation and an explanation read the plain values while the key lives (never answering them).
    expect((await simulateArchive()).get(consultationId)).toMatchObject({ before: 'approval_required', after: 'allowed' });
    const explained = (await verdict(agentKey).get(`/consultations/${consultationId}/explanation`).expect(200)).body;
    expect(explained.explanation.deciders).toEqual(['role-cfo']);
    expect(JSON.stringify(explained)).not.toContain(CARD);
  });

  it('keeps a sensitive Fact of a resolve session encrypted between rounds', async () => {
    const first = await verdict(agentKey)
      .post('/resolve', {
        action: 'customers.review',
        resource: 'customer',
        scope: { region: 'eu' },
        context: { note: { value: COUNTRY_NOTE, source: 'crm' }, customer_id: { value: SUBJECT, source: 'crm' } },
      })
      .expect(200);
    expect(first.body.operation_status).toBe('incomplete');
    // The incomplete round answers the Facts known so far with the sensitive ones committed, never in the clear.
    expect(first.body.provisional_context).toEqual({
      note: { $commit: expect.stringMatching(COMMIT) },
      customer_id: { $commit: expect.stringMatching(COMMIT) },
    });
    const session = await stack
      .db('verdict')
      .query('SELECT context::text AS context, sealed_values FROM resolve_sessions WHERE id = $1', [first.body.resolve_session_id]);
    expect(session.rows[0].context).not.toContain(COUNTRY_NOTE);
    expect(session.rows[0].sealed_values).toMatchObject({ subject: expect.stringMatching(COMMIT) });
    const done = await verdict(agentKey)
      .post('/resolve', {
        action: 'customers.review',
        resource: 'customer',
        scope: { region: 'eu' },
        resolve_session_id: first.body.resolve_session_id,
        context: { country: { value: 'FR', source: 'crm' } },
      })
      .expect(200);
    // The rule saw the note from the first round, in the clear, in memory.
    expect(done.body.verdict).toBe('blocked');
    resolvedId = done.body.consultation_id;
    const read = (await verdict(agentKey).get(`/consultations/${resolvedId}`).expect(200)).body;
    expect(read.context_snapshot.note.value).toEqual({ $commit: expect.stringMatching(COMMIT) });
    expect(read.sensitive_values).toEqual({ 'context.note': COUNTRY_NOTE, 'context.customer_id': SUBJECT });
  });

  it('commits every sensitive field inside a Fact keyed by their common prefix, not only the first (a card Fact: its number and its cvv)', async () => {
    // No rule reads this action: only the request's values matter here. A subject of its own, so no other test's counts change.
    const subject = `cust-${randomUUID()}`;
    const looked = await verdict(agentKey)
      .post('/check', {
        action: 'payments.lookup',
        resource: 'card-vault',
        scope: { region: 'eu' },
        parameters: { customer_id: subject, order_ref: ORDER_REF },
        context: { card: { value: { number: CARD, cvv: CVV, brand: 'visa' }, source: 'vault' } },
      })
      .expect(200);
    expect(JSON.stringify(looked.body)).not.toContain(CVV);
    const read = (await verdict(agentKey).get(`/consultations/${looked.body.consultation_id}`).expect(200)).body;
    expect(read.context_snapshot.card).toEqual({
      value: { number: { $commit: expect.stringMatching(COMMIT) }, cvv: { $commit: expect.stringMatching(COMMIT) }, brand: 'visa' },
      source: 'vault',
    });
    expect(read.sensitive_values).toEqual({
      'parameters.customer_id': subject,
      'context.card.value.number': CARD,
      'context.card.value.cvv': CVV,
    });
    const { sensitive_values: _values, ...record } = read;
    expect(JSON.stringify(record)).not.toContain(CVV);
  });

  it('stores the plain values nowhere: not the database files nor its write-ahead log, no table, queue, log, trace or webhook body', async () => {
    const agent = verdictAs(stack, agentKey, tenantId);
    await eventually(
      'the consultations sealed',
      async () =>
        (await agent
          .getConsultationEvidence(consultationId)
          .then(() => agent.getConsultationEvidence(resolvedId))
          .catch(() => null)) ?? undefined,
    );
    await eventually('the approval.requested webhook received', () => receiver.received.find((r) => r.body.type === 'approval.requested'));

    const services = ['registry', 'verdict', 'ledger'] as const;
    for (const service of services) await stack.db(service).query('CHECKPOINT');
    const dataDir = (await stack.db('verdict').query<{ data_directory: string }>('SHOW data_directory')).rows[0].data_directory;
    expect((await stat(path.join(dataDir, 'pg_wal'))).isDirectory()).toBe(true);
    // Heap, indexes, TOAST and the WAL alike (and the server's own log, if it keeps one there). The control: the
    // order reference, which is not a sensitive field, is found there in the clear, so the search reaches the rows.
    expect(await filesHolding(dataDir, PLAIN)).toEqual([]);
    expect((await filesHolding(dataDir, [ORDER_REF])).some((f) => f.includes(`${path.sep}pg_wal${path.sep}`))).toBe(true);

    // Every table of every service, compared in SQL with the values sent as base64 (never as a statement's text).
    const needles = PLAIN.map((p) => Buffer.from(p).toString('base64'));
    const holding = (db: ReturnType<Stack['db']>, table: string, values: string[]) =>
      db
        .query<{ n: string }>(
          `SELECT count(*) AS n FROM ${table} x WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) AS v(b) WHERE strpos(x::text, convert_from(decode(v.b, 'base64'), 'UTF8')) > 0)`,
          [values],
        )
        .then((r) => Number(r.rows[0].n));
    expect(await holding(stack.db('verdict'), 'consultations', [Buffer.from(ORDER_REF).toString('base64')])).toBeGreaterThan(0);
    for (const service of services) {
      const db = stack.db(service);
      const tables = (await db.query<{ t: string }>("SELECT quote_ident(tablename) AS t FROM pg_tables WHERE schemaname = 'public'")).rows;
      expect(tables.length).toBeGreaterThan(3);
      for (const { t } of tables)
        expect({ service, table: t, rows: await holding(db, t, needles) }).toEqual({ service, table: t, rows: 0 });
    }

    expect(stack.logs.some((line) => line.includes(consultationId))).toBe(true);
    expect(stack.logs.filter((line) => PLAIN.some((p) => line.includes(p)))).toEqual([]);
    const spans = tracing.exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(0);
    expect(JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events })))).not.toMatch(
      new RegExp(PLAIN.join('|')),
    );
    // What the queues keep in Redis (jobs leave once done; their keys, events and counters stay).
    const queued = await redisValues(stack.redisUrl, stack.env('worker').QUEUE_PREFIX);
    expect(queued.length).toBeGreaterThan(0);
    expect(queued.filter((v) => PLAIN.some((p) => v.includes(p)))).toEqual([]);
    expect(receiver.received.length).toBeGreaterThan(0);
    for (const r of receiver.received) for (const p of PLAIN) expect(r.raw).not.toContain(p);
  });

  it('refuses an erasure without admin (403), by an admin key restricted to some scopes (403), and a malformed subject (400)', async () => {
    const refused = await verdict(agentKey).post('/erasures', { subject: SUBJECT });
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient_permission']);
    // An erasure reaches every scope of the tenant, and the list names every subject erased: a scope-restricted
    // admin can do neither (the tenant-wide admin's side is the next test).
    const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: adminKey });
    const admin = await reg.createPrincipal({ kind: 'human', name: 'eu-admin' });
    const scopedAdminKey = (await reg.createApiKey({ principal_id: admin.id, permissions: ['admin', 'read'], scope_ids: [scopeId] })).key;
    for (const [label, res] of [
      ['erase', await verdict(scopedAdminKey).post('/erasures', { subject: SUBJECT })],
      ['replay', await verdict(scopedAdminKey).post('/erasures', { subject_commitment: `hmac-sha256:${'0'.repeat(64)}` })],
      ['list', await verdict(scopedAdminKey).get('/erasures')],
    ] as const) {
      expect([label, res.status, res.body.code, res.body.details?.reason]).toEqual([
        label,
        403,
        'insufficient_permission',
        'scope_restricted',
      ]);
    }
    for (const body of [
      {},
      { subject: '' },
      { subject: { id: 1 } },
      { subject: 'x'.repeat(1025) },
      { subject_commitment: 'sha256:00' },
      { subject: SUBJECT, subject_commitment: `hmac-sha256:${'0'.repeat(64)}` },
    ]) {
      const bad = await verdict(adminKey).post('/erasures', body);
      expect([bad.status, bad.body.code]).toEqual([400, 'validation_failed']);
    }
    // Nothing was erased: the values still read back.
    expect(
      (await verdict(agentKey).get(`/consultations/${consultationId}`).expect(200)).body.sensitive_values['parameters.card.number'],
    ).toBe(CARD);
  });

  it('erases a subject: the values read back erased, every proof still verifies, and the erasure is sealed once', async () => {
    // A resolve session of the subject, open while it is erased.
    const review = (context: object, resolve_session_id?: string) =>
      verdict(agentKey).post('/resolve', {
        action: 'customers.review',
        resource: 'customer',
        scope: { region: 'eu' },
        context,
        ...(resolve_session_id ? { resolve_session_id } : {}),
      });
    const opened = (
      await review({ note: { value: COUNTRY_NOTE, source: 'crm' }, customer_id: { value: SUBJECT, source: 'crm' } }).expect(200)
    ).body;
    expect(opened.operation_status).toBe('incomplete');
    // What a backup taken now holds of the subject: its key row.
    const backup = (await stack.db('verdict').query('SELECT tenant_id, subject_digest, wrapped_keys FROM subject_keys')).rows;
    const first = await verdict(adminKey).post('/erasures', { subject: SUBJECT }).expect(201);
    expect(first.body).toEqual({
      subject_commitment: expect.stringMatching(COMMIT),
      erased_at: expect.any(String),
      erased_by: expect.stringMatching(/^hum-/),
      stream_id: `arbiter.${tenantId}.erasures`,
      keys_deleted: 1,
    });
    const { keys_deleted: _deleted, ...erasure } = first.body;
    const second = await verdict(adminKey).post('/erasures', { subject: SUBJECT }).expect(200);
    expect(second.body).toEqual({ ...erasure, keys_deleted: 0 });
    // The SDK: the same erasure again, the list, and the record read with its values erased.
    const sdkAdmin = verdictAs(stack, adminKey, tenantId);
    expect(await sdkAdmin.createErasure(SUBJECT)).toEqual({ ...erasure, keys_deleted: 0 });
    expect((await sdkAdmin.listErasures()).items).toEqual([erasure]);
    expect((await verdictAs(stack, agentKey, tenantId).getConsultation(consultationId)).sensitive_values).toEqual({
      'parameters.card.number': 'erased',
      'parameters.customer_id': 'erased',
      'context.email': 'erased',
    });
    const listed = await verdict(adminKey).get('/erasures?limit=1').expect(200);
    expect(listed.body).toEqual({ items: [erasure], next_cursor: null });
    expectConforms(listed, 'get', '/{tenant_id}/v1/erasures');
    expectConforms(first, 'post', '/{tenant_id}/v1/erasures');
    expectConforms(second, 'post', '/{tenant_id}/v1/erasures');
    expect([(await verdict(agentKey).get('/erasures')).status, (await verdict(adminKey).get('/erasures?limit=0')).body.code]).toEqual([
      403,
      'invalid_query',
    ]);

    // A restored backup brings the key back (docs/operations.md "Erasure"): erasing again by the listed commitment
    // removes it, with no need of the subject's value.
    for (const row of backup)
      await stack
        .db('verdict')
        .query('INSERT INTO subject_keys (tenant_id, subject_digest, wrapped_keys) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
          row.tenant_id,
          row.subject_digest,
          row.wrapped_keys,
        ]);
    expect(
      (await verdict(agentKey).get(`/consultations/${consultationId}`).expect(200)).body.sensitive_values['parameters.card.number'],
    ).toBe(CARD);
    const replayed = await verdict(adminKey).post('/erasures', { subject_commitment: first.body.subject_commitment }).expect(200);
    expect(replayed.body).toEqual({ ...erasure, keys_deleted: 1 });

    const read = (await verdict(agentKey).get(`/consultations/${consultationId}`).expect(200)).body;
    expect(read.sensitive_values).toEqual({
      'parameters.card.number': 'erased',
      'parameters.customer_id': 'erased',
      'context.email': 'erased',
    });
    const { sensitive_values: _values, ...record } = read;
    expect(record).toEqual(before);
    // The open session lost the erased Fact: its next round asks for it again.
    const continued = (await review({ country: { value: 'FR', source: 'crm' } }, opened.resolve_session_id).expect(200)).body;
    expect(continued.operation_status).toBe('incomplete');
    expect(continued.required_context.map((f: { field: string }) => f.field)).toContain('note');
    // The resolve session's subject came as a Fact: its values are erased too.
    expect((await verdict(agentKey).get(`/consultations/${resolvedId}`).expect(200)).body.sensitive_values).toEqual({
      'context.note': 'erased',
      'context.customer_id': 'erased',
    });

    // Once erased, a replay cannot evaluate the rules that read the card: it counts as insufficient_context, before and
    // after alike (so not as a change), and the explanation is computed as if the field were absent.
    expect((await simulateArchive()).get(consultationId)).toBeUndefined();
    await verdict(agentKey).get(`/consultations/${consultationId}/explanation`).expect(200);

    // The hashes, recomputed here with the canonicalize package.
    const { normative_hash, signed_verdict, ...hashed } = record;
    expect(canonicalHash(hashed)).toBe(normative_hash);
    expect(
      canonicalHash({
        action: record.action,
        resource: record.resource,
        scope: record.scope_used,
        parameters: record.parameters,
        context: record.context_snapshot,
      }),
    ).toBe(record.context_hash);

    // The signed verdict, verified with jose against the tenant's published keys.
    const jwks = (await request(stack.verdict.url).get(`/v1/tenants/${tenantId}/jwks`).expect(200)).body as JSONWebKeySet;
    const { payload } = await jwtVerify(signed_verdict, createLocalJWKSet(jwks), { currentDate: new Date(record.requested_at) });
    expect(payload).toMatchObject({
      jti: consultationId,
      parameters: record.parameters,
      context_hash: record.context_hash,
      normative_hash,
    });

    // The seal and its inclusion proof, checked with node:crypto only.
    const evidence = (await verdict(agentKey).get(`/consultations/${consultationId}/evidence`).expect(200)).body;
    const { ledger } = evidence;
    const fact = await ledgerAs(stack, agentKey).getFact(ledger.fact_id);
    expect(fact.custom_payload).toMatchObject({ consultation_id: consultationId, normative_hash, context_hash: record.context_hash });
    expect(inclusionHolds(ledger.fact_hash, ledger.leaf_index, ledger.tree_size, ledger.inclusion_path, ledger.checkpoint.root_hash)).toBe(
      true,
    );
    const keys = (await ledgerAs(stack).keys()).keys as PublishedLedgerKey[];
    expect(checkpointSignatureHolds(ledger.checkpoint, keys)).toBe(true);

    // What the auditor holds: the tenant's and the ledger's keys, exported out of band (docs/evidence.md "Trusted keys").
    const arbiter = cli({ ARBITER_VERDICT_URL: stack.verdict.url, ARBITER_LEDGER_URL: stack.ledger.url, ARBITER_API_KEY: agentKey });
    const exported = await arbiter('trust', 'export', '--out', path.join(dir, 'trust.json'));
    expect(exported.code).toBe(0);
    const trust: TrustFile = parseTrustFile(JSON.parse(await readFile(path.join(dir, 'trust.json'), 'utf8')));
    // An evidence pack holds the record as hashed (never the values) and verifies against the keys the auditor holds.
    const pack = await buildEvidencePack(verdictAs(stack, agentKey, tenantId), consultationId, { ledger: ledgerAs(stack, agentKey) });
    expect(JSON.stringify(pack)).not.toContain('sensitive_values');
    const report = await verifyEvidencePack(pack, { trust });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.valid).toBe(true);

    // The console's verifier (WebCrypto, run here in Node) on the record as the console reads it, values beside it.
    const inConsole = await verifyConsultationEvidence({
      record: read,
      evidence,
      keys: { source: 'trust', trust: parseConsoleTrust(JSON.parse(await readFile(path.join(dir, 'trust.json'), 'utf8'))) },
    });
    expect(inConsole).toMatchObject({ status: 'valid', valid: true, first_failure: null });
    expect(inConsole.checks.find((c) => c.check.endsWith('sensitive_fields'))?.message).toContain('parameters.card.number erased');

    // The CLI: the record verifies and names what is erased; the exported pack verifies offline.
    const verified = await arbiter('verify', 'consultation', consultationId, '--tenant', tenantId, '--trust', path.join(dir, 'trust.json'));
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('parameters.card.number erased, parameters.customer_id erased, context.email erased');
    const packFile = path.join(dir, 'pack.json');
    expect((await arbiter('evidence', 'export', consultationId, '--tenant', tenantId, '--out', packFile)).code).toBe(0);
    const offline = await cli({}, { offline: true })('verify', 'evidence', packFile, '--trust', path.join(dir, 'trust.json'));
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain('parameters.card.number committed');
    expect(await readFile(packFile, 'utf8')).not.toContain(CARD);

    // The erasure is sealed in the tenant's erasures stream, once, under the subject's commitment.
    const sealed = await eventually('the erasure sealed', async () => {
      const facts = await ledgerAs(stack, agentKey)
        .listAllFacts(`arbiter.${tenantId}.erasures`)
        .catch(() => []);
      return facts.length > 0 ? facts : undefined;
    });
    expect(sealed).toHaveLength(1);
    expect(sealed[0].custom_payload).toEqual({ subject_commitment: first.body.subject_commitment, erased_at: first.body.erased_at });
  });

  it('reads back erased at once the values of a check that named no subject, and leaves other subjects readable', async () => {
    const anonymous = (await verdict(agentKey).post('/check', charge(null)).expect(200)).body;
    const read = (await verdict(agentKey).get(`/consultations/${anonymous.consultation_id}`).expect(200)).body;
    expect(read.sensitive_values).toEqual({ 'parameters.card.number': 'erased', 'context.email': 'erased' });

    const other = (await verdict(agentKey).post('/check', charge(OTHER_SUBJECT)).expect(200)).body;
    const otherRead = (await verdict(agentKey).get(`/consultations/${other.consultation_id}`).expect(200)).body;
    expect(otherRead.sensitive_values).toEqual({
      'parameters.card.number': CARD,
      'parameters.customer_id': OTHER_SUBJECT,
      'context.email': EMAIL,
    });
    // A check without a sensitive value makes no key and keeps nothing beside its record.
    const keysBefore = (await stack.db('verdict').query('SELECT count(*)::int AS n FROM subject_keys')).rows[0].n;
    const plain = (
      await verdict(agentKey)
        .post('/check', {
          ...charge(null),
          action: 'payments.refund',
          parameters: { amount: 3 },
          context: {},
        })
        .expect(200)
    ).body;
    expect((await verdict(agentKey).get(`/consultations/${plain.consultation_id}`).expect(200)).body.sensitive_values).toBeUndefined();
    expect((await stack.db('verdict').query('SELECT count(*)::int AS n FROM subject_keys')).rows[0].n).toBe(keysBefore);

    // Another subject's key: the same value commits otherwise.
    expect(otherRead.parameters.card.number).not.toEqual(
      before.parameters && (before.parameters as { card: { number: unknown } }).card.number,
    );
  });
  it('names a subject as a check names it (a number by its JSON text), keeps no key for one too long to erase, and says what an erasure deleted', async () => {
    const values = async (id: string) => (await verdict(agentKey).get(`/consultations/${id}`).expect(200)).body.sensitive_values;
    const erased = { 'parameters.card.number': 'erased', 'parameters.customer_id': 'erased', 'context.email': 'erased' };
    const keyRows = async () => (await stack.db('verdict').query('SELECT count(*)::int AS n FROM subject_keys')).rows[0].n as number;

    // A number at the subject path and its JSON text name one subject, whichever form the erasure is given.
    const number = randomInt(10 ** 9, 2 ** 31);
    const byNumber = (await verdict(agentKey).post('/check', charge(number)).expect(200)).body.consultation_id;
    expect(await values(byNumber)).toEqual({ 'parameters.card.number': CARD, 'parameters.customer_id': number, 'context.email': EMAIL });
    const asText = await verdict(adminKey)
      .post('/erasures', { subject: String(number) })
      .expect(201);
    expect(asText.body.keys_deleted).toBe(1);
    expectConforms(asText, 'post', '/{tenant_id}/v1/erasures');
    expect(await values(byNumber)).toEqual(erased);
    const text = String(randomInt(10 ** 9, 2 ** 31));
    const byText = (await verdict(agentKey).post('/check', charge(text)).expect(200)).body.consultation_id;
    expect(
      (
        await verdict(adminKey)
          .post('/erasures', { subject: Number(text) })
          .expect(201)
      ).body.keys_deleted,
    ).toBe(1);
    expect(await values(byText)).toEqual(erased);

    // A check naming the subject again after its erasure makes a new key: what the erased key sealed stays erased (not
    // unreadable), and the new check's values read back.
    const again = (await verdict(agentKey).post('/check', charge(number)).expect(200)).body.consultation_id;
    expect(await values(again)).toEqual({ 'parameters.card.number': CARD, 'parameters.customer_id': number, 'context.email': EMAIL });
    expect(await values(byNumber)).toEqual(erased);

    // An erasure of a subject no check named is answered like one, but says it deleted nothing.
    const nobody = await verdict(adminKey)
      .post('/erasures', { subject: `cust-${randomUUID()}` })
      .expect(201);
    expect(nobody.body.keys_deleted).toBe(0);

    // A subject longer than an erasure can name (1024) is no subject: a one-off key, the values erased at once, no key
    // kept. One of 1024 characters is a subject like any other.
    const before = await keyRows();
    const tooLong = `c-${randomUUID()}`.padEnd(1500, 'x');
    const long = (await verdict(agentKey).post('/check', charge(tooLong)).expect(200)).body.consultation_id;
    expect(await values(long)).toEqual(erased);
    expect(await keyRows()).toBe(before);
    const longest = `c-${randomUUID()}`.padEnd(1024, 'x');
    const kept = (await verdict(agentKey).post('/check', charge(longest)).expect(200)).body.consultation_id;
    expect(await values(kept)).toEqual({ 'parameters.card.number': CARD, 'parameters.customer_id': longest, 'context.email': EMAIL });
    expect((await verdict(adminKey).post('/erasures', { subject: longest }).expect(201)).body.keys_deleted).toBe(1);
    expect(await values(kept)).toEqual(erased);
  });

  it('replays records with their values only for a simulation caller who may read them', async () => {
    const live = (await verdict(agentKey).post('/check', charge(OTHER_SUBJECT)).expect(200)).body;
    expect(live.verdict).toBe('approval_required');
    // With read (admin): the rule on the card's prefix is evaluated on the plain value, so archiving it is a change.
    expect((await simulateArchive()).get(live.consultation_id)).toMatchObject({ before: 'approval_required', after: 'allowed' });
    // manage_rules alone: the commitments are replayed; a condition on the card is never met, before or after alike.
    expect((await simulateArchive(rulesOnlyKey)).get(live.consultation_id)).toBeUndefined();
    // Nor does a proposed rule probing a prefix tell it anything: it never fires on a commitment.
    const probe = (key: string) =>
      verdict(key)
        .post('/simulations', {
          changes: [
            {
              op: 'create',
              rule: {
                scope_id: scopeId,
                directive: 'probe',
                severity: 'MANDATORY',
                applies_to: { actions: ['payments.charge'] },
                conditions: [{ field: 'card.number', op: 'starts_with', value: CARD.slice(0, 2) }],
              },
            },
          ],
          window: { last: 1000 },
          sample_limit: 100,
        })
        .expect(200);
    const ids = (body: { samples: Array<{ consultation_id: string }> }) => body.samples.map((x) => x.consultation_id);
    expect(ids((await probe(adminKey)).body)).toContain(live.consultation_id);
    const probed = (await probe(rulesOnlyKey)).body;
    expect(ids(probed)).not.toContain(live.consultation_id);
    expect(JSON.stringify(probed)).not.toContain(CARD);
  });

  it('answers unreadable, never erased, for values that do not open under their live key, and for a malformed sealed_values', async () => {
    const db = stack.db('verdict');
    const values = async (id: string) => (await verdict(agentKey).get(`/consultations/${id}`).expect(200)).body.sensitive_values;
    const altered = (await verdict(agentKey).post('/check', charge(OTHER_SUBJECT)).expect(200)).body.consultation_id;
    const broken = (await verdict(agentKey).post('/check', charge(OTHER_SUBJECT)).expect(200)).body.consultation_id;
    const intact = (await verdict(agentKey).post('/check', charge(OTHER_SUBJECT)).expect(200)).body.consultation_id;
    // One byte of the authentication tag changed (its first base64url character), the subject's key still there.
    const row = (await db.query('SELECT sealed_values FROM consultations WHERE id = $1', [altered])).rows[0];
    const [v, iv, tag, data] = (row.sealed_values.values as string).split('.');
    const flipped = `${tag[0] === 'A' ? 'B' : 'A'}${tag.slice(1)}`;
    await db.query('UPDATE consultations SET sealed_values = $2::jsonb WHERE id = $1', [
      altered,
      JSON.stringify({ ...row.sealed_values, values: [v, iv, flipped, data].join('.') }),
    ]);
    await db.query(`UPDATE consultations SET sealed_values = '"junk"'::jsonb WHERE id = $1`, [broken]);

    const unreadable = { 'parameters.card.number': 'unreadable', 'parameters.customer_id': 'unreadable', 'context.email': 'unreadable' };
    expect(await values(altered)).toEqual(unreadable);
    // Not even the locations can be read: none is answered (the record's commitments still show where they were).
    expect(await values(broken)).toEqual({});
    expect(stack.logs.some((line) => line.includes(altered) && line.includes('unreadable'))).toBe(true);
    expect(stack.logs.some((line) => line.includes(broken) && line.includes('malformed'))).toBe(true);
    await verdict(agentKey).get(`/consultations/${altered}/explanation`).expect(200);
    await verdict(agentKey).get(`/consultations/${broken}/explanation`).expect(200);
    await simulateArchive();
    // The subject's other records are untouched.
    expect(await values(intact)).toEqual({
      'parameters.card.number': CARD,
      'parameters.customer_id': OTHER_SUBJECT,
      'context.email': EMAIL,
    });
  });
});
