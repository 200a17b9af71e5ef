import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually } from '@arbiter/testing';
import { packOf } from '../../apps/console/src/evidence/evidence.fixture';
import { parseTrustFile, verifyConsultationEvidence, type EvidenceKeys } from '../../apps/console/src/evidence';
import { cli } from './cli-harness';
import { provisionTenant, transfer, verdictAs, type SdkTenant } from './sdk-harness';
import { startStack, type Stack } from './stack';

type Rec = Record<string, unknown>;
type Answer = { record: Rec; evidence: Rec & { ledger: Rec & { fact: Rec; checkpoint: Rec; inclusion_path: string[] } } };

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const flip = (s: string) => `${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`;

/** Changes to the real answers, and the check the console (and the CLI) must name first. */
const TAMPERINGS: [what: string, change: (a: Answer) => void, check: string][] = [
  ["a byte of the record's parameters", (a) => void (a.record.parameters = { transfer: { amount: 3 } }), 'consultation.normative_hash'],
  [
    'the verdict signature',
    (a) => {
      const [h, p, s] = String(a.record.signed_verdict).split('.');
      a.record.signed_verdict = `${h}.${p}.${flip(s)}`;
    },
    'consultation.signature',
  ],
  [
    'the inclusion path',
    (a) => {
      const p = a.evidence.ledger.inclusion_path;
      if (p.length) p[p.length - 1] = `sha256:${'0'.repeat(64)}`;
      else p.push(`sha256:${'0'.repeat(64)}`);
    },
    'ledger.inclusion',
  ],
  [
    'the checkpoint signature',
    (a) => void (a.evidence.ledger.checkpoint.signature = flip(String(a.evidence.ledger.checkpoint.signature))),
    'ledger.checkpoint.signature',
  ],
];

/**
 * The console's evidence verifier (WebCrypto, apps/console/src/evidence) run in Node on what the real
 * stack answers, and the CLI's `arbiter verify evidence` on the same material: both must agree on each
 * case (docs/evidence.md "In the console").
 */
