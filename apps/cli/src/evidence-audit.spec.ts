import {
  keySealPayloadOf,
  makeConsultation,
  makeKey,
  makeLedgerKey,
  sealedPayloadOf,
  startFakeEvidenceServer,
  TENANT,
  TestStream,
  type FakeEvidenceServer,
} from '@arbiter/client/testing';
import type { Io } from './io';
import { runCli } from './program';

const STREAM = `arbiter.${TENANT}.consultations`;
const key = makeKey(`${TENANT}:2026`, { notBefore: '2026-01-01T00:00:00.000Z' });
const ledgerKey = makeLedgerKey('ledger:2026');

/** The CLI in-process: files in memory, HTTP to the fake services (or nowhere, with `offline`). */
function cli(files: Record<string, string> = {}, opts: { offline?: boolean; now?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    env: {},
    fetch: ((...args: Parameters<typeof fetch>) =>
      opts.offline ? Promise.reject(new Error('network disabled in this test')) : globalThis.fetch(...args)) as typeof fetch,
    readFile: async (p) => {
      if (!(p in files)) throw new Error(`ENOENT: no such file, open '${p}'`);
      return files[p];
    },
    writeFile: async (p, d) => void (files[p] = d),
    readStdin: async () => '',
    now: () => new Date(opts.now ?? '2026-03-02T00:00:00.000Z'),
  };
  return async (...argv: string[]) => {
    out.length = 0;
    err.length = 0;
    const code = await runCli(argv, io);
    return { code, stdout: out.join(''), stderr: err.join('') };
  };
}

let server: FakeEvidenceServer;
let stream: TestStream;
beforeEach(async () => {
  server = await startFakeEvidenceServer({ tenant: TENANT });
  server.ledgerKeys.push(ledgerKey);
  server.verdictKeys.push(key.jwk);
  server.ruleVersions.set('rv-large-1', {
    id: 'rv-large-1',
    rule_id: 'rul-large',
    tenant_id: TENANT,
    version: 1,
    statement: 'Large transfers need approval',
    severity: 'REQUIRES_APPROVAL',
  });
  stream = new TestStream(STREAM, TENANT, ledgerKey);
  server.streams.set(STREAM, stream);
});
afterEach(() => server.close());

function record(id: string, requestedAt: string) {
  const r = makeConsultation(key, { id }, Date.parse(requestedAt));
  server.records.set(id, r);
  return r;
}
const seal = (r: Record<string, unknown>) => stream.seal('service:verdict', sealedPayloadOf(r), String(r.id));
const services = () => ['--url', server.url, '--ledger-url', server.url, '--api-key', 'ak-test'];
const both = () => ['--verdict-url', server.url, '--ledger-url', server.url, '--api-key', 'ak-test'];

/** `trust export` against the fake services: the auditor's trust file, in `files`. */
async function exportTrust(files: Record<string, string>) {
  const r = await cli(files)('trust', 'export', '--tenant', 'acme', '--url', server.url, '--ledger-url', server.url, '--out', 'trust.json');
  expect(r.code).toBe(0);
  return r;
}

