import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRegistryClient, type ProofBundle, type VerdictClient } from '@arbiter/client';
import { startReceiver, type Receiver } from '../../apps/registry/test/receiver';
import { buildBin, cli, flipSegment, runBin, sha256Of } from './cli-harness';
import { startStack, type Stack } from './stack';
import { eventually } from '@arbiter/testing';
import { ledgerAs, provisionTenant, transfer, verdictAs, type SdkTenant } from './sdk-harness';

const year = new Date().getUTCFullYear();

/** The `arbiter` CLI against the running services, and every verify command against what they made and tampered copies. */
describe('arbiter CLI', () => {
  let stack: Stack;
  let t: SdkTenant;
  let agent: VerdictClient;
  let dir: string;
  let env: Record<string, string>;
  let arbiter: ReturnType<typeof cli>;
  const file = (name: string) => path.join(dir, name);
  const write = async (name: string, value: unknown) => {
    await writeFile(file(name), typeof value === 'string' ? value : JSON.stringify(value, null, 2));
    return file(name);
  };

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true, worker: true });
    t = await provisionTenant(stack, 'cli');
    agent = verdictAs(stack, t.agentKey, t.id);
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-cli-'));
    env = {
      ARBITER_VERDICT_URL: stack.verdict.url,
      ARBITER_LEDGER_URL: stack.ledger.url,
      ARBITER_REGISTRY_URL: stack.registry.url,
      ARBITER_API_KEY: t.agentKey,
    };
    arbiter = cli(env);
  });
  afterAll(async () => {
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  describe('keys rotate', () => {
    it('rotates the verdict key of a tenant (emergency), and refuses a scheduled rotation that is not due with exit 1', async () => {
      await agent.check(transfer(1)); // the tenant's first key
      const r = await arbiter('keys', 'rotate', 'verdict', '--mode', 'emergency', '--api-key', t.adminKey);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`new kid ${t.id}:${year}.1`);
      expect(r.stderr).toContain('rotating the verdict signing key');
      const again = await arbiter('keys', 'rotate', 'verdict', '--api-key', t.adminKey);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/refused: 409 rotation_not_due/);
      // The refusal explains itself: on a fresh install this year's key always exists (docs/cli.md "Rotating keys").
      expect(again.stderr).toContain(
        'a scheduled rotation is due from 1 January (UTC) of next year, and the gateway makes it by itself at its first signature then; --mode emergency rotates now',
      );
    });

    it('rotates the ledger and registry keys with a platform admin key, and refuses an agent', async () => {
      const ledger = await arbiter('--json', 'keys', 'rotate', 'ledger', '--mode', 'emergency', '--api-key', stack.registry.adminKey);
      expect(ledger.code).toBe(0);
      expect(ledger.json()).toMatchObject({ service: 'ledger', mode: 'emergency', key_id: `ledger:${year}.1` });
      const registry = await arbiter('keys', 'rotate', 'registry', '--mode', 'emergency', '--api-key', stack.registry.adminKey);
      expect(registry.code).toBe(0);
      expect(registry.stdout).toMatch(/registry webhook signing key rotated \(emergency\): new kid \S+/);
      const scheduled = await arbiter('keys', 'rotate', 'registry', '--mode', 'scheduled', '--api-key', stack.registry.adminKey);
      expect(scheduled).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/registry service refused: 400 .*of next year; --mode emergency rotates now/),
      });
      const refused = await arbiter('keys', 'rotate', 'ledger', '--mode', 'emergency');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/ledger service refused: 403 FORBIDDEN/);
    });

    it('exits 2 on a usage error and when a service cannot be reached', async () => {
      expect((await arbiter('keys', 'rotate', 'mailer')).stderr).toContain('unknown service mailer');
      const down = await cli({ ...env, ARBITER_LEDGER_URL: 'http://127.0.0.1:1' })('keys', 'rotate', 'ledger', '--mode', 'emergency');
      expect(down.code).toBe(2);
      expect(down.stderr).toContain('cannot reach the ledger service');
    });
  });

  describe('verify verdict', () => {
    let jws: string;
    let jwksUrl: string;
    let jwksFile: string;
    let exp: number;
    beforeAll(async () => {
      jws = (await agent.check(transfer(300))).signed_verdict;
      exp = JSON.parse(Buffer.from(jws.split('.')[1], 'base64url').toString()).exp;
      jwksUrl = await agent.jwksUrl();
      jwksFile = await write('jwks.json', await (await fetch(jwksUrl)).json());
    });

    it('accepts a verdict the service signed, with the key set by URL or from a file', async () => {
      const byUrl = await arbiter('verify', 'verdict', jws, '--jwks', jwksUrl);
      expect(byUrl.code).toBe(0);
      expect(byUrl.stdout).toMatch(/^signed verdict: VALID\n {2}\[ok\] {3}signature/);
      const byFile = await arbiter('--json', 'verify', 'verdict', await write('verdict.jws', `${jws}\n`), '--jwks', jwksFile);
      expect(byFile.code).toBe(0);
      expect(byFile.json()).toMatchObject({ valid: true, claims: { verdict: 'allowed', tenant_id: t.id } });
    });

    it('fails a changed byte with invalid_signature', async () => {
      const r = await arbiter('verify', 'verdict', flipSegment(jws, 1), '--jwks', jwksFile);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/INVALID \(1 check failed\)\n {2}\[FAIL\] invalid_signature {2}the ES256 signature does not verify/);
    });

    it('fails a wrong kid with unknown_kid, listing the keys there are', async () => {
      const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: `${t.id}:1999`, typ: 'JWT' })).toString('base64url');
      const r = await arbiter('verify', 'verdict', [header, ...jws.split('.').slice(1)].join('.'), '--jwks', jwksFile);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`unknown_kid  no key ${t.id}:1999 in the tenant's key set (2 keys: ${t.id}:${year}, ${t.id}:${year}.1)`);
    });

    it('fails an expired verdict, and accepts it as evidence with --allow-expired', async () => {
      const at = new Date((exp + 1) * 1000).toISOString();
      const r = await arbiter('verify', 'verdict', jws, '--jwks', jwksFile, '--at', at);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`[FAIL] expired  the verdict expired at ${new Date(exp * 1000).toISOString()}`);
      expect((await arbiter('verify', 'verdict', jws, '--jwks', jwksFile, '--at', at, '--allow-expired')).code).toBe(0);
    });

    it('refuses an --at that names no instant: a day the month lacks, no offset (exit 2)', async () => {
      for (const at of ['2026-02-30T10:00:00Z', '2026-03-01T10:00:00']) {
        const r = await arbiter('verify', 'verdict', jws, '--jwks', jwksFile, '--at', at);
        expect([at, r.code, r.stderr]).toEqual([at, 2, `arbiter: --at ${at} is not an ISO 8601 time with Z or an offset\n`]);
      }
    });
  });

  describe('verify consultation', () => {
    let id: string;
    let record: Record<string, unknown>;
    let jwksFile: string;
    beforeAll(async () => {
      id = (await agent.check(transfer(400))).consultation_id;
      record = (await agent.getConsultation(id)) as unknown as Record<string, unknown>;
      jwksFile = await write('jwks-c.json', await (await fetch(await agent.jwksUrl())).json());
    });

    it('recomputes the hashes of a record the service made (checked here with an independent RFC 8785)', async () => {
      const { normative_hash, signed_verdict: _s, ...rest } = record;
      expect(sha256Of(rest)).toBe(normative_hash);
      // Fetched with the key set of the service that served it: unpinned (exit 3); with a key set you hold: valid.
      const byId = await arbiter('verify', 'consultation', id);
      expect(byId.code).toBe(3);
      expect(byId.stdout).toContain(`consultation ${id}: UNPINNED`);
      const byIdPinned = await arbiter('verify', 'consultation', id, '--jwks', jwksFile);
      expect(byIdPinned.code).toBe(0);
      expect(byIdPinned.stdout).toContain(`consultation ${id}: VALID`);
      const byFile = await arbiter('--json', 'verify', 'consultation', await write('record.json', record), '--jwks', jwksFile);
      expect(byFile.json()).toMatchObject({
        valid: true,
        checks: expect.arrayContaining([expect.objectContaining({ check: 'normative_hash', status: 'pass' })]),
      });
    });

    it('fails a changed record with the hash and the claim that no longer match', async () => {
      const r = await arbiter(
        'verify',
        'consultation',
        await write('record-bad.json', { ...record, verdict: 'blocked' }),
        '--jwks',
        jwksFile,
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('[FAIL] normative_hash');
      expect(r.stdout).toContain('a member of the record was changed after the decision');
      expect(r.stdout).toContain('the signed verdict is "allowed", the record\'s verdict is "blocked"');
    });

    it('needs a key set for a saved record', async () => {
      const r = await arbiter('verify', 'consultation', file('record.json'));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('give --trust <file> (arbiter trust export) or --jwks <file|url>');
    });
  });

  describe('verify bundle', () => {
    let bundle: ProofBundle;
    let files: { bundle: string; facts: string; keys: string };
    beforeAll(async () => {
      const ledger = ledgerAs(stack, t.agentKey);
      const stream = `cli-${Date.now()}`;
      for (const n of [1, 2, 3]) await ledger.seal(stream, { tenant_id: t.id, actor: `agent:${n}`, custom_payload: { n, note: 'café ✓' } });
      bundle = await ledger.createBundle(stream);
      files = {
        bundle: await write('bundle.json', bundle),
        facts: await write('facts.json', await ledger.listFacts(stream, { limit: 1000 })),
        keys: await write('ledger-keys.json', await ledgerAs(stack).keys()),
      };
    });

    it('verifies a bundle from saved API output, and fetched by id with progress on stderr', async () => {
      const r = await arbiter('verify', 'bundle', files.bundle, '--facts', files.facts, '--keys', files.keys);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('3 facts chain from the genesis hash to the signed head_hash');
      // Fetched with the keys of the ledger that served it: unpinned (exit 3); with keys you hold: valid.
      const byId = await arbiter('--json', 'verify', 'bundle', bundle.bundle_id);
      expect(byId.json()).toMatchObject({ valid: false, status: 'unpinned', facts_verified: 3 });
      expect(byId.code).toBe(3);
      expect(byId.stderr).toContain('facts: 3/3');
      expect((await arbiter('--json', 'verify', 'bundle', bundle.bundle_id, '--keys', files.keys)).json()).toMatchObject({
        valid: true,
        status: 'valid',
      });
    });

    it('fails a changed byte of a fact', async () => {
      const text = await readFile(files.facts, 'utf8');
      const r = await arbiter(
        'verify',
        'bundle',
        files.bundle,
        '--facts',
        await write('facts-bad.json', text.replace('café', 'cafe')),
        '--keys',
        files.keys,
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('not at the signed head_hash');
    });

    it('fails a reordered chain, saying the facts are out of order', async () => {
      const page = JSON.parse(await readFile(files.facts, 'utf8'));
      page.facts = [page.facts[1], page.facts[0], page.facts[2]];
      const r = await arbiter('verify', 'bundle', files.bundle, '--facts', await write('facts-reordered.json', page), '--keys', files.keys);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('the facts are out of order');
    });

    it('fails a changed signed field, and a key id that is not published', async () => {
      const changed = await arbiter(
        'verify',
        'bundle',
        await write('bundle-bad.json', {
          ...bundle,
          created_at_ms: bundle.created_at_ms + 1000,
          created_at_iso: new Date(bundle.created_at_ms + 1000).toISOString(),
        }),
        '--facts',
        files.facts,
        '--keys',
        files.keys,
      );
      expect(changed.code).toBe(1);
      expect(changed.stdout).toContain('the Ed25519 signature does not verify');
      const wrongKid = await arbiter(
        'verify',
        'bundle',
        await write('bundle-kid.json', { ...bundle, key_id: 'ledger:1999' }),
        '--facts',
        files.facts,
        '--keys',
        files.keys,
      );
      expect(wrongKid.stdout).toContain('key ledger:1999 is not among the published ledger keys');
    });

    it("holds a bundle to the trust file's tenant: the ledger's keys sign every tenant's bundles", async () => {
      const trustFile = file('bundle-trust.json');
      await agent.check(transfer(10)); // the tenant's first check makes its signing key, which the trust file holds
      expect((await arbiter('trust', 'export', '--tenant', t.slug, '--out', trustFile)).code).toBe(0);
      const own = await arbiter('verify', 'bundle', files.bundle, '--facts', files.facts, '--trust', trustFile);
      expect(own.code).toBe(0);
      expect(own.stdout).toContain(`of tenant "${t.id}"`);
      // Another tenant's trust file (its own verdict keys, the same ledger keys): this bundle is not its data.
      const trust = JSON.parse(await readFile(trustFile, 'utf8'));
      const other = await write('other-trust.json', { ...trust, tenant_id: 'tnt-somebodyelse', jwks: { keys: [] } });
      const refused = await arbiter('verify', 'bundle', files.bundle, '--facts', files.facts, '--trust', other);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain(`the bundle is of tenant "${t.id}", not of tnt-somebodyelse whose trust file was given`);
    });
  });

  describe('verify webhook', () => {
    let receiver: Receiver;
    let delivery: { raw: string; timestamp: string; signature: string; kid: string; subscriptionId: string };
    beforeAll(async () => {
      receiver = await startReceiver();
      const admin = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
      const created = await admin.raw.POST('/api/v1/webhooks', { body: { url: receiver.url, events: ['rule.created'] } });
      expect(created.response.status).toBe(201);
      const scope = await admin.createScope({ name: 'webhook-test' });
      await admin.createRule(scope.id, { directive: 'Notify me', severity: 'ADVISORY', applies_to: { actions: ['notify.*'] } });
      const got = await eventually('a webhook delivery', async () => receiver.received.find((r) => r.body.type === 'rule.created'));
      delivery = {
        raw: got.raw,
        timestamp: String(got.headers['x-service-timestamp']),
        signature: String(got.headers['x-service-signature']),
        kid: String(got.headers['x-service-key-id']),
        subscriptionId: (created.data as { id: string }).id,
      };
    });
    afterAll(() => receiver?.close());

    it('verifies a real delivery against the published key set by URL, and with a PEM file', async () => {
      const keyUrl = `${stack.registry.url}/.well-known/webhook-key`;
      const body = await write('delivery.json', delivery.raw);
      const r = await arbiter(
        'verify',
        'webhook',
        '--body',
        body,
        '--timestamp',
        delivery.timestamp,
        '--signature',
        delivery.signature,
        '--key',
        keyUrl,
        '--key-id',
        delivery.kid,
        '--max-age',
        '600',
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`ECDSA P-256 signature valid with ${delivery.kid}`);
      const keys = (await (await fetch(keyUrl)).json()) as { keys: { kid: string; pem: string }[] };
      const pem = await write('webhook.pem', keys.keys.find((k) => k.kid === delivery.kid)!.pem);
      expect(
        (
          await arbiter(
            'verify',
            'webhook',
            '--body',
            body,
            '--timestamp',
            delivery.timestamp,
            '--signature',
            delivery.signature,
            '--key',
            pem,
          )
        ).code,
      ).toBe(0);
    });

    it('with --tenant and --subscription, passes the delivery made for that subscription and fails it for another', async () => {
      const body = await write('delivery-bound.json', delivery.raw);
      const args = (subscription: string) => [
        'verify',
        'webhook',
        '--body',
        body,
        '--timestamp',
        delivery.timestamp,
        '--signature',
        delivery.signature,
        '--key',
        `${stack.registry.url}/.well-known/webhook-key`,
        '--tenant',
        t.id,
        '--subscription',
        subscription,
      ];
      expect(await arbiter(...args(delivery.subscriptionId))).toMatchObject({
        code: 0,
        stdout: expect.stringContaining(`subscription_id is ${delivery.subscriptionId}`),
      });
      expect(await arbiter(...args('whk-000000000000000000000000'))).toMatchObject({
        code: 1,
        stdout: expect.stringContaining('made for another subscription'),
      });
    });

    it('fails a changed byte of the body', async () => {
      const body = await write('delivery-bad.json', delivery.raw.replace('rule.created', 'rule.createD'));
      const r = await arbiter(
        'verify',
        'webhook',
        '--body',
        body,
        '--timestamp',
        delivery.timestamp,
        '--signature',
        delivery.signature,
        '--key',
        `${stack.registry.url}/.well-known/webhook-key`,
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('the body, the timestamp or the signature was changed');
    });
  });

  describe('evidence', () => {
    let consultationId: string;
    let packFile: string;
    let trustFile: string;
    beforeAll(async () => {
      const first = await agent.check(transfer(30000));
      consultationId = first.consultation_id;
      const approval = await agent.createApproval({ consultation_id: consultationId, requester_notes: 'evidence test' });
      await verdictAs(stack, t.cfoKey, t.id).decideApproval(approval.id, { decision: 'approve', decider_notes: 'checked' });
      packFile = file('pack.json');
      trustFile = file('trust.json');
      expect((await arbiter('trust', 'export', '--tenant', t.slug, '--out', trustFile)).code).toBe(0);
      // Packs are version 2: the export waits for nothing, so the test waits until the worker sealed the consultation.
      await eventually('the consultation sealed in the ledger', () =>
        agent.getConsultationEvidence(consultationId).then(
          () => true,
          () => undefined,
        ),
      );
    });

    it('exports a self-contained pack with progress on stderr', async () => {
      const r = await arbiter('evidence', 'export', consultationId, '--out', packFile);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        new RegExp(
          `wrote .*pack\\.json: consultation ${consultationId} \\(approval_required\\), 2 keys, 1 rule versions, .*ledger fact fct-\\S+ \\(leaf \\d+ of \\d+\\); pack version 3; self-check passed against the pack's own keys`,
        ),
      );
      expect(r.stderr).toContain('… rule version 1/1');
      expect(r.stderr).toContain('… ledger evidence');
      const pack = JSON.parse(await readFile(packFile, 'utf8'));
      expect(pack).toMatchObject({
        format: 'arbiter.evidence-pack',
        version: 3,
        consultation: { id: consultationId },
        rule_versions: [{ rule_id: t.rules.large }],
        ledger: { fact: { stream_id: `arbiter.${t.id}.consultations`, client_ref: consultationId } },
      });
    });

    it("puts the consultation's decided approval in the pack", async () => {
      const pack = JSON.parse(await readFile(packFile, 'utf8'));
      expect(pack).toMatchObject({
        approvals_available: true,
        approvals: [{ consultation_id: consultationId, status: 'approved', decider: t.cfoId }],
      });
    });

    it('verifies the pack with no network at all, against the trust file', async () => {
      const r = await cli({}, { offline: true })('verify', 'evidence', packFile, '--trust', trustFile);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`evidence pack of ${consultationId}: VALID`);
      expect(r.stdout).toContain('[ok]   consultation.signature');
      expect(r.stdout).toContain('[ok]   ledger.inclusion');
      expect(r.stdout).toContain('[ok]   ledger.checkpoint.signature');
    });

    it('fails a tampered pack, saying what is wrong', async () => {
      const pack = JSON.parse(await readFile(packFile, 'utf8'));
      const offline = cli({}, { offline: true });
      const changedRecord = await offline(
        'verify',
        'evidence',
        await write('pack-record.json', { ...pack, consultation: { ...pack.consultation, parameters: { transfer: { amount: 3 } } } }),
      );
      expect(changedRecord.code).toBe(1);
      expect(changedRecord.stdout).toContain('[FAIL] consultation.normative_hash');
      expect(changedRecord.stdout).toContain('consultation.claims.parameters');
      // The signing key neither in the key set nor in the key history (which would bring it back).
      const noKeys = await offline(
        '--json',
        'verify',
        'evidence',
        await write('pack-keys.json', {
          ...pack,
          jwks: { keys: pack.jwks.keys.filter((k: { kid: string }) => k.kid !== pack.consultation.signing_kid) },
          key_history: { ...pack.key_history, facts: [], checkpoint: null },
        }),
      );
      expect(noKeys.json()).toMatchObject({
        valid: false,
        checks: expect.arrayContaining([
          expect.objectContaining({ check: 'consultation.signature', message: expect.stringMatching(/^unknown_kid/) }),
        ]),
      });
      const missingVersion = await offline('verify', 'evidence', await write('pack-rv.json', { ...pack, rule_versions: [] }));
      expect(missingVersion.stdout).toContain('cited rule versions missing from the pack');
      if (pack.approvals.length) {
        const otherOp = await offline(
          'verify',
          'evidence',
          await write('pack-apr.json', { ...pack, approvals: [{ ...pack.approvals[0], intended_resource: 'acct:eu/1' }] }),
        );
        expect(otherOp.stdout).toContain("intended_resource acct:eu/1 is not the consultation's resource");
      }
    });
  });

  describe('the built bin', () => {
    let binary: string;
    beforeAll(async () => {
      binary = await buildBin(path.join(dir, 'bin', 'arbiter.js'));
    });

    it('runs from a file of its own: --json on stdout, exit 0 when valid and 1 when not', async () => {
      const ok = await runBin(binary, [
        '--json',
        'verify',
        'bundle',
        file('bundle.json'),
        '--facts',
        file('facts.json'),
        '--keys',
        file('ledger-keys.json'),
      ]);
      expect(ok.code).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ valid: true, facts_verified: 3 });
      const bad = await runBin(binary, [
        'verify',
        'bundle',
        file('bundle.json'),
        '--facts',
        file('facts-reordered.json'),
        '--keys',
        file('ledger-keys.json'),
      ]);
      expect(bad.code).toBe(1);
      expect(bad.stdout).toContain('INVALID');
      const usage = await runBin(binary, ['verify', 'verdict', 'x']);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain("give the tenant's keys you hold: --trust <file> (arbiter trust export) or --jwks <file|url>");
    });
  });
});