describe('console evidence verifier on real evidence', () => {
  let stack: Stack;
  let t: SdkTenant;
  let other: SdkTenant;
  let dir: string;
  let answer: Answer;
  let trustDoc: Rec;
  let published: EvidenceKeys;
  let ruleVersions: unknown[];

  const get = async (url: string, key?: string) => {
    const res = await fetch(url, { headers: key ? { 'X-API-Key': key } : {} });
    expect(res.status).toBe(200);
    return (await res.json()) as Rec;
  };
  const trustOf = async (tenant: SdkTenant): Promise<Rec> => {
    const file = path.join(dir, `trust-${tenant.slug}.json`);
    const run = await cli({ ARBITER_VERDICT_URL: stack.verdict.url, ARBITER_LEDGER_URL: stack.ledger!.url })(
      'trust',
      'export',
      '--tenant',
      tenant.slug,
      '--out',
      file,
    );
    expect(`${run.code} ${run.stderr}`).toMatch(/^0 /);
    return JSON.parse(await readFile(file, 'utf8')) as Rec;
  };

  /** The CLI on a version 2 pack of the same record and evidence, with the same keys. */
  async function cliReport(
    a: Answer,
    trust: Rec | undefined,
    jwks: unknown,
  ): Promise<{ status: string; checks: { check: string; status: string }[] }> {
    const pack = packOf(a.record, a.evidence, jwks) as unknown as Rec & { ledger: Rec };
    pack.rule_versions = ruleVersions;
    if (trust) pack.ledger.keys = trust.ledger_keys;
    const packFile = path.join(dir, 'pack.json');
    await writeFile(packFile, JSON.stringify(pack));
    const argv = ['--json', 'verify', 'evidence', packFile];
    if (trust) {
      await writeFile(path.join(dir, 'trust.json'), JSON.stringify(trust));
      argv.push('--trust', path.join(dir, 'trust.json'));
    }
    return (await cli({}, { offline: true })(...argv)).json();
  }

  const firstFail = (r: { checks: { check: string; status: string }[] }) => r.checks.find((c) => c.status === 'fail')?.check;

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true, worker: true });
    [t, other] = await Promise.all([provisionTenant(stack, 'cev'), provisionTenant(stack, 'cev-b')]);
    dir = await mkdtemp(path.join(tmpdir(), 'console-evidence-'));
    const { consultation_id, verdict } = await verdictAs(stack, t.agentKey, t.id).check(transfer(30000));
    expect(verdict).toBe('approval_required');
    const base = `${stack.verdict.url}/${t.id}/v1/consultations/${consultation_id}`;
    const evidence = await eventually('the consultation sealed in the ledger', async () => {
      const res = await fetch(`${base}/evidence`, { headers: { 'X-API-Key': t.agentKey } });
      return res.status === 200 ? ((await res.json()) as Answer['evidence']) : undefined;
    });
    answer = { record: await get(base, t.agentKey), evidence };
    ruleVersions = [];
    for (const id of answer.record.cited_rule_version_ids as string[])
      ruleVersions.push(await get(`${stack.verdict.url}/v1/rule-versions/${id}`, t.agentKey));
    trustDoc = await trustOf(t);
    published = {
      source: 'published',
      jwks: (await get(`${stack.verdict.url}/v1/tenants/${t.slug}/jwks`)) as never,
      ledger_keys: evidence.ledger.keys as never,
      where: stack.verdict.url,
    };
  });
  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('answers the fact and the ledger keys with the evidence, and the real answer verifies against the trust file, as with the CLI', async () => {
    expect(answer.evidence.ledger.fact).toMatchObject({
      fact_id: answer.evidence.ledger.fact_id,
      client_ref: answer.record.id,
      sealed_by: 'service:internal',
    });
    expect((answer.evidence.ledger.keys as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    const report = await verifyConsultationEvidence({ ...answer, keys: { source: 'trust', trust: parseTrustFile(trustDoc) } });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report).toMatchObject({ status: 'valid', valid: true, first_failure: null });
    const byCli = await cliReport(answer, trustDoc, trustDoc.jwks);
    expect(byCli.status).toBe('valid');
  });

  it('with the published keys: valid in every check, and unpinned, as with the CLI without --trust', async () => {
    const report = await verifyConsultationEvidence({ ...answer, keys: published });
    expect(report).toMatchObject({ status: 'unpinned', valid: false, first_failure: null });
    const published_ = published as Extract<EvidenceKeys, { source: 'published' }>;
    expect((await cliReport(answer, undefined, published_.jwks)).status).toBe('unpinned');
  });

  it.each(TAMPERINGS)('names the failing check when %s is changed, and the CLI names the same', async (_what, change, check) => {
    const a = clone(answer);
    change(a);
    const report = await verifyConsultationEvidence({ ...a, keys: { source: 'trust', trust: parseTrustFile(trustDoc) } });
    expect(report.status).toBe('invalid');
    expect(report.first_failure?.check).toBe(check);
    const byCli = await cliReport(a, trustDoc, trustDoc.jwks);
    expect(byCli.status).toBe('invalid');
    expect(firstFail(byCli)).toBe(check);
  });

  it("refuses the real record under a trust file holding another key for the tenant's kid, as the CLI does", async () => {
    await verdictAs(stack, other.agentKey, other.id).check(transfer(100)); // its first key is made with its first verdict
    const foreign = await trustOf(other);
    const theirs = (foreign.jwks as { keys: Rec[] }).keys[0];
    const wrong = clone(trustDoc);
    (wrong.jwks as { keys: Rec[] }).keys = (wrong.jwks as { keys: Rec[] }).keys.map((k) => ({ ...k, x: theirs.x, y: theirs.y }));
    const report = await verifyConsultationEvidence({ ...answer, keys: { source: 'trust', trust: parseTrustFile(wrong) } });
    expect(report.first_failure).toMatchObject({ check: 'consultation.signature', message: expect.stringContaining('invalid_signature') });
    const byCli = await cliReport(answer, wrong, wrong.jwks);
    expect(firstFail(byCli)).toBe('consultation.signature');
    // And a trust file of the other tenant is refused before any signature.
    const theirsReport = await verifyConsultationEvidence({ ...answer, keys: { source: 'trust', trust: parseTrustFile(foreign) } });
    expect(theirsReport.first_failure?.check).toBe('trust');
  });
});