describe('arbiter trust export', () => {
  it("writes the tenant's and the ledger's public keys without an API key, and prints their RFC 7638 thumbprints", async () => {
    const files: Record<string, string> = {};
    const r = await exportTrust(files);
    expect(JSON.parse(files['trust.json'])).toEqual({
      format: 'arbiter.trust',
      version: 1,
      tenant_id: TENANT,
      exported_at: '2026-03-02T00:00:00.000Z',
      source: { verdict_url: server.url, ledger_url: server.url },
      jwks: { keys: [key.jwk] },
      ledger_keys: { keys: [ledgerKey.jwk] },
    });
    expect(r.stdout).toMatch(new RegExp(`^ {2}verdict {2}${TENANT}:2026 {2}[A-Za-z0-9_-]{43} {2}\\[2026-01-01T00:00:00.000Z, ∞\\)$`, 'm'));
    expect(r.stdout).toMatch(/^ {2}ledger {3}ledger:2026 {2}[A-Za-z0-9_-]{43} /m);
    expect(server.requests.some((q) => q.includes('whoami'))).toBe(false);
  });

  it('refuses a file that is not a trust file where --trust is taken, with exit 2', async () => {
    const files: Record<string, string> = { 'keys.json': JSON.stringify({ keys: [key.jwk] }) };
    const r = await cli(files, { offline: true })('verify', 'evidence', 'pack.json', '--trust', 'keys.json');
    expect(r).toMatchObject({ code: 2 });
    files['pack.json'] = '{}';
    expect(await cli(files, { offline: true })('verify', 'evidence', 'pack.json', '--trust', 'keys.json')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('the trust file keys.json is not a trust file'),
    });
  });
});

describe('arbiter trust extend', () => {
  it('adds a key sealed in the keys stream under a checkpoint of a trusted ledger key, and writes nothing for a forged history', async () => {
    const files: Record<string, string> = {};
    await exportTrust(files);
    const next = makeKey(`${TENANT}:2026.1`, { notBefore: '2026-02-01T00:00:00.000Z' });
    const keys = new TestStream(`arbiter.${TENANT}.keys`, TENANT, ledgerKey);
    keys.seal('service:verdict', keySealPayloadOf(key.jwk, 'first'), key.jwk.kid);
    keys.seal(
      'service:verdict',
      keySealPayloadOf(next.jwk, 'emergency', [{ kid: key.jwk.kid, not_after: '2026-02-01T00:00:00.000Z' }]),
      next.jwk.kid,
    );
    server.streams.set(keys.streamId, keys);
    const run = cli(files);
    const ok = await run('trust', 'extend', 'trust.json', '--out', 'trust-2.json', '--url', server.url, '--api-key', 'ak-test');
    expect(ok.stdout).toContain(`wrote trust-2.json: added ${next.jwk.kid}`);
    expect(ok.code).toBe(0);
    expect(JSON.parse(files['trust-2.json'])).toMatchObject({
      extended_at: '2026-03-02T00:00:00.000Z',
      jwks: {
        keys: [
          { kid: key.jwk.kid, not_after: '2026-02-01T00:00:00.000Z' },
          { kid: next.jwk.kid, not_after: null },
        ],
      },
    });

    // The same stream, its checkpoints signed by a key the trust file does not hold.
    (keys as { key: unknown }).key = makeLedgerKey('ledger:2026');
    const forged = await run('trust', 'extend', 'trust.json', '--out', 'trust-3.json', '--url', server.url, '--api-key', 'ak-test');
    expect(forged.code).toBe(1);
    expect(forged.stdout).toContain('[FAIL] keys_stream.checkpoint.signature');
    expect(forged.stdout).toContain('nothing written: the history does not verify against trust.json');
    expect(files['trust-3.json']).toBeUndefined();
  });

  it('refuses a ledger key of another tenant (its streams would read as absent) with exit 2', async () => {
    const files: Record<string, string> = {};
    await exportTrust(files);
    files['trust.json'] = files['trust.json'].replace(new RegExp(TENANT, 'g'), 'tnt-other');
    const r = await cli(files)('trust', 'extend', 'trust.json', '--url', server.url, '--api-key', 'ak-test');
    expect(r).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`the ledger key is of tenant ${TENANT}, the trust file of tnt-other`),
    });
  });
});

