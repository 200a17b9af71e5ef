import { verifyEvidencePack } from '@arbiter/client';
import { makeMaterial, packOf, signCheckpoint, signJws, TENANT, type Material } from './evidence.fixture';
import { parseTrustFile, verifyConsultationEvidence, type ConsoleEvidenceReport } from './index';

type Rec = Record<string, unknown>;

const NOW = Date.parse('2026-11-27T00:00:00.000Z');
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

async function both(m: Material, mode: 'trust' | 'published' = 'trust') {
  const keys =
    mode === 'trust'
      ? ({ source: 'trust', trust: parseTrustFile(m.trust) } as const)
      : ({ source: 'published', jwks: m.trust.jwks, ledger_keys: m.trust.ledger_keys, where: 'the test' } as const);
  const console = await verifyConsultationEvidence({ record: m.record, evidence: m.evidence, keys, now: NOW });
  const sdk = await verifyEvidencePack(packOf(m.record, m.evidence, m.trust.jwks), {
    now: NOW,
    trust: mode === 'trust' ? parseTrustFile(m.trust) : undefined,
  });
  return { console, sdk };
}

const firstFail = (r: { checks: { check: string; status: string }[] }) => r.checks.find((c) => c.status === 'fail')?.check;
const failedNames = (r: ConsoleEvidenceReport) => r.checks.filter((c) => c.status === 'fail').map((c) => c.check);

/** Each tampering, and the check the console (and the CLI) must name first. */
const TAMPERINGS: [name: string, change: (m: Material) => void, check: string][] = [
  ['a byte of the record (its verdict)', (m) => void (m.record.verdict = 'denied'), 'consultation.normative_hash'],
  ['a parameter of the record', (m) => void ((m.record.parameters as Rec).amount = 13), 'consultation.normative_hash'],
  [
    'the verdict signature',
    (m) => {
      const [h, p, s] = String(m.record.signed_verdict).split('.');
      m.record.signed_verdict = `${h}.${p}.${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`;
    },
    'consultation.signature',
  ],
  [
    'an inclusion path element',
    (m) => {
      const p = m.evidence.ledger.inclusion_path;
      p[0] = `sha256:${p[0].slice(7, 8) === '0' ? '1' : '0'}${p[0].slice(8)}`;
    },
    'ledger.inclusion',
  ],
  ['the inclusion path cut short', (m) => void m.evidence.ledger.inclusion_path.pop(), 'ledger.inclusion'],
  ['the leaf index', (m) => void (m.evidence.ledger.leaf_index = 4), 'ledger.leaf_index'],
  [
    'the checkpoint signature',
    (m) => {
      const s = String(m.evidence.ledger.checkpoint.signature);
      m.evidence.ledger.checkpoint.signature = `${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`;
    },
    'ledger.checkpoint.signature',
  ],
  [
    "the checkpoint's root",
    (m) => void (m.evidence.ledger.checkpoint.root_hash = `sha256:${'ab'.repeat(32)}`),
    'ledger.checkpoint.signature',
  ],
  ["the fact's payload", (m) => void ((m.evidence.ledger.fact.custom_payload as Rec).verdict = 'denied'), 'ledger.fact_hash'],
];

