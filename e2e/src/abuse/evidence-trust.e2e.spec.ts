import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { p256 } from '@noble/curves/nist.js';
import { compactVerify, importJWK } from 'jose';
import { createLogger } from '@arbiter/http';
import { VerdictKeys } from '../../../apps/verdict/src/keys';
import { buildBin, jcs, runBin, sha256Of } from '../cli-harness';
import { checkpointSignatureHolds, rootFromPath, treeRootOf, type PublishedLedgerKey } from '../evidence-harness';
import { eventually } from '@arbiter/testing';
import { ledgerAs, provisionTenant, transfer, verdictAs, type SdkTenant } from '../sdk-harness';
import { startStack, type Stack } from '../stack';

/**
 * Evidence packs are verified against keys the verifier holds, not keys the pack carries
 * (docs/evidence.md "Trusted keys"). The CLI runs as a child process (the built bin), as a user runs it.
 *
 * The reproduction: a real pack of an approval_required consultation, changed to `allowed`, its
 * normative_hash recomputed, the verdict re-signed with a NEW P-256 key published in the pack under the
 * tenant's real kid, and the ledger's fact and checkpoint forged the same way. Before this change
 * `arbiter verify evidence` said VALID (exit 0).
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const year = new Date().getUTCFullYear();
const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');
const decode = (segment: string) => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
// docs/ledger-formats.md "fact_hash": sealed_by is a member when the fact has one (the forger gets it right).
const factHashOf = (f: Json, streamId: string, tenantId: string, prevHash: string) =>
  sha256Of({
    fact_id: f.fact_id,
    stream_id: streamId,
    tenant_id: tenantId,
    actor: f.actor,
    sealed_at_ms: f.sealed_at_ms,
    custom_payload: f.custom_payload,
    prev_hash: prevHash,
    ...(f.sealed_by !== undefined && f.sealed_by !== null ? { sealed_by: f.sealed_by } : {}),
  });

/** A compact ES256 JWS with `claims` under `header`, signed by node:crypto with `key`. */
const signJws = (header: string, claims: Json, key: KeyObject) => {
  const input = `${header}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
};
/** Ed25519 over the RFC 8785 form (cli-harness's own) of `unsigned`, base64. */
const signEd25519 = (unsigned: Json, key: KeyObject) => sign(null, Buffer.from(jcs(unsigned), 'utf8'), key).toString('base64');
const publicJwk = (key: KeyObject) => key.export({ format: 'jwk' }) as { x: string; y?: string };

describe('evidence packs verified against trust the verifier holds', () => {
  let stack: Stack;
  let t: SdkTenant;
  let dir: string;
  let binary: string;
  let env: Record<string, string>;
  const file = (name: string) => path.join(dir, name);
  const write = async (name: string, value: unknown) => (await writeFile(file(name), JSON.stringify(value, null, 2)), file(name));
  const read = async (name: string): Promise<Json> => JSON.parse(await readFile(file(name), 'utf8'));
  const arbiter = (...argv: string[]) => runBin(binary, argv, env);
  const failedChecks = (stdout: string) => (JSON.parse(stdout).checks as Json[]).filter((c) => c.status === 'fail').map((c) => c.check);

  /** A check of `tenant` whose consultation and current key are sealed in the ledger (the worker relays both). */
  async function sealedCheck(tenant: SdkTenant, amount: number): Promise<{ id: string; jws: string; kid: string }> {
    const agent = verdictAs(stack, tenant.agentKey, tenant.id);
    const answer = await agent.check(transfer(amount));
    const kid = decode(answer.signed_verdict.split('.')[0]).kid as string;
    await eventually('the consultation sealed', () =>
      agent.getConsultationEvidence(answer.consultation_id).then(
        () => true,
        () => undefined,
      ),
    );
    await keySealed(tenant, kid);
    return { id: answer.consultation_id, jws: answer.signed_verdict, kid };
  }

  const keySealed = (tenant: SdkTenant, kid: string) =>
    eventually(`key ${kid} sealed in the keys stream`, () =>
      ledgerAs(stack, tenant.agentKey)
        .listAllFacts(`arbiter.${tenant.id}.keys`)
        .then(
          (facts) => (facts.some((f) => f.custom_payload.kid === kid) ? true : undefined),
          () => undefined,
        ),
    );

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true, worker: true });
    t = await provisionTenant(stack, 'trust');
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-trust-'));
    binary = await buildBin(path.join(dir, 'bin', 'arbiter.js'));
    env = {
      ARBITER_VERDICT_URL: stack.verdict.url,
      ARBITER_LEDGER_URL: stack.ledger.url,
      ARBITER_REGISTRY_URL: stack.registry.url,
      ARBITER_API_KEY: t.agentKey,
    };
  });
  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  describe('a pack forged with new keys under the real kids', () => {
    let pack: Json;
    let trust: Json;
    beforeAll(async () => {
      const { id } = await sealedCheck(t, 30000);
      // The auditor's trust file, taken once, without an API key (public keys).
      const exported = await runBin(binary, ['trust', 'export', '--tenant', t.slug, '--out', file('trust.json')], {
        ARBITER_VERDICT_URL: stack.verdict.url,
        ARBITER_LEDGER_URL: stack.ledger.url,
      });
      expect(exported.code).toBe(0);
      expect(exported.stdout).toMatch(new RegExp(`^ {2}verdict {2}${t.id}:${year} {2}[A-Za-z0-9_-]{43} `, 'm'));
      trust = await read('trust.json');
      expect((await arbiter('evidence', 'export', id, '--out', file('pack.json'))).code).toBe(0);
      pack = await read('pack.json');
      expect(pack).toMatchObject({ version: 3, consultation: { verdict: 'approval_required' } });
    });

    /** The attack: `allowed`, re-hashed, re-signed by new keys published in the pack under the tenant's and the ledger's real kids. */
    function forge(original: Json): Json {
      const p = structuredClone(original);
      const record = p.consultation;
      record.verdict = 'allowed';
      const { normative_hash: _n, signed_verdict: _s, ...rest } = record;
      record.normative_hash = sha256Of(rest);
      const [header, payload] = record.signed_verdict.split('.');
      const verdictKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      record.signed_verdict = signJws(
        header,
        { ...decode(payload), verdict: 'allowed', normative_hash: record.normative_hash },
        verdictKey.privateKey,
      );
      const v = publicJwk(verdictKey.publicKey);
      p.jwks.keys = p.jwks.keys.map((k: Json) => (k.kid === record.signing_kid ? { ...k, x: v.x, y: v.y } : k));

      const fact = p.ledger.fact;
      fact.custom_payload = { ...fact.custom_payload, verdict: 'allowed', normative_hash: record.normative_hash };
      fact.fact_hash = factHashOf(fact, fact.stream_id, fact.tenant_id, fact.prev_hash);
      const ledgerKey = generateKeyPairSync('ed25519');
      const { signature: _c, ...checkpoint } = {
        ...p.ledger.checkpoint,
        root_hash: rootFromPath(fact.fact_hash, p.ledger.leaf_index, p.ledger.tree_size, p.ledger.inclusion_path)!,
      };
      p.ledger.checkpoint = { ...checkpoint, signature: signEd25519(checkpoint, ledgerKey.privateKey) };
      p.ledger.keys.keys = p.ledger.keys.keys.map((k: Json) =>
        k.kid === checkpoint.key_id ? { ...k, x: publicJwk(ledgerKey.publicKey).x } : k,
      );
      // The real key history names the real keys: the forger leaves it out.
      p.key_history = { stream_id: p.key_history.stream_id, facts: [], checkpoint: null };
      return p;
    }

    it('the trust file holds the keys that really signed (checked with @noble/curves and node:crypto)', () => {
      const [h, c, s] = pack.consultation.signed_verdict.split('.');
      const jwk = trust.jwks.keys.find((k: Json) => k.kid === pack.consultation.signing_kid);
      const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
      expect(p256.verify(Buffer.from(s, 'base64url'), Buffer.from(`${h}.${c}`), point, { lowS: false, prehash: true })).toBe(true);
      expect(checkpointSignatureHolds(pack.ledger.checkpoint, trust.ledger_keys.keys as PublishedLedgerKey[])).toBe(true);
    });

    it('verifies the untouched pack against the trust file: VALID, exit 0', async () => {
      const r = await arbiter('verify', 'evidence', file('pack.json'), '--trust', file('trust.json'));
      expect(r.stdout.split('\n')[0]).toBe(`evidence pack of ${pack.consultation.id}: VALID`);
      expect(r.code).toBe(0);
    });

    it('refuses the forged pack with the trust file: INVALID, exit 1, naming the signatures and the replaced keys', async () => {
      const forged = forge(pack);
      // The forgery is well made: its signature verifies (jose) with the key it publishes.
      const kid = forged.consultation.signing_kid;
      await expect(
        compactVerify(
          forged.consultation.signed_verdict,
          await importJWK({ ...forged.jwks.keys.find((k: Json) => k.kid === kid), alg: 'ES256' }),
        ),
      ).resolves.toBeDefined();
      const r = await arbiter('--json', 'verify', 'evidence', await write('forged.json', forged), '--trust', file('trust.json'));
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ valid: false, status: 'invalid' });
      expect(failedChecks(r.stdout)).toEqual(['trust.jwks', 'trust.ledger_keys', 'consultation.signature', 'ledger.checkpoint.signature']);
      expect((JSON.parse(r.stdout).checks as Json[]).find((c) => c.check === 'consultation.signature')?.message).toMatch(
        /^invalid_signature: the ES256 signature does not verify with key /,
      );
    });

    it('without --trust, says the keys are unpinned and exits 3 (never VALID)', async () => {
      const r = await arbiter('verify', 'evidence', file('forged.json'));
      expect(r.code).toBe(3);
      expect(r.stdout.split('\n')[0]).toMatch(new RegExp(`^evidence pack of ${pack.consultation.id}: UNPINNED `));
      expect(r.stdout).toMatch(/\[PIN\?\] trust +no trusted keys given/);
      expect(r.stdout).not.toContain('[FAIL]');
      expect((await arbiter('verify', 'evidence', file('pack.json'))).code).toBe(3);
    });

    it('applies the same to a record and a verdict: keys fetched from the service are unpinned, keys you hold decide', async () => {
      const fetched = await arbiter('verify', 'consultation', pack.consultation.id);
      expect(fetched.code).toBe(3);
      expect(
        (await arbiter('verify', 'consultation', await write('record.json', pack.consultation), '--trust', file('trust.json'))).code,
      ).toBe(0);
      const forgedRecord = forge(pack).consultation;
      const forgedRun = await arbiter(
        '--json',
        'verify',
        'consultation',
        await write('forged-record.json', forgedRecord),
        '--trust',
        file('trust.json'),
      );
      expect(failedChecks(forgedRun.stdout)).toEqual(['signature']);
      expect((await arbiter('verify', 'verdict', forgedRecord.signed_verdict, '--trust', file('trust.json'))).code).toBe(1);
      expect(
        (await arbiter('verify', 'verdict', pack.consultation.signed_verdict, '--trust', file('trust.json'), '--allow-expired')).code,
      ).toBe(0);
    });
  });

  describe('rotations after the trust file was taken', () => {
    it('scheduled (a new year): a pack signed by the new key verifies with the old trust file through the sealed key history', async () => {
      const t2 = await provisionTenant(stack, 'yearly');
      // The tenant's first key was made last year (the gateway's own key ring and recorder, its clock a year back).
      const lastYear = new Date(Date.UTC(year - 1, 5, 1));
      const ctx = stack.verdict.ctx;
      await new VerdictKeys(ctx.pool, ctx.config.KEY_ENCRYPTION_KEY, createLogger('test', 'silent'), () => lastYear).ensureCurrent(t2.id);
      await keySealed(t2, `${t2.id}:${year - 1}`);
      expect((await runBin(binary, ['trust', 'export', '--tenant', t2.id, '--out', file('trust-yearly.json')], env)).code).toBe(0);
      // The first check of this year rotates the ring on schedule, and seals the change.
      const { id, kid } = await sealedCheck(t2, 30000);
      expect(kid).toBe(`${t2.id}:${year}`);
      expect(
        (await runBin(binary, ['evidence', 'export', id, '--out', file('pack-yearly.json')], { ...env, ARBITER_API_KEY: t2.agentKey }))
          .code,
      ).toBe(0);
      const r = await arbiter('verify', 'evidence', file('pack-yearly.json'), '--trust', file('trust-yearly.json'));
      expect(r.stdout).toMatch(
        new RegExp(
          `\\[ok\\] {3}trust\\.keys_stream\\.${t2.id}:${year} +verdict key ${t2.id}:${year} accepted: sealed in the keys stream \\(scheduled, valid from [^)]+\\); retires ${t2.id}:${year - 1} at `,
        ),
      );
      expect(r.code).toBe(0);
    });

    describe("emergency (the tenant's key and the ledger's)", () => {
      let id: string;
      let jws: string;
      let kid: string;
      let pack: Json;
      beforeAll(async () => {
        expect((await arbiter('keys', 'rotate', 'verdict', '--mode', 'emergency', '--api-key', t.adminKey)).code).toBe(0);
        expect((await arbiter('keys', 'rotate', 'ledger', '--mode', 'emergency', '--api-key', stack.registry.adminKey)).code).toBe(0);
        ({ id, jws, kid } = await sealedCheck(t, 40000));
        expect(kid).toBe(`${t.id}:${year}.1`);
        expect((await arbiter('evidence', 'export', id, '--out', file('pack-rotated.json'))).code).toBe(0);
        pack = await read('pack-rotated.json');
        expect(pack.ledger.checkpoint.key_id).toBe(`ledger:${year}.1`);
      });

      it('verifies a pack of the new keys with the old trust file: the ledger key through its transition, the tenant key through the keys stream', async () => {
        const r = await arbiter('verify', 'evidence', file('pack-rotated.json'), '--trust', file('trust.json'));
        expect(r.stdout).toMatch(
          new RegExp(
            `\\[ok\\] {3}trust\\.ledger_transition\\.ledger:${year}\\.1 +ledger key ledger:${year}\\.1 accepted: introduced at \\S+ \\(emergency rotation\\) by trusted ledger:${year}`,
          ),
        );
        expect(r.stdout).toMatch(
          new RegExp(`\\[ok\\] {3}trust\\.keys_stream\\.${kid} +verdict key ${kid} accepted: sealed in the keys stream \\(emergency, `),
        );
        expect(r.stdout.split('\n')[0]).toBe(`evidence pack of ${id}: VALID`);
        expect(r.code).toBe(0);
      });

      it('leaves a key no verified history reaches untrusted', async () => {
        const bare = structuredClone(pack);
        bare.key_history = { stream_id: pack.key_history.stream_id, facts: [], checkpoint: null };
        const r = await arbiter('--json', 'verify', 'evidence', await write('bare.json', bare), '--trust', file('trust.json'));
        expect(r.code).toBe(1);
        expect((JSON.parse(r.stdout).checks as Json[]).find((c) => c.check === 'consultation.signature')?.message).toMatch(
          new RegExp(`^unknown_kid: no key ${kid} `),
        );
      });

      it('refuses a forged history: a changed key in a sealed fact, or a whole stream under a ledger key no trusted key introduced', async () => {
        const changed = structuredClone(pack);
        const fact = changed.key_history.facts.find((f: Json) => f.custom_payload.kid === kid);
        fact.custom_payload.public_jwk.x = publicJwk(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey).x;
        const one = await arbiter(
          '--json',
          'verify',
          'evidence',
          await write('history-changed.json', changed),
          '--trust',
          file('trust.json'),
        );
        expect(one.code).toBe(1);
        expect(failedChecks(one.stdout)).toEqual(['trust.keys_stream', 'consultation.signature']);

        // The forger re-signs the verdict with its own key under the new kid, writes that key into a keys
        // stream made again (hashes, chain and tree recomputed), signs the stream's checkpoint with a ledger
        // key of its own and publishes that key with a transition statement it signed itself.
        const forged = structuredClone(pack);
        const attacker = generateKeyPairSync('ec', { namedCurve: 'P-256' });
        const a = publicJwk(attacker.publicKey);
        const [h, c] = forged.consultation.signed_verdict.split('.');
        forged.consultation.signed_verdict = signJws(h, decode(c), attacker.privateKey);
        forged.jwks.keys = forged.jwks.keys.map((k: Json) => (k.kid === kid ? { ...k, x: a.x, y: a.y } : k));
        const stream = forged.key_history.stream_id;
        let prev = `sha256:${'0'.repeat(64)}`;
        const hashes: string[] = [];
        for (const f of forged.key_history.facts) {
          if (f.custom_payload.kid === kid) f.custom_payload.public_jwk = { ...f.custom_payload.public_jwk, x: a.x, y: a.y };
          prev = factHashOf(f, stream, t.id, prev);
          hashes.push(prev);
        }
        const rogueLedger = generateKeyPairSync('ed25519');
        const rogueKid = `ledger:${year}.9`;
        const at = Date.now();
        const checkpoint = {
          stream_id: stream,
          tree_size: hashes.length,
          root_hash: treeRootOf(hashes),
          created_at_ms: at,
          key_id: rogueKid,
          signature_alg: 'Ed25519',
        };
        forged.key_history.checkpoint = { ...checkpoint, signature: signEd25519(checkpoint, rogueLedger.privateKey) };
        const x = publicJwk(rogueLedger.publicKey).x;
        forged.ledger.keys.keys.push({
          kid: rogueKid,
          kty: 'OKP',
          crv: 'Ed25519',
          x,
          alg: 'EdDSA',
          use: 'sig',
          not_before: new Date(at).toISOString(),
          not_after: null,
        });
        const transition = {
          type: 'ledger_key_transition',
          mode: 'emergency',
          created_at_ms: at,
          key: { kid: rogueKid, kty: 'OKP', crv: 'Ed25519', x },
          retired: [],
          signature_alg: 'Ed25519',
        };
        forged.ledger.keys.transitions.push({
          ...transition,
          signatures: [{ key_id: rogueKid, signature: signEd25519(transition, rogueLedger.privateKey) }],
        });
        const whole = await arbiter(
          '--json',
          'verify',
          'evidence',
          await write('history-forged.json', forged),
          '--trust',
          file('trust.json'),
        );
        expect(whole.code).toBe(1);
        expect(failedChecks(whole.stdout)).toEqual(['trust.keys_stream.checkpoint.key', 'consultation.signature']);
        expect((JSON.parse(whole.stdout).checks as Json[]).find((ch) => ch.check === `trust.ledger_transition.${rogueKid}`)).toMatchObject({
          status: 'info',
          message: expect.stringContaining('not accepted: signed by no key you trust'),
        });
      });

      it('extends a trust file through the same history (arbiter trust extend), after which the new verdict verifies on its own', async () => {
        expect((await arbiter('verify', 'verdict', jws, '--trust', file('trust.json'))).code).toBe(1);
        const extended = await arbiter('trust', 'extend', file('trust.json'), '--out', file('trust-extended.json'));
        expect(extended.stdout).toContain(`wrote ${file('trust-extended.json')}: added ledger:${year}.1, ${kid}`);
        expect(extended.code).toBe(0);
        expect((await read('trust-extended.json')).jwks.keys.find((k: Json) => k.kid === `${t.id}:${year}`).not_after).not.toBeNull();
        expect((await arbiter('verify', 'verdict', jws, '--trust', file('trust-extended.json'))).code).toBe(0);
      });
    });
  });
});