describe('arbiter evidence export / verify evidence (version 3)', () => {
  it('exports a v3 pack that verifies with no network against the trust file, is unpinned (exit 3) without it, and fails a tampered copy naming the check', async () => {
    const r = record('cns-0001', '2026-03-01T12:00:00.000Z');
    seal(record('cns-0000', '2026-03-01T11:00:00.000Z'));
    const fact = seal(r);
    const files: Record<string, string> = {};
    await exportTrust(files);
    const exported = await cli(files)('evidence', 'export', 'cns-0001', '--out', 'pack.json', ...services());
    expect(exported.stderr).not.toContain('arbiter:');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('wrote pack.json: consultation cns-0001 (approval_required), 1 keys, 1 rule versions, 0 approvals');
    expect(exported.stdout).toContain(
      `ledger fact ${fact.fact_id} (leaf 1 of 2); pack version 3; self-check passed against the pack's own keys (unpinned`,
    );
    const pinnedExport = await cli(files)('evidence', 'export', 'cns-0001', '--out', 'pack.json', '--trust', 'trust.json', ...services());
    expect(pinnedExport.stdout).toContain('self-check passed against your trust file');
    const pack = JSON.parse(files['pack.json']);
    expect(pack).toMatchObject({
      format: 'arbiter.evidence-pack',
      version: 3,
      ledger: { leaf_index: 1, tree_size: 2 },
      key_history: { stream_id: `arbiter.${TENANT}.keys` },
    });

    const offline = cli(files, { offline: true });
    const ok = await offline('verify', 'evidence', 'pack.json', '--trust', 'trust.json');
    expect(ok.code).toBe(0);
    expect(ok.stdout.split('\n')[0]).toBe('evidence pack of cns-0001: VALID');
    expect(ok.stdout).toMatch(/\[ok\] {3}ledger\.inclusion +the 1-hash audit path leads from the fact's leaf/);
    const unpinned = await offline('verify', 'evidence', 'pack.json');
    expect(unpinned.code).toBe(3);
    expect(unpinned.stdout.split('\n')[0]).toMatch(/^evidence pack of cns-0001: UNPINNED /);
    expect(unpinned.stdout).toMatch(/\[PIN\?\] trust +no trusted keys given/);

    pack.ledger.inclusion_path[0] = `sha256:${'e'.repeat(64)}`;
    files['tampered.json'] = JSON.stringify(pack);
    const bad = await offline('--json', 'verify', 'evidence', 'tampered.json', '--trust', 'trust.json');
    expect(bad.code).toBe(1);
    expect(
      JSON.parse(bad.stdout)
        .checks.filter((c: { status: string }) => c.status === 'fail')
        .map((c: { check: string }) => c.check),
    ).toEqual(['ledger.inclusion']);
  });

  it('still verifies a v1 pack, and exports one with --v1 without touching the ledger', async () => {
    record('cns-0001', '2026-03-01T12:00:00.000Z');
    const files: Record<string, string> = {};
    await exportTrust(files);
    server.requests.length = 0;
    const exported = await cli(files)(
      'evidence',
      'export',
      'cns-0001',
      '--out',
      'v1.json',
      '--v1',
      '--url',
      server.url,
      '--api-key',
      'ak-test',
    );
    expect(exported.code).toBe(0);
    expect(JSON.parse(files['v1.json']).version).toBe(1);
    expect(server.requests.some((q) => q.startsWith('GET /facts') || q.includes('ledger-keys') || q.endsWith('/evidence'))).toBe(false);
    const ok = await cli(files, { offline: true })('verify', 'evidence', 'v1.json', '--trust', 'trust.json');
    expect(ok).toMatchObject({ code: 0, stdout: expect.stringContaining('evidence pack v1 exported') });
  });

  it('refuses an unsealed consultation with exit 1 and says what to do; --fallback-v1 writes v1 with a warning', async () => {
    record('cns-0001', '2026-03-01T12:00:00.000Z');
    const files: Record<string, string> = {};
    const run = cli(files);
    const pending = await run('evidence', 'export', 'cns-0001', '--out', 'pack.json', ...services());
    expect(pending).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        'consultation cns-0001 is not sealed in the ledger yet (sealing is asynchronous): try again shortly, or pass --fallback-v1',
      ),
    });
    expect(files['pack.json']).toBeUndefined();
    const fallback = await run('evidence', 'export', 'cns-0001', '--out', 'pack.json', '--fallback-v1', ...services());
    expect(fallback.code).toBe(0);
    expect(fallback.stderr).toContain('arbiter: warning: consultation cns-0001 is not sealed in the ledger yet: writing a version 1 pack');
    expect(JSON.parse(files['pack.json']).version).toBe(1);
    expect((await run('evidence', 'export', 'cns-0001', '--out', 'x.json', '--v1', '--fallback-v1', '--api-key', 'ak-test')).code).toBe(2);
  });
});

