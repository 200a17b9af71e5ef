import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  buildEvidencePack,
  parseTrustFile,
  verifyEvidencePack,
  type EvidencePackV3,
  type TrustFile,
  type VerdictClient,
  type VerificationReport,
} from '@arbiter/client';
import { cli } from './cli-harness';
import { checkpointSignatureHolds, consistencyHolds, inclusionHolds, type PublishedLedgerKey } from './evidence-harness';
import { eventually } from '@arbiter/testing';
import { ledgerAs, provisionTenant, transfer, verdictAs, type SdkTenant } from './sdk-harness';
import { sql } from './seal-harness';
import { startStack, type Stack } from './stack';

const failed = (r: VerificationReport) => r.checks.filter((c) => c.status === 'fail').map((c) => c.check);

/**
 * Evidence packs version 3 and the completeness audit (docs/cli.md "Evidence packs", "Completeness
 * audit"; docs/evidence.md) made from the real stack: the worker seals into the real ledger, the
 * packs verify with no network and fail the named checks when tampered with, and the audit names a
 * consultation deleted or edited in the verdict database behind the service's back.
 */
describe('evidence packs and the completeness audit', () => {
  let stack: Stack;
  let dir: string;
  let keys: PublishedLedgerKey[];
  const file = (name: string) => path.join(dir, name);
  const write = async (name: string, value: unknown) => {
    await writeFile(file(name), JSON.stringify(value, null, 2));
    return file(name);
  };
  const offline = () => cli({}, { offline: true });
  /** `arbiter trust export` of the tenant's and the ledger's keys: what the auditor holds. */
  const exportTrust = async (t: SdkTenant, name: string) => {
    expect((await cli(envOf(t))('trust', 'export', '--out', file(name))).code).toBe(0);
    return parseTrustFile(JSON.parse(await readFile(file(name), 'utf8')));
  };
  const envOf = (t: SdkTenant) => ({
    ARBITER_VERDICT_URL: stack.verdict.url,
    ARBITER_LEDGER_URL: stack.ledger.url,
    ARBITER_API_KEY: t.agentKey,
  });
  /** Resolves once the verdict's evidence route answers 200 for every id (the relay sealed them). */
  const allSealed = (agent: VerdictClient, ids: string[]) =>
    eventually(`${ids.length} consultations sealed`, async () =>
      (
        await Promise.all(
          ids.map((id) =>
            agent.getConsultationEvidence(id).then(
              () => true,
              () => false,
            ),
          ),
        )
      ).every(Boolean)
        ? true
        : undefined,
    );

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true, worker: true });
    dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-evidence-'));
    keys = (await ledgerAs(stack).keys()).keys;
  });
  afterAll(async () => {
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  describe('evidence pack version 3', () => {
    let t: SdkTenant;
    let agent: VerdictClient;
    let id: string;
    let pack: EvidencePackV3;
    let packFile: string;
    let trust: TrustFile;

    beforeAll(async () => {
      t = await provisionTenant(stack, 'pack');
      agent = verdictAs(stack, t.agentKey, t.id);
      const ids: string[] = [];
      for (const amount of [5, 6, 7]) ids.push((await agent.check(transfer(amount))).consultation_id);
      id = (await agent.check(transfer(30000))).consultation_id;
      const approval = await agent.createApproval({ consultation_id: id, requester_notes: 'pack test' });
      await verdictAs(stack, t.cfoKey, t.id).decideApproval(approval.id, { decision: 'approve', decider_notes: 'ok' });
      await allSealed(agent, [...ids, id]);
      trust = await exportTrust(t, 'trust-pack.json');
    });

    it('is built by the SDK with a ledger client, and verifies', async () => {
      const built = await buildEvidencePack(agent, id, { ledger: ledgerAs(stack, t.agentKey) });
      expect(built.version).toBe(3);
      pack = built as EvidencePackV3;
      expect(pack.ledger.fact).toMatchObject({ stream_id: `arbiter.${t.id}.consultations`, client_ref: id, actor: 'service:verdict' });
      expect(pack.ledger.tree_size).toBeGreaterThan(1);
      expect(pack.approvals).toHaveLength(1);
      const report = await verifyEvidencePack(pack, { trust });
      expect(failed(report)).toEqual([]);
      expect(report.valid).toBe(true);
      expect((await verifyEvidencePack(pack)).status).toBe('unpinned');
      // An auditor's own checks of the packed proof agree.
      const { fact, leaf_index, tree_size, inclusion_path, checkpoint } = pack.ledger;
      expect(inclusionHolds(fact.fact_hash, leaf_index, tree_size, inclusion_path, checkpoint.root_hash)).toBe(true);
      expect(checkpointSignatureHolds(checkpoint, pack.ledger.keys.keys)).toBe(true);
    });

    it('is written by `arbiter evidence export` and verified by `arbiter verify evidence` with no network', async () => {
      packFile = file('pack-v3.json');
      const r = await cli(envOf(t))('evidence', 'export', id, '--out', packFile);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        new RegExp(
          `consultation ${id} \\(approval_required\\), .*ledger fact fct-\\S+ \\(leaf \\d+ of \\d+\\); pack version 3; self-check passed`,
        ),
      );
      const written = JSON.parse(await readFile(packFile, 'utf8')) as EvidencePackV3;
      expect(written).toMatchObject({
        format: 'arbiter.evidence-pack',
        version: 3,
        source: { ledger_url: stack.ledger.url },
        ledger: { fact: { client_ref: id }, keys: { keys: expect.any(Array) } },
      });
      const v = await offline()('verify', 'evidence', packFile, '--trust', file('trust-pack.json'));
      expect(v.code).toBe(0);
      expect(v.stdout).toContain(`evidence pack of ${id}: VALID`);
      for (const check of ['ledger.fact_hash', 'ledger.payload', 'ledger.checkpoint.signature', 'ledger.inclusion'])
        expect(v.stdout).toContain(`[ok]   ${check}`);
    });

    it('fails tampered copies on the named checks', async () => {
      const base = JSON.parse(await readFile(packFile, 'utf8')) as EvidencePackV3;
      const copy = () => JSON.parse(JSON.stringify(base)) as EvidencePackV3;
      // Against the pack's own keys (no --trust): the pack must at least be consistent in itself.
      const verify = async (name: string, p: EvidencePackV3) => {
        const r = await offline()('--json', 'verify', 'evidence', await write(name, p));
        expect(r.code).toBe(1);
        return failed(r.json<VerificationReport>());
      };

      const payload = copy();
      payload.ledger.fact.custom_payload = { ...payload.ledger.fact.custom_payload, verdict: 'allowed' };
      expect(await verify('t-payload.json', payload)).toEqual(expect.arrayContaining(['ledger.fact_hash', 'ledger.payload']));

      const pathHash = copy();
      const h = pathHash.ledger.inclusion_path[0];
      pathHash.ledger.inclusion_path[0] = h.slice(0, -1) + (h.endsWith('0') ? '1' : '0');
      expect(await verify('t-path.json', pathHash)).toEqual(['ledger.inclusion']);

      const root = copy();
      root.ledger.checkpoint.root_hash = `sha256:${'ab'.repeat(32)}`;
      expect(await verify('t-root.json', root)).toEqual(expect.arrayContaining(['ledger.checkpoint.signature']));

      const noKeys = copy();
      noKeys.ledger.keys = { keys: [] };
      expect(await verify('t-keys.json', noKeys)).toEqual(expect.arrayContaining(['ledger.checkpoint.key']));
    });

    it('still writes and verifies a version 1 pack', async () => {
      const r = await cli(envOf(t))('evidence', 'export', id, '--v1', '--out', file('pack-v1.json'));
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('pack version 1; self-check passed');
      const v1 = JSON.parse(await readFile(file('pack-v1.json'), 'utf8'));
      expect(v1).toMatchObject({ version: 1 });
      expect(v1.ledger).toBeUndefined();
      const v = await offline()('verify', 'evidence', file('pack-v1.json'), '--trust', file('trust-pack.json'));
      expect(v.code).toBe(0);
      expect(v.stdout).toContain(`evidence pack of ${id}: VALID`);
      expect(v.stdout).not.toContain('ledger.');
      // And a version 1 pack from the SDK without a ledger client.
      expect((await verifyEvidencePack(await buildEvidencePack(agent, id), { trust })).valid).toBe(true);
    });
  });

  describe('arbiter audit consultations', () => {
    let t: SdkTenant;
    let agent: VerdictClient;
    let arbiter: ReturnType<typeof cli>;
    let ids: string[];
    let since: string;
    let until: string;
    const verdictDb = () => stack.verdict.ctx.config.DATABASE_URL_VERDICT;
    const stream = () => `arbiter.${t.id}.consultations`;
    const audit = (...more: string[]) =>
      arbiter('--json', 'audit', 'consultations', '--since', since, '--until', until, '--trust', file('trust-audit.json'), ...more);
    type Report = {
      findings: number;
      missing_in_verdict: { consultation_id: string }[];
      mismatched: { consultation_id: string; fields: { field: string }[] }[];
      checkpoint: VerificationReport;
      saved_checkpoint: string | null;
    };

    beforeAll(async () => {
      t = await provisionTenant(stack, 'audit');
      agent = verdictAs(stack, t.agentKey, t.id);
      arbiter = cli(envOf(t));
      since = new Date(Date.now() - 1000).toISOString();
      ids = [];
      for (const amount of [21, 22, 23, 24]) ids.push((await agent.check(transfer(amount))).consultation_id);
      await allSealed(agent, ids);
      until = new Date(Date.now() + 1000).toISOString();
      await exportTrust(t, 'trust-audit.json');
    });

    it('exits 0 on a clean period, and --save-checkpoint writes the current checkpoint', async () => {
      const r = await audit('--save-checkpoint', file('kept.json'));
      expect(r.code).toBe(0);
      expect(r.json<Report>()).toMatchObject({ findings: 0, saved_checkpoint: file('kept.json') });
      const kept = JSON.parse(await readFile(file('kept.json'), 'utf8'));
      expect(kept).toMatchObject({ stream_id: stream(), tree_size: 4, signature_alg: 'Ed25519' });
      expect(checkpointSignatureHolds(kept, keys)).toBe(true);
      const text = await arbiter('audit', 'consultations', '--since', since, '--until', until, '--trust', file('trust-audit.json'));
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(`consultations of ${t.id} from ${since} to ${until}: CLEAN`);
      // Without the trust file the same clean audit exits 3: its checkpoints were checked with the ledger's own keys.
      expect((await arbiter('audit', 'consultations', '--since', since, '--until', until)).code).toBe(3);
    });

    it("names a consultation deleted from the verdict database behind the service's back, exit 1", async () => {
      await sql(verdictDb(), 'DELETE FROM consultations WHERE id = $1 AND tenant_id = $2', [ids[1], t.id]);
      const r = await audit();
      expect(r.code).toBe(1);
      expect(r.json<Report>().missing_in_verdict.map((f) => f.consultation_id)).toEqual([ids[1]]);
      const text = await arbiter('audit', 'consultations', '--since', since, '--until', until);
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(new RegExp(`\\[MISSING IN VERDICT\\] ${ids[1]}: sealed as fct-`));
    });

    it('names a record whose verdict was edited with its hashes kept as mismatched', async () => {
      const record = await agent.getConsultation(ids[2]);
      expect(record.verdict).toBe('allowed');
      await sql(
        verdictDb(),
        `UPDATE consultations SET verdict = 'blocked', record = jsonb_set(record::jsonb, '{verdict}', '"blocked"')::json WHERE id = $1 AND tenant_id = $2`,
        [ids[2], t.id],
      );
      expect((await agent.getConsultation(ids[2])).normative_hash).toBe(record.normative_hash);
      const r = await audit();
      expect(r.code).toBe(1);
      const report = r.json<Report>();
      expect(report.missing_in_verdict.map((f) => f.consultation_id)).toEqual([ids[1]]);
      expect(report.mismatched.map((f) => f.consultation_id)).toEqual([ids[2]]);
      expect(report.mismatched[0].fields.map((f) => f.field)).toEqual(expect.arrayContaining(['verdict', 'record_content']));
    });

    it("checks the kept checkpoint against the grown stream by the ledger's consistency proof, and fails a forged one", async () => {
      const kept = JSON.parse(await readFile(file('kept.json'), 'utf8'));
      // A new period, after every decision of the tests above (the verdict stamps requested_at with this machine's clock).
      await new Promise((resolve) => setTimeout(resolve, 20));
      since = new Date().toISOString();
      const more: string[] = [];
      for (const amount of [31, 32, 33]) more.push((await agent.check(transfer(amount))).consultation_id);
      await allSealed(agent, more);
      until = new Date(Date.now() + 1000).toISOString();

      const r = await audit('--checkpoint', file('kept.json'), '--save-checkpoint', file('kept-2.json'));
      expect(r.json<Report>().findings).toBe(0);
      expect(r.code).toBe(0);
      const report = r.json<Report>();
      expect(report.checkpoint.checks).toEqual(expect.arrayContaining([expect.objectContaining({ check: 'consistency', status: 'pass' })]));
      const next = JSON.parse(await readFile(file('kept-2.json'), 'utf8'));
      expect(next).toMatchObject({ stream_id: stream(), tree_size: 7 });
      // The same proof, from the real route, checked here independently.
      const proof = await ledgerAs(stack, t.agentKey).getConsistency(stream(), 4, 7);
      expect(consistencyHolds(4, 7, proof.consistency_path, kept.root_hash, next.root_hash)).toBe(true);
      expect(consistencyHolds(4, 7, proof.consistency_path, `sha256:${'00'.repeat(32)}`, next.root_hash)).toBe(false);

      const forged = await write('forged.json', { ...kept, root_hash: `sha256:${'cd'.repeat(32)}` });
      const bad = await audit('--checkpoint', forged, '--save-checkpoint', file('kept-3.json'));
      expect(bad.code).toBe(1);
      const badReport = bad.json<Report>();
      expect(failed(badReport.checkpoint)).toEqual(expect.arrayContaining(['kept.signature', 'consistency']));
      expect(badReport.saved_checkpoint).toBeNull();
      await expect(readFile(file('kept-3.json'))).rejects.toThrow();
    });
  });
});