describe('verifyConsultationEvidence (WebCrypto) against evidence made with node:crypto', () => {
  it('passes every check against a trust file, and agrees with the CLI verifier', async () => {
    const { console, sdk } = await both(makeMaterial());
    expect(failedNames(console)).toEqual([]);
    expect(console).toMatchObject({ status: 'valid', valid: true, first_failure: null });
    expect(console.checks.map((c) => c.check)).toEqual([
      'format',
      'trust',
      'consultation.normative_hash',
      'consultation.context_hash',
      'consultation.signing_kid',
      'consultation.signature',
      'consultation.expiry',
      'consultation.claims',
      'ledger',
      'ledger.fact_hash',
      'ledger.stream',
      'ledger.payload',
      'ledger.leaf_index',
      'ledger.checkpoint.shape',
      'ledger.checkpoint.key',
      'ledger.checkpoint.signature',
      'ledger.inclusion',
    ]);
    expect(sdk.status).toBe('valid');
    // The console's checks are the CLI's, in the CLI's order (the pack adds rule versions and approvals).
    const sdkNames = sdk.checks.map((c) => c.check).filter((n) => console.checks.some((c) => c.check === n));
    expect(console.checks.map((c) => c.check).filter((n) => sdkNames.includes(n))).toEqual(sdkNames);
  });

  it('with the published keys: every check passes and the report is unpinned, never valid', async () => {
    const { console, sdk } = await both(makeMaterial(0), 'published');
    expect(console).toMatchObject({ status: 'unpinned', valid: false, first_failure: null });
    expect(console.checks.find((c) => c.check === 'trust')).toMatchObject({
      status: 'unpinned',
      message: expect.stringContaining('not pinned'),
    });
    expect(sdk.status).toBe('unpinned');
  });

  it.each(TAMPERINGS)('names the failing check when %s is changed, as the CLI does', async (_what, change, check) => {
    const m = makeMaterial(6);
    change(m);
    const { console, sdk } = await both(m);
    expect(console.status).toBe('invalid');
    expect(console.first_failure?.check).toBe(check);
    expect(sdk.status).toBe('invalid');
    expect(firstFail(sdk)).toBe(check);
  });

  it('refuses a record signed by a key the trust file does not hold, though it verifies with the published keys', async () => {
    const m = makeMaterial(3);
    const other = makeMaterial(3);
    // A forger's key under the tenant's kid: the record re-signed, the published key set replaced.
    const claims = JSON.parse(Buffer.from(String(m.record.signed_verdict).split('.')[1], 'base64url').toString()) as Rec;
    m.record.signed_verdict = signJws(claims, String(m.record.signing_kid), other.keys.verdict);
    const forged = { ...m, trust: { ...m.trust, jwks: other.trust.jwks } } as Material;
    expect((await both(forged, 'published')).console.status).toBe('unpinned');
    const { console, sdk } = await both(m);
    expect(console.first_failure).toMatchObject({ check: 'consultation.signature', message: expect.stringContaining('invalid_signature') });
    expect(firstFail(sdk)).toBe('consultation.signature');
  });

  it('refuses a checkpoint signed by a ledger key the trust file does not hold', async () => {
    const m = makeMaterial(2);
    const other = makeMaterial(2);
    const { signature: _s, ...unsigned } = m.evidence.ledger.checkpoint;
    m.evidence.ledger.checkpoint = signCheckpoint({ ...unsigned }, other.keys.ledger);
    const { console, sdk } = await both(m);
    expect(console.first_failure?.check).toBe('ledger.checkpoint.signature');
    expect(firstFail(sdk)).toBe('ledger.checkpoint.signature');
  });

  it('refuses a trust file of another tenant, and an answer that is not the evidence of the record', async () => {
    const m = makeMaterial();
    const foreign = parseTrustFile({ ...clone(m.trust), tenant_id: 'tnt-ffffffffffffffffffffffff', jwks: { keys: [] } });
    const r = await verifyConsultationEvidence({
      record: m.record,
      evidence: m.evidence,
      keys: { source: 'trust', trust: foreign },
      now: NOW,
    });
    expect(r.first_failure?.check).toBe('trust');
    const wrong = await verifyConsultationEvidence({
      record: m.record,
      evidence: { ...m.evidence, consultation_id: 'cns-other' },
      keys: { source: 'trust', trust: parseTrustFile(m.trust) },
    });
    expect(wrong.first_failure?.check).toBe('format');
    const noFact = clone(m.evidence) as Rec & { ledger: Rec };
    delete noFact.ledger.fact;
    const bare = await verifyConsultationEvidence({
      record: m.record,
      evidence: noFact,
      keys: { source: 'trust', trust: parseTrustFile(m.trust) },
    });
    expect(bare.first_failure?.check).toBe('ledger');
    expect(TENANT).toMatch(/^tnt-/);
  });
});
