import { makeConsultation, makeKey, TENANT } from '../../test/fixtures';
import { startFakeEvidenceServer, type FakeEvidenceServer } from '../../test/fake-evidence-server';
import { makeLedgerKey, sealedPayloadOf, signTransition, TestStream } from '../../test/ledger-fixtures';
import { InputError } from '../errors';
import { createLedgerClient } from '../ledger-client';
import { createVerdictClient } from '../verdict-client';
import { auditConsultations, periodBound, type AuditConsultationsOptions } from './consultations';

const STREAM = `arbiter.${TENANT}.consultations`;
const key = makeKey(`${TENANT}:2026`, { notBefore: '2026-01-01T00:00:00.000Z' });
const ledgerKey = makeLedgerKey('ledger:2026');
const at = (iso: string) => Date.parse(iso);

let server: FakeEvidenceServer;
beforeEach(async () => {
  server = await startFakeEvidenceServer({ tenant: TENANT });
  server.ledgerKeys.push(ledgerKey);
});
afterEach(() => server.close());

/** A record of the verdict service, made and hashed as the gateway does, stored in the fake service. */
function record(id: string, requestedAt: string, overrides: Record<string, unknown> = {}) {
  const r = makeConsultation(key, { id, ...overrides }, at(requestedAt));
  server.records.set(id, r);
  return r;
}

function stream(): TestStream {
  let s = server.streams.get(STREAM);
  if (!s) server.streams.set(STREAM, (s = new TestStream(STREAM, TENANT, ledgerKey)));
  return s;
}

const seal = (
  r: Record<string, unknown>,
  change: (p: Record<string, unknown>) => Record<string, unknown> = (p) => p,
  actor = 'service:verdict',
) => stream().seal(actor, change(sealedPayloadOf(r)), String(r.id));

/** The auditor's trust file: the ledger's key, obtained out of band. */
const trust = { tenant_id: TENANT, jwks: { keys: [key.jwk] }, ledger_keys: { keys: [ledgerKey.jwk] } };

function sut(o: Partial<AuditConsultationsOptions> = {}) {
  return auditConsultations({
    verdict: createVerdictClient({ baseUrl: server.url, apiKey: 'ak-test', tenant: TENANT }),
    ledger: createLedgerClient({ baseUrl: server.url, apiKey: 'ak-test' }),
    since: '2026-03-01',
    until: '2026-03-01',
    now: () => new Date('2026-03-02T00:00:00.000Z'),
    trust,
    ...o,
  });
}

