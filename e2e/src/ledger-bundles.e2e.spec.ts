import { createPublicKey, verify } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createLedgerTenant, ledgerClient, sealBody, type LedgerTenant } from './ledger-harness';
import { startStack, type Stack } from './stack';
import { bundleLedger, processEnv, runCli, runVerifier } from './ledger-processes';

interface VerifierReport {
  valid: boolean;
  signature_valid: boolean;
  facts_verified: number;
  facts_in_manifest: number;
  errors: string[];
}
/**
 * The standalone verifier's own checking function, for the many tampered cases (its command line
 * is run as a process below for the rest). It is plain JavaScript with no project imports.
 */
const { verifyBundle } = require('../../scripts/verify-ledger-bundle.mjs') as {
  verifyBundle(input: { bundle: object; keys: object; facts: object[] }): VerifierReport;
};

const GENEROUS = { rate_limit: { requests_per_minute: 1_000_000, burst: 100_000 } };
const YEAR = String(new Date().getUTCFullYear());

interface Bundle {
  bundle_id: string;
  stream_id: string;
  facts_manifest: string[];
  head_fact_id: string;
  head_hash: string;
  signature: string;
  key_id: string;
  created_at_ms: number;
  [name: string]: unknown;
}

/** RFC 8785 for the bundle's flat shape, written out here: members sorted, no whitespace. */
function canonicalBundleWithoutSignature(b: Bundle): string {
  const { signature: _s, ...unsigned } = b;
  return `{${Object.keys(unsigned)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(unsigned[k])}`)
    .join(',')}}`;
}

describe('ledger proof bundles, published keys and rotation', () => {
  let stack: Stack;
  let t: LedgerTenant;
  let work: string;
  let bundled: Awaited<ReturnType<typeof bundleLedger>>;
  let n = 0;

  beforeAll(async () => {
    // The CLI test needs the bundled CLI: build it (or find it built) while the stack starts.
    [stack, bundled] = await Promise.all([startStack({ ledger: true }), bundleLedger()]);
    t = await createLedgerTenant(stack, GENEROUS);
    work = await mkdtemp(path.join(os.tmpdir(), 'ledger-bundles-'));
  }, 60_000);
  afterAll(async () => {
    await stack.stop();
    await rm(work, { recursive: true, force: true });
  });

  async function streamWithFacts(count: number) {
    const streamId = `b-${++n}`;
    const c = ledgerClient(stack.ledger.url, t.writerKey);
    for (let i = 0; i < count; i++)
      await c.post(`/streams/${streamId}/facts`, sealBody(t.tenantId, { custom_payload: { i, text: `ünïcode ${i}` } })).expect(201);
    return streamId;
  }
  const keys = async () => (await request(stack.ledger.url).get('/.well-known/ledger-keys').expect(200)).body;
  const allFacts = async (streamId: string) =>
    (await ledgerClient(stack.ledger.url, t.readOnlyKey).get(`/streams/${streamId}/facts?limit=1000`).expect(200)).body;

  const check = (bundle: object, keySet: object, facts: { facts: object[] } | object[]) =>
    verifyBundle({ bundle, keys: keySet, facts: Array.isArray(facts) ? facts : facts.facts });

  /** Writes API output to files and runs the standalone verifier on them. */
  /** The script on files: each input an object, or the text to write as it is. */
  async function verifyFiles(bundle: object | string, keySet: object, facts: object | string) {
    const dir = await mkdtemp(path.join(work, 'case-'));
    const files = { bundle: path.join(dir, 'bundle.json'), keys: path.join(dir, 'keys.json'), facts: path.join(dir, 'facts.json') };
    const text = (x: object | string) => (typeof x === 'string' ? x : JSON.stringify(x));
    await Promise.all([writeFile(files.bundle, text(bundle)), writeFile(files.keys, text(keySet)), writeFile(files.facts, text(facts))]);
    return runVerifier(['--bundle', files.bundle, '--keys', files.keys, '--facts', files.facts]);
  }

  it('creates a bundle of the stream up to its head, signed with Ed25519 over its canonical JSON', async () => {
    const streamId = await streamWithFacts(3);
    const listed = await allFacts(streamId);
    const res = await ledgerClient(stack.ledger.url, t.readOnlyKey).post(`/streams/${streamId}/bundles`).expect(201);
    const bundle: Bundle = res.body;
    expect(bundle).toEqual({
      bundle_id: expect.stringMatching(/^bnd-[0-9a-f]{24}$/),
      stream_id: streamId,
      tenant_id: t.tenantId,
      bundle_version: 1,
      head_fact_id: listed.facts[2].fact_id,
      head_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      facts_manifest: listed.facts.map((f: { fact_id: string }) => f.fact_id),
      created_at_ms: expect.any(Number),
      created_at_iso: new Date(bundle.created_at_ms).toISOString(),
      signature: expect.any(String),
      signature_alg: 'ed25519',
      key_id: `ledger:${YEAR}`,
    });
    const head = await ledgerClient(stack.ledger.url, t.readOnlyKey).get(`/facts/${bundle.head_fact_id}`).expect(200);
    expect(bundle.head_hash).toBe(head.body.fact_hash);
    // Verified with node:crypto (the service signs with @noble/ed25519).
    const jwk = (await keys()).keys.find((k: { kid: string }) => k.kid === bundle.key_id);
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    expect(
      verify(null, Buffer.from(canonicalBundleWithoutSignature(bundle), 'utf8'), publicKey, Buffer.from(bundle.signature, 'base64')),
    ).toBe(true);
    expect(
      verify(
        null,
        Buffer.from(canonicalBundleWithoutSignature({ ...bundle, head_hash: `sha256:${'0'.repeat(64)}` })),
        publicKey,
        Buffer.from(bundle.signature, 'base64'),
      ),
    ).toBe(false);
  });

  it('gets a bundle exactly as created and lists bundles without manifests, page by page', async () => {
    const streamId = await streamWithFacts(2);
    const c = ledgerClient(stack.ledger.url, t.readOnlyKey);
    const first = (await c.post(`/streams/${streamId}/bundles`).expect(201)).body;
    await ledgerClient(stack.ledger.url, t.writerKey).post(`/streams/${streamId}/facts`, sealBody(t.tenantId)).expect(201);
    const second = (await c.post(`/streams/${streamId}/bundles`).expect(201)).body;
    expect(second.facts_manifest).toEqual([...first.facts_manifest, second.head_fact_id]);
    expect((await c.get(`/bundles/${first.bundle_id}`).expect(200)).body).toEqual(first);
    const page1 = await c.get(`/streams/${streamId}/bundles?limit=1`).expect(200);
    const { facts_manifest: _m, signature: _s, ...summary } = first;
    expect(page1.body.items).toEqual([{ ...summary, fact_count: 2 }]);
    const page2 = await c.get(`/streams/${streamId}/bundles?limit=1&cursor=${page1.body.next_cursor}`).expect(200);
    expect(page2.body).toEqual({ items: [expect.objectContaining({ bundle_id: second.bundle_id, fact_count: 3 })], next_cursor: null });
  });

  it('publishes the keys at /.well-known/ledger-keys without authentication', async () => {
    const res = await request(stack.ledger.url).get('/.well-known/ledger-keys').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.body.keys).toContainEqual({
      kid: `ledger:${YEAR}`,
      kty: 'OKP',
      crv: 'Ed25519',
      x: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      alg: 'EdDSA',
      use: 'sig',
      not_before: expect.any(String),
      not_after: null,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/"d"|private/);
  });

  describe('the standalone verifier (scripts/verify-ledger-bundle.mjs)', () => {
    let bundle: Bundle;
    let facts: { facts: Array<Record<string, unknown>> };
    let keySet: object;

    beforeAll(async () => {
      const streamId = await streamWithFacts(4);
      bundle = (await ledgerClient(stack.ledger.url, t.readOnlyKey).post(`/streams/${streamId}/bundles`).expect(201)).body;
      // The stream grows after the bundle: the verifier checks the prefix the bundle covers.
      await ledgerClient(stack.ledger.url, t.writerKey).post(`/streams/${streamId}/facts`, sealBody(t.tenantId)).expect(201);
      facts = await allFacts(streamId);
      keySet = await keys();
    });

    it('accepts the bundle and list output of the running service', async () => {
      const { code, report } = await verifyFiles(bundle, keySet, facts);
      expect(report).toMatchObject({ valid: true, signature_valid: true, facts_verified: 4, facts_in_manifest: 4, errors: [] });
      expect(code).toBe(0);
    });

    it('refuses files JSON.parse would read as other values than they show: a repeated member name, an inexact number (exit 2)', async () => {
      // A reader sees the first tenant_id; JSON.parse keeps the last, which the signature covers.
      const repeated = `{"tenant_id":"tnt-someone-else",${JSON.stringify(bundle).slice(1)}`;
      const twice = await verifyFiles(repeated, keySet, facts);
      expect([twice.code, twice.report]).toEqual([2, null]);
      expect(twice.stderr).toMatch(/the member name "tenant_id" is repeated in one object/);
      // 1.00000000000000000001 reads as 1, the value the fact was sealed with.
      const text = JSON.stringify(facts);
      const inexact = text.replace('"i":1,', '"i":1.00000000000000000001,');
      expect(inexact).not.toBe(text);
      const rounded = await verifyFiles(bundle, keySet, inexact);
      expect([rounded.code, rounded.report]).toEqual([2, null]);
      expect(rounded.stderr).toMatch(/the number 1.00000000000000000001 cannot be read exactly/);
      // The same files written plainly verify, and a created_at_ms that is not a number is refused, not thrown on.
      expect((await verifyFiles(JSON.stringify(bundle), keySet, text)).code).toBe(0);
      expect(check({ ...bundle, created_at_ms: String(bundle.created_at_ms) } as unknown as Bundle, keySet, facts.facts).errors).toEqual([
        'created_at_ms is not a count of milliseconds',
      ]);
    });

    it('accepts full facts (GET /facts/{id}) as well as list entries', async () => {
      const full = await Promise.all(
        bundle.facts_manifest.map(async (id) => (await ledgerClient(stack.ledger.url, t.readOnlyKey).get(`/facts/${id}`).expect(200)).body),
      );
      expect(check(bundle, keySet, full)).toMatchObject({ valid: true, facts_verified: 4 });
    });

    it("fetches everything itself with --url: with the keys you hold (--trust) exit 0, with the ledger's own keys unpinned, exit 3", async () => {
      const trust = path.join(await mkdtemp(path.join(work, 'trust-')), 'trust.json');
      /** The script fetching the bundle, with the ledger keys held in a trust file of `tenantId`. */
      const withTrustOf = async (tenantId: string) => {
        await writeFile(
          trust,
          JSON.stringify({ format: 'arbiter.trust', version: 1, tenant_id: tenantId, jwks: { keys: [] }, ledger_keys: keySet }),
        );
        return runVerifier(['--url', stack.ledger.url, '--api-key', t.readOnlyKey, '--bundle-id', bundle.bundle_id, '--trust', trust]);
      };
      const pinned = await withTrustOf(t.tenantId);
      expect(pinned.report).toMatchObject({ valid: true, facts_verified: 4, pinned: true, tenant_id: t.tenantId });
      expect(pinned.code).toBe(0);
      // The trust file of another tenant: the same ledger keys sign its bundles, so this one is not its data.
      const otherTenant = await withTrustOf('tnt-somebodyelse');
      expect(otherTenant.report).toMatchObject({
        valid: false,
        errors: [`the bundle is of tenant ${t.tenantId}, not of tnt-somebodyelse whose trust file was given`],
      });
      expect(otherTenant.code).toBe(1);
      const { code, report } = await runVerifier(['--url', stack.ledger.url, '--api-key', t.readOnlyKey, '--bundle-id', bundle.bundle_id]);
      expect(report).toMatchObject({ valid: true, facts_verified: 4, pinned: false });
      expect(code).toBe(3);
    });

    it('refuses list output whose payload was changed, since the chain no longer reaches the signed head (exit code 1)', async () => {
      const tampered = structuredClone(facts);
      tampered.facts[1].custom_payload = { i: 1, text: 'changed' };
      const { code, report } = await verifyFiles(bundle, keySet, tampered);
      expect(code).toBe(1);
      expect(report).toMatchObject({ valid: false, signature_valid: true, facts_verified: 0 });
      expect((report!.errors as string[])[0]).toMatch(/not at the signed head_hash/);
    });

    it('names the changed fact when given full facts, which carry their own fact_hash', async () => {
      const full = await Promise.all(
        bundle.facts_manifest.map(async (id) => (await ledgerClient(stack.ledger.url, t.readOnlyKey).get(`/facts/${id}`).expect(200)).body),
      );
      full[1].actor = 'someone else';
      const report = check(bundle, keySet, full);
      expect(report).toMatchObject({ valid: false, facts_verified: 1 });
      expect(report.errors[0]).toMatch(new RegExp(`^chain broken at fact ${bundle.facts_manifest[1]} \\(position 2\\): fact_hash is`));
    });

    it('refuses facts in another order or with one left out', () => {
      const swapped = structuredClone(facts);
      [swapped.facts[1], swapped.facts[2]] = [swapped.facts[2], swapped.facts[1]];
      expect(check(bundle, keySet, swapped).errors[0]).toMatch(/the manifest has/);
      const missing = structuredClone(facts);
      missing.facts.splice(2, 1);
      expect(check(bundle, keySet, missing).valid).toBe(false);
    });

    it('refuses a bundle whose signed content or signature was changed', () => {
      expect(check({ ...bundle, head_hash: `sha256:${'1'.repeat(64)}` }, keySet, facts)).toMatchObject({
        valid: false,
        signature_valid: false,
        errors: ['the bundle signature does not verify'],
      });
      expect(check({ ...bundle, facts_manifest: bundle.facts_manifest.slice(0, 3) }, keySet, facts).valid).toBe(false);
      const sig = Buffer.from(bundle.signature, 'base64');
      sig[0] ^= 1;
      expect(check({ ...bundle, signature: sig.toString('base64') }, keySet, facts).signature_valid).toBe(false);
      expect(check({ ...bundle, extra: 1 }, keySet, facts).errors[0]).toMatch(/unknown field extra/);
    });

    it('refuses a bundle signed by a key that is not published', () => {
      expect(check(bundle, { keys: [] }, facts).errors).toEqual([`key ${bundle.key_id} is not among the published ledger keys`]);
    });
  });

  describe('key rotation', () => {
    it('is for platform admins only (403 FORBIDDEN for a tenant admin)', async () => {
      const res = await ledgerClient(stack.ledger.url, t.adminKey).post('/admin/signing-keys/rotate', { mode: 'emergency' }).expect(403);
      expect(res.body).toEqual({
        code: 'FORBIDDEN',
        message: 'Missing permission: platform_admin',
        details: { permission: 'platform_admin' },
      });
    });

    it('refuses a scheduled rotation while this year’s key exists, and an unknown mode', async () => {
      const admin = ledgerClient(stack.ledger.url, stack.registry.adminKey);
      const res = await admin.post('/admin/signing-keys/rotate', { mode: 'scheduled' }).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/already has a key of epoch/) });
      await admin.post('/admin/signing-keys/rotate', { mode: 'weekly' }).expect(400);
    });

    it('rotates at once on an emergency, keeps the old key published, and old bundles stay verifiable', async () => {
      const streamId = await streamWithFacts(2);
      const before = (await ledgerClient(stack.ledger.url, t.readOnlyKey).post(`/streams/${streamId}/bundles`).expect(201)).body;
      const res = await ledgerClient(stack.ledger.url, stack.registry.adminKey)
        .post('/admin/signing-keys/rotate', { mode: 'emergency' })
        .expect(201);
      expect(res.body).toMatchObject({
        mode: 'emergency',
        key_id: expect.stringMatching(new RegExp(`^ledger:${YEAR}\\.\\d+$`)),
        retired: [before.key_id],
      });
      const published = await keys();
      expect(published).toEqual({
        keys: res.body.keys,
        transitions: [
          expect.objectContaining({
            key: expect.objectContaining({ kid: res.body.key_id }),
            retired: [{ kid: before.key_id, not_after: expect.any(String) }],
          }),
        ],
      });
      const old = published.keys.find((k: { kid: string }) => k.kid === before.key_id);
      expect(old.not_after).not.toBeNull();
      expect(published.keys.find((k: { kid: string }) => k.kid === res.body.key_id).not_after).toBeNull();

      const after = (await ledgerClient(stack.ledger.url, t.readOnlyKey).post(`/streams/${streamId}/bundles`).expect(201)).body;
      expect(after.key_id).toBe(res.body.key_id);
      const facts = await allFacts(streamId);
      expect(check(before, published, facts).valid).toBe(true);
      expect(check(after, published, facts).valid).toBe(true);
      // A bundle claiming a time after its key's retirement is refused.
      expect(
        check({ ...before, created_at_ms: after.created_at_ms, created_at_iso: after.created_at_iso }, published, facts).errors[0],
      ).toMatch(/was not valid at/);
    });

    it('rotates from the command line (ledger-cli keys rotate), and the running service signs with the new key', async () => {
      const env = processEnv(stack.env('ledger'));
      const rotated = await runCli(bundled.cli, ['keys', 'rotate', '--mode', 'emergency'], env);
      expect(rotated.code).toBe(0);
      const out = JSON.parse(rotated.stdout);
      expect(out).toMatchObject({ mode: 'emergency', key_id: expect.stringMatching(/^ledger:\d{4}\.\d+$/) });
      // Independent of each other: run at once (each is a process start).
      const [list, scheduled, wrongKey] = await Promise.all([
        runCli(bundled.cli, ['keys', 'list'], env),
        runCli(bundled.cli, ['keys', 'rotate', '--mode', 'scheduled'], env),
        runCli(bundled.cli, ['keys', 'list'], { ...env, KEY_ENCRYPTION_KEY: 'short' }),
      ]);
      expect(JSON.parse(list.stdout)).toEqual({ keys: (await keys()).keys });
      expect(scheduled.code).toBe(1);
      expect(scheduled.stderr).toMatch(/already has a key of epoch/);
      expect(wrongKey.code).toBe(1);
      expect(wrongKey.stderr).toMatch(/KEY_ENCRYPTION_KEY/);
      const streamId = await streamWithFacts(1);
      const bundle = (await ledgerClient(stack.ledger.url, t.readOnlyKey).post(`/streams/${streamId}/bundles`).expect(201)).body;
      expect(bundle.key_id).toBe(out.key_id);
      expect(check(bundle, await keys(), await allFacts(streamId)).valid).toBe(true);
    }, 30_000);
  });
});