describe('arbiter audit consultations', () => {
  it('exits 0 on a clean period, prints the counts and the checkpoint checks, and saves the checkpoint to keep', async () => {
    [1, 2, 3].forEach((i) => seal(record(`cns-${i}`, `2026-03-01T0${i}:00:00.000Z`)));
    const files: Record<string, string> = {};
    await exportTrust(files);
    const r = await cli(files)(
      'audit',
      'consultations',
      '--since',
      '2026-03-01',
      '--until',
      '2026-03-01',
      '--save-checkpoint',
      'kept.json',
      '--trust',
      'trust.json',
      ...both(),
    );
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`consultations of ${TENANT} from 2026-03-01T00:00:00.000Z to 2026-03-01T23:59:59.999Z: CLEAN`);
    expect(lines[1]).toBe(`  3 records in the verdict service; 3 facts read from ${STREAM}, 3 decided in the period`);
    expect(r.stdout).toContain('[ok]   current.signature');
    expect(r.stdout).toMatch(/next checkpoint to keep: size 3, root sha256:[0-9a-f]{64}, saved to kept\.json/);
    expect(JSON.parse(files['kept.json'])).toMatchObject({ stream_id: STREAM, tree_size: 3, signature_alg: 'Ed25519' });

    // The next audit, after growth, against the kept checkpoint.
    seal(record('cns-4', '2026-03-01T04:00:00.000Z'));
    const next = await cli(files)(
      '--json',
      'audit',
      'consultations',
      '--since',
      '2026-03-01T00:00:00Z',
      '--until',
      '2026-03-01T23:59:59Z',
      '--checkpoint',
      'kept.json',
      '--trust',
      'trust.json',
      ...both(),
    );
    expect(next.code).toBe(0);
    const report = JSON.parse(next.stdout);
    expect(report).toMatchObject({ findings: 0, records: 4, saved_checkpoint: null, next_checkpoint: { tree_size: 4 } });
    expect(report.checkpoint.checks.find((c: { check: string }) => c.check === 'consistency')).toMatchObject({ status: 'pass' });

    // Without the trust file the same clean audit exits 3: its checkpoints were checked with the ledger's own keys.
    const unpinned = await cli(files)('audit', 'consultations', '--since', '2026-03-01', '--until', '2026-03-01', ...both());
    expect(unpinned.code).toBe(3);
    expect(unpinned.stdout).toContain(`checkpoints of ${STREAM}: UNPINNED`);
  });

  it("exits 1 naming a record deleted behind the service's back, an unsealed record and a mismatch", async () => {
    const r1 = record('cns-1', '2026-03-01T01:00:00.000Z');
    const r2 = record('cns-2', '2026-03-01T02:00:00.000Z');
    record('cns-3', '2026-03-01T03:00:00.000Z');
    const f1 = stream.seal('service:verdict', { ...sealedPayloadOf(r1), verdict: 'allowed' }, 'cns-1');
    const f2 = seal(r2);
    server.records.delete('cns-2');
    const r = await cli()('audit', 'consultations', '--since', '2026-03-01', '--until', '2026-03-01', '--grace', '5m', ...both());
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe(
      `consultations of ${TENANT} from 2026-03-01T00:00:00.000Z to 2026-03-01T23:59:59.999Z: 3 findings`,
    );
    expect(r.stdout).toContain(
      `[MISSING IN VERDICT] cns-2: sealed as ${f2.fact_id} (decided_at 2026-03-01T02:00:00.000Z), but the verdict service has no such consultation: its record was deleted`,
    );
    expect(r.stdout).toContain('[UNSEALED]   cns-3: requested at 2026-03-01T03:00:00.000Z, no fact in the ledger');
    expect(r.stdout).toContain(`[MISMATCHED] cns-1 (fact ${f1.fact_id}): verdict: record "approval_required", ledger "allowed"`);
  });

  it('exits 1 when the stream is not consistent with the kept checkpoint, and does not save the new one', async () => {
    const rs = [1, 2, 3].map((i) => record(`cns-${i}`, `2026-03-01T0${i}:00:00.000Z`));
    const other = new TestStream(STREAM, TENANT, ledgerKey);
    other.seal('service:verdict', sealedPayloadOf(rs[1]), 'cns-2');
    rs.forEach(seal);
    const files: Record<string, string> = { 'kept.json': JSON.stringify(other.checkpoint(1)) };
    const r = await cli(files)(
      'audit',
      'consultations',
      '--since',
      '2026-03-01',
      '--until',
      '2026-03-01',
      '--checkpoint',
      'kept.json',
      '--save-checkpoint',
      'next.json',
      ...both(),
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[FAIL] consistency');
    expect(r.stderr).toContain('next.json not written');
    expect(files['next.json']).toBeUndefined();
  });

  it('exits 2 on usage errors and unreachable services', async () => {
    const run = cli();
    expect((await run('audit', 'consultations', '--until', '2026-03-01', ...both())).code).toBe(2);
    expect(await run('audit', 'consultations', '--since', 'last week', '--until', '2026-03-01', ...both())).toMatchObject({
      code: 2,
      stderr: 'arbiter: --since last week is not an ISO 8601 date or timestamp\n',
    });
    // A day the month lacks is refused here, not read as March 2.
    expect(await run('audit', 'consultations', '--since', '2026-02-30', '--until', '2026-03-03', ...both())).toMatchObject({
      code: 2,
      stderr: 'arbiter: --since 2026-02-30 is not an ISO 8601 date or timestamp\n',
    });
    expect(
      await run('audit', 'consultations', '--since', '2026-03-01', '--until', '2026-03-01', '--grace', 'soon', ...both()),
    ).toMatchObject({ code: 2, stderr: expect.stringContaining('--grace soon is not a duration') });
    expect(await run('audit', 'consultations', '--since', '2026-03-02', '--until', '2026-03-01', ...both())).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('is after until'),
    });
    expect(
      await run('audit', 'consultations', '--since', '2026-03-01', '--until', '2026-03-01', '--tenant', 'acme', ...both()),
    ).toMatchObject({ code: 2, stderr: expect.stringContaining('is not a tenant id') });
    expect(
      await run('audit', 'consultations', '--since', '2026-03-01', '--until', '2026-03-01', '--checkpoint', 'none.json', ...both()),
    ).toMatchObject({ code: 2, stderr: expect.stringContaining('cannot read the kept checkpoint none.json') });
    // A missing kept checkpoint never becomes an audit without the consistency check; the message names the first audit's command.
    expect(
      (await run('audit', 'consultations', '--since', '2026-03-01', '--until', '2026-03-01', '--checkpoint', 'none.json', ...both()))
        .stderr,
    ).toContain('a first audit has no kept checkpoint: run it without --checkpoint, and with --save-checkpoint none.json');
    const down = await run(
      'audit',
      'consultations',
      '--since',
      '2026-03-01',
      '--until',
      '2026-03-01',
      '--verdict-url',
      'http://127.0.0.1:9',
      '--ledger-url',
      'http://127.0.0.1:9',
      '--api-key',
      'ak-test',
    );
    expect(down).toMatchObject({ code: 2, stderr: expect.stringContaining('cannot reach the') });
  });
});