describe(auditConsultations.name, () => {
  it('finds nothing when every record of the period is sealed once with its own fields (facts in any order, others outside the period)', async () => {
    const before = record('cns-0', '2026-02-28T23:00:00.000Z');
    const rs = [1, 2, 3, 4].map((i) => record(`cns-${i}`, `2026-03-01T0${i}:00:00.000Z`));
    const after = record('cns-5', '2026-03-02T00:00:00.001Z');
    seal(before);
    seal(rs[2]);
    seal(rs[0]);
    seal(after);
    seal(rs[3]);
    seal(rs[1]);
    const report = await sut();
    expect(report).toMatchObject({
      tenant_id: TENANT,
      stream_id: STREAM,
      since: '2026-03-01T00:00:00.000Z',
      until: '2026-03-01T23:59:59.999Z',
      records: 4,
      facts_read: 6,
      facts_in_period: 4,
      findings: 0,
      missing_in_verdict: [],
      unsealed: [],
      duplicated: [],
      mismatched: [],
      malformed: [],
      pending: [],
    });
    expect(report.checkpoint.valid).toBe(true);
    expect(report.checkpoint.checks.map((c) => `${c.check}:${c.status}`)).toEqual([
      'trust:pass',
      'trust.ledger_transitions:info',
      'current.shape:pass',
      'current.key:pass',
      'current.signature:pass',
      'consistency:info',
      'listing:pass',
    ]);
    expect(report.next_checkpoint).toMatchObject({ stream_id: STREAM, tree_size: 6 });
  });

  it('without a trust file, checks the checkpoints with the keys the ledger publishes and says so: unpinned, not a finding', async () => {
    seal(record('cns-1', '2026-03-01T01:00:00.000Z'));
    const report = await sut({ trust: undefined });
    expect(report.findings).toBe(0);
    expect(report.checkpoint).toMatchObject({ valid: false, status: 'unpinned' });
    expect(report.checkpoint.checks[0]).toMatchObject({ check: 'trust', status: 'unpinned' });
    expect(report.next_checkpoint).toMatchObject({ tree_size: 1 });
  });

  it('follows a ledger key rotation through its transition statement, and fails a checkpoint of a key no trusted key introduced', async () => {
    const next = makeLedgerKey('ledger:2026.1', '2026-03-01T06:00:00.000Z');
    server.ledgerKeys.push(next);
    server.ledgerTransitions.push(signTransition([ledgerKey], next, at('2026-03-01T06:00:00.000Z')));
    seal(record('cns-1', '2026-03-01T01:00:00.000Z'));
    (stream() as { key: unknown }).key = next; // checkpoints are signed by the new key from now on
    const report = await sut();
    expect(report.checkpoint.status).toBe('valid');
    expect(report.checkpoint.checks.find((c) => c.check === 'trust.ledger_transition.ledger:2026.1')).toMatchObject({
      status: 'pass',
      message: expect.stringContaining('accepted'),
    });
    // The same rotation "signed" by a key the auditor never trusted introduces nothing.
    server.ledgerTransitions.splice(0, 1, signTransition([makeLedgerKey('ledger:2026')], next, at('2026-03-01T06:00:00.000Z')));
    const forged = await sut();
    expect(forged.findings).toBe(1);
    expect(forged.checkpoint.checks.filter((c) => c.status === 'fail').map((c) => c.check)).toEqual([
      'trust.ledger_transition.ledger:2026.1',
      'current.key',
    ]);
  });

  it('refuses a trust file of another tenant', async () => {
    await expect(sut({ trust: { ...trust, tenant_id: 'tnt-other' } })).rejects.toThrow(
      new InputError(`the trust file is of tenant tnt-other, the audit of ${TENANT}`),
    );
  });

  it('names a consultation sealed in the period whose record was deleted from the verdict service', async () => {
    const r1 = record('cns-1', '2026-03-01T01:00:00.000Z');
    const r2 = record('cns-2', '2026-03-01T02:00:00.000Z');
    seal(r1);
    const f2 = seal(r2);
    server.records.delete('cns-2');
    const report = await sut();
    expect(report.missing_in_verdict).toEqual([
      { consultation_id: 'cns-2', fact_ids: [f2.fact_id], decided_at: '2026-03-01T02:00:00.000Z' },
    ]);
    expect(report.findings).toBe(1);
    // The record was looked up once more before it was called missing.
    expect(server.requests).toContain(`GET /${TENANT}/v1/consultations/cns-2`);
  });

  it('names a record older than the grace period without a fact, and leaves a younger one pending', async () => {
    record('cns-old', '2026-03-01T10:00:00.000Z');
    record('cns-young', '2026-03-01T23:59:30.000Z');
    const report = await sut({ now: () => new Date('2026-03-02T00:00:00.000Z'), graceMs: 60_000 });
    expect(report.unsealed).toEqual([{ consultation_id: 'cns-old', requested_at: '2026-03-01T10:00:00.000Z' }]);
    expect(report.pending).toEqual(['cns-young']);
    expect(report.findings).toBe(1);
    const strict = await sut({ graceMs: 0 });
    expect(strict.unsealed.map((u) => u.consultation_id).sort()).toEqual(['cns-old', 'cns-young']);
  });

  it('names several facts for one consultation', async () => {
    const r = record('cns-1', '2026-03-01T01:00:00.000Z');
    const a = seal(r);
    const b = stream().seal('service:verdict', sealedPayloadOf(r), 'cns-1-retry');
    const report = await sut();
    expect(report.duplicated).toEqual([{ consultation_id: 'cns-1', fact_ids: [a.fact_id, b.fact_id] }]);
    expect(report.mismatched).toEqual([]);
    expect(report.findings).toBe(1);
  });

  it('names each mismatching field: a changed payload, another actor, and a record edited with its hashes kept', async () => {
    const r1 = record('cns-1', '2026-03-01T01:00:00.000Z');
    const r2 = record('cns-2', '2026-03-01T02:00:00.000Z');
    const r3 = record('cns-3', '2026-03-01T03:00:00.000Z');
    const f1 = seal(r1, (p) => ({ ...p, verdict: 'allowed', normative_hash: `sha256:${'9'.repeat(64)}` }));
    const f2 = seal(r2, (p) => p, 'agent:someone');
    const f3 = seal(r3);
    server.records.set('cns-3', { ...r3, resource: 'acct:eu/other' }); // edited in the database, normative_hash left as it was
    const report = await sut();
    expect(report.mismatched).toEqual([
      {
        consultation_id: 'cns-1',
        fact_id: f1.fact_id,
        fields: [
          { field: 'normative_hash', record: r1.normative_hash, ledger: `sha256:${'9'.repeat(64)}` },
          { field: 'verdict', record: 'approval_required', ledger: 'allowed' },
        ],
      },
      { consultation_id: 'cns-2', fact_id: f2.fact_id, fields: [{ field: 'actor', record: 'service:verdict', ledger: 'agent:someone' }] },
      {
        consultation_id: 'cns-3',
        fact_id: f3.fact_id,
        fields: [{ field: 'record_content', record: expect.stringMatching(/^sha256:/), ledger: r3.normative_hash }],
      },
    ]);
    expect(report.findings).toBe(3);
  });

  it('finds the record of a fact whose decided_at was moved into the period, and names decided_at', async () => {
    const r = record('cns-9', '2026-03-03T00:00:00.000Z');
    const f = seal(r, (p) => ({ ...p, decided_at: '2026-03-01T05:00:00.000Z' }));
    const report = await sut();
    expect(report.missing_in_verdict).toEqual([]);
    expect(report.mismatched).toEqual([
      {
        consultation_id: 'cns-9',
        fact_id: f.fact_id,
        fields: [{ field: 'decided_at', record: '2026-03-03T00:00:00.000Z', ledger: '2026-03-01T05:00:00.000Z' }],
      },
    ]);
  });

  it('names a fact without a consultation payload', async () => {
    const f = stream().seal('service:verdict', { hello: 'world' }, 'x');
    const report = await sut();
    expect(report.malformed).toEqual([{ fact_id: f.fact_id, problem: 'its payload has no consultation_id' }]);
    expect(report.findings).toBe(1);
  });

  it('checks the current checkpoint against a kept one: consistent after growth, and the new one to keep', async () => {
    const rs = [1, 2, 3, 4, 5, 6, 7].map((i) => record(`cns-${i}`, `2026-03-01T0${i}:00:00.000Z`));
    rs.slice(0, 3).forEach((r) => seal(r));
    const kept = stream().checkpoint(3);
    rs.slice(3).forEach((r) => seal(r));
    const report = await sut({ checkpoint: kept });
    expect(report.findings).toBe(0);
    expect(report.checkpoint.checks.find((c) => c.check === 'consistency')).toEqual({
      check: 'consistency',
      status: 'pass',
      message: 'the tree of 7 facts extends the kept tree of 3 (4-hash consistency proof)',
    });
    expect(server.requests).toContain(`GET /streams/${STREAM}/consistency?from=3&to=7`);
    expect(report.next_checkpoint).toMatchObject({ tree_size: 7 });
    const same = await sut({ checkpoint: report.next_checkpoint });
    expect(same.checkpoint.checks.find((c) => c.check === 'consistency')?.message).toBe(
      "the stream still has the kept checkpoint's 7 facts, same root",
    );
  });

  it('holds the facts listed to the signed checkpoint: a fact and its record removed behind it, or a payload edited, is a finding', async () => {
    const rs = [1, 2, 3, 4].map((i) => record(`cns-${i}`, `2026-03-01T0${i}:00:00.000Z`));
    rs.forEach((r) => seal(r));
    const kept = stream().checkpoint();
    expect((await sut({ checkpoint: kept })).findings).toBe(0);
    // Whoever runs both databases deletes a record and its fact; the tree (and so every checkpoint) stays as it was.
    const s = stream();
    const signed = s.checkpoint();
    s.checkpoint = () => signed;
    const [removed] = s.facts.splice(1, 1);
    server.records.delete('cns-2');
    const gone = await sut({ checkpoint: kept });
    expect(gone).toMatchObject({ facts_read: 3, missing_in_verdict: [], unsealed: [], next_checkpoint: null, findings: 1 });
    expect(gone.checkpoint.checks.find((c) => c.check === 'consistency')?.status).toBe('pass');
    expect(gone.checkpoint.checks.find((c) => c.check === 'listing')).toEqual({
      check: 'listing',
      status: 'fail',
      message: 'the ledger listed 3 facts, fewer than the 4 its signed checkpoint covers: facts are missing from the list',
    });
    // Or leaves the fact in place and edits its payload so that it falls in no period (its fact_hash kept).
    s.facts.splice(1, 0, { ...removed, custom_payload: { ...removed.custom_payload, decided_at: '-' } });
    const edited = await sut({ checkpoint: kept });
    expect(edited.malformed).toEqual([{ fact_id: removed.fact_id, problem: 'its decided_at is not a timestamp' }]);
    expect(edited.checkpoint.checks.find((c) => c.check === 'listing')).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(
        /^the first 4 facts listed rebuild the root sha256:[0-9a-f]{64}, not the signed checkpoint's .*: a fact was changed, removed or reordered$/,
      ),
    });
    expect(edited.findings).toBe(2);
  });

  it('fails a kept checkpoint of another history (a rewritten stream), a longer one, and one whose signature does not verify', async () => {
    const rs = [1, 2, 3, 4].map((i) => record(`cns-${i}`, `2026-03-01T0${i}:00:00.000Z`));
    // The history the auditor saw: the first two facts, then the stream was rebuilt without the second.
    const seen = new TestStream(STREAM, TENANT, ledgerKey);
    seen.seal('service:verdict', sealedPayloadOf(rs[0]), 'cns-1');
    seen.seal('service:verdict', sealedPayloadOf(rs[1]), 'cns-2');
    const kept = seen.checkpoint(2);
    rs.forEach((r) => seal(r));
    const rewritten = await sut({ checkpoint: kept });
    expect(rewritten.checkpoint.valid).toBe(false);
    expect(rewritten.checkpoint.checks.find((c) => c.status === 'fail')).toMatchObject({
      check: 'consistency',
      message: expect.stringContaining('does not extend the kept tree of 2 facts'),
    });
    expect(rewritten.next_checkpoint).toBeNull();
    expect(rewritten.findings).toBe(1);

    const longer = await sut({ checkpoint: stream().checkpoint(4, at('2026-03-01T12:00:00.000Z')) });
    expect(longer.findings).toBe(0);
    const future = new TestStream(STREAM, TENANT, ledgerKey);
    rs.concat(record('cns-5', '2026-03-01T05:00:00.000Z')).forEach((r) => future.seal('service:verdict', sealedPayloadOf(r), String(r.id)));
    const shrunk = await sut({ checkpoint: future.checkpoint(5) });
    expect(shrunk.checkpoint.checks.find((c) => c.status === 'fail')?.message).toBe(
      'the stream has 4 facts, fewer than the 5 of the kept checkpoint: facts were removed',
    );

    const forged = { ...stream().checkpoint(2), root_hash: `sha256:${'0'.repeat(64)}` };
    const bad = await sut({ checkpoint: forged });
    expect(bad.checkpoint.checks.filter((c) => c.status === 'fail').map((c) => c.check)).toEqual(['kept.signature', 'consistency']);
  });

  it('reads a stream that does not exist yet as empty: every old record unsealed, a kept checkpoint a finding', async () => {
    record('cns-1', '2026-03-01T01:00:00.000Z');
    const report = await sut();
    expect(report).toMatchObject({ facts_read: 0, unsealed: [{ consultation_id: 'cns-1' }], next_checkpoint: null, findings: 1 });
    expect(report.checkpoint.checks.slice(2)).toEqual([
      { check: 'current', status: 'info', message: 'the stream has no facts yet: no checkpoint' },
      { check: 'consistency', status: 'info', message: 'no kept checkpoint given: nothing to compare the current one with' },
      { check: 'listing', status: 'info', message: 'no signed checkpoint to hold the facts listed to' },
    ]);
    const kept = new TestStream(STREAM, TENANT, ledgerKey);
    kept.seal('service:verdict', { consultation_id: 'cns-1' });
    const gone = await sut({ checkpoint: kept.checkpoint(1) });
    expect(gone.checkpoint.checks.find((c) => c.status === 'fail')?.message).toBe(
      'the kept checkpoint covers 1 facts but the stream has none: it was removed',
    );
  });

  it('reads both services page by page: the list by cursor, the stream by offsets of 1000', async () => {
    for (let i = 0; i < 1050; i++) {
      const r = record(`cns-${String(i).padStart(5, '0')}`, new Date(at('2026-03-01T00:00:00.000Z') + i * 60_000).toISOString());
      seal(r);
    }
    for (let i = 0; i < 1000; i++)
      stream().seal('service:verdict', { consultation_id: `cns-feb-${i}`, decided_at: '2026-02-20T00:00:00.000Z' }, `cns-feb-${i}`);
    const report = await sut();
    expect(report).toMatchObject({ records: 1050, facts_read: 2050, facts_in_period: 1050, findings: 0 });
    expect(server.requests.filter((r) => r.startsWith(`GET /streams/${STREAM}/facts`))).toEqual(
      [0, 1000, 2000].map((o) => `GET /streams/${STREAM}/facts?limit=1000&offset=${o}`),
    );
    expect(server.requests.filter((r) => r.startsWith(`GET /${TENANT}/v1/consultations?`))).toHaveLength(2);
  });

  it('refuses a period that ends before it starts, an unreadable bound and a tenant that is not an id', async () => {
    await expect(sut({ since: '2026-03-02', until: '2026-03-01' })).rejects.toThrow(InputError);
    await expect(sut({ since: 'yesterday' })).rejects.toThrow('since "yesterday" is not an ISO 8601 date or timestamp');
    await expect(sut({ tenant: 'acme' })).rejects.toThrow('tenant "acme" is not a tenant id (tnt-…)');
  });
});

describe(periodBound.name, () => {
  it('reads a date-only until as the end of that UTC day, timestamps as they are', () => {
    expect(new Date(periodBound('2026-03-01', true, 'until')).toISOString()).toBe('2026-03-01T23:59:59.999Z');
    expect(new Date(periodBound('2026-03-01', false, 'since')).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(new Date(periodBound('2026-03-01T10:00:00+01:00', true, 'until')).toISOString()).toBe('2026-03-01T09:00:00.000Z');
  });

  it('refuses a day the calendar lacks instead of rolling it over', () => {
    for (const value of ['2026-02-30', '2026-02-29T10:00:00Z', '2026-04-31', '2026-03-01T24:00:00Z']) {
      expect(() => periodBound(value, true, 'until')).toThrow(`until ${JSON.stringify(value)} is not an ISO 8601 date or timestamp`);
    }
    expect(new Date(periodBound('2024-02-29', true, 'until')).toISOString()).toBe('2024-02-29T23:59:59.999Z');
  });
});
