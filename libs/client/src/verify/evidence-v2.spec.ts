import { makeConsultation, makeKey, TENANT } from '../../test/fixtures';
import { makeLedgerKey, sealedPayloadOf, signCheckpoint, TestStream, type TestFact } from '../../test/ledger-fixtures';
import { startFakeEvidenceServer } from '../../test/fake-evidence-server';
import { VerdictError } from '../errors';
import { createLedgerClient } from '../ledger-client';
import type { RuleVersion } from '../types';
import { createVerdictClient } from '../verdict-client';
import {
  buildEvidencePack,
  EVIDENCE_PACK_FORMAT,
  verifyEvidencePack,
  type EvidencePackV1,
  type EvidencePackV2,
  type EvidencePackV3,
} from './evidence';

const now = Date.parse('2026-03-01T12:00:00.000Z');
const key = makeKey(`${TENANT}:2026`, { notBefore: '2026-01-01T00:00:00.000Z' });
const ledgerKey = makeLedgerKey('ledger:2026');
const STREAM = `arbiter.${TENANT}.consultations`;

interface Options {
  /** Changes the payload before it is sealed (the ledger then holds, and proves, that payload). */
  payload?: (p: Record<string, unknown>) => Record<string, unknown>;
  streamId?: string;
  tenantId?: string;
}

/** A v2 pack whose consultation is the 3rd of 6 facts of its stream, with the proof against the checkpoint of size 6. */
function packV2(o: Options = {}): EvidencePackV2 {
  const consultation = makeConsultation(key, {}, now) as unknown as EvidencePackV2['consultation'];
  const stream = new TestStream(o.streamId ?? STREAM, o.tenantId ?? TENANT, ledgerKey);
  const other = (i: number) =>
    stream.seal('service:verdict', { ...sealedPayloadOf(consultation as never), consultation_id: `cns-other-${i}` }, `cns-other-${i}`);
  other(1);
  other(2);
  const payload = sealedPayloadOf(consultation as never);
  const fact = stream.seal('service:verdict', o.payload ? o.payload(payload) : payload, consultation.id);
  other(3);
  other(4);
  other(5);
  const proof = stream.inclusion(fact.fact_id);
  const ruleVersion = {
    id: 'rv-large-1',
    rule_id: 'rul-large',
    tenant_id: TENANT,
    version: 1,
    statement: 'Large transfers need approval',
    severity: 'REQUIRES_APPROVAL',
  } as RuleVersion;
  return {
    format: EVIDENCE_PACK_FORMAT,
    version: 2,
    exported_at: '2026-03-02T00:00:00.000Z',
    source: { verdict_url: 'http://verdict', ledger_url: 'http://ledger', tenant_id: TENANT },
    consultation,
    jwks: { keys: [key.jwk] },
    rule_versions: [ruleVersion],
    approvals: [],
    approvals_available: true,
    ledger: {
      fact: fact as unknown as EvidencePackV2['ledger']['fact'],
      leaf_index: proof.leaf_index,
      tree_size: proof.tree_size,
      inclusion_path: proof.inclusion_path,
      checkpoint: proof.checkpoint,
      keys: { keys: [ledgerKey.jwk] },
    },
  };
}

/** The auditor's trust file: the tenant's key and the ledger's, obtained out of band. */
const trust = { tenant_id: TENANT, jwks: { keys: [key.jwk] }, ledger_keys: { keys: [ledgerKey.jwk] } };
// Unpinned (the pack's own keys): these tests are about the pack's internal consistency.
const failed = async (p: unknown) => (await verifyEvidencePack(p, { now })).checks.filter((c) => c.status === 'fail');
const failedChecks = async (p: unknown) => (await failed(p)).map((c) => c.check);
const factOf = (p: EvidencePackV2) => p.ledger.fact as unknown as TestFact;

describe(`${verifyEvidencePack.name} (version 2)`, () => {
  it('verifies a complete v2 pack offline: v1 checks, then the fact, its stream, payload, leaf, checkpoint and inclusion', async () => {
    const report = await verifyEvidencePack(packV2(), { now, trust });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.valid).toBe(true);
    expect((await verifyEvidencePack(packV2(), { now })).status).toBe('unpinned');
    expect(report.checks.map((c) => c.check)).toEqual(
      expect.arrayContaining([
        'format',
        'consultation.normative_hash',
        'consultation.signature',
        'rule_versions',
        'ledger',
        'ledger.fact_hash',
        'ledger.stream',
        'ledger.payload',
        'ledger.leaf_index',
        'ledger.checkpoint.shape',
        'ledger.checkpoint.key',
        'ledger.checkpoint.signature',
        'ledger.inclusion',
      ]),
    );
    expect(report.checks[0].message).toBe('evidence pack v2 exported 2026-03-02T00:00:00.000Z from http://verdict and http://ledger');
  });

  it('still verifies a v1 pack (no ledger checks)', async () => {
    const { ledger: _ledger, source, ...rest } = packV2();
    const v1: EvidencePackV1 = { ...rest, version: 1, source: { verdict_url: source.verdict_url, tenant_id: source.tenant_id } };
    const report = await verifyEvidencePack(v1, { now, trust });
    expect(report.valid).toBe(true);
    expect(report.checks.some((c) => c.check.startsWith('ledger'))).toBe(false);
  });

  it('fails a v2 pack without its ledger section, and an unknown version', async () => {
    const { ledger: _ledger, ...rest } = packV2();
    expect(await failed(rest)).toEqual([{ check: 'format', status: 'fail', message: 'the version 2 pack has no ledger section' }]);
    expect(await failedChecks({ ...packV2(), version: 4 })).toEqual(['format']);
    expect(await failed({ ...packV2(), version: 3 })).toEqual([
      { check: 'format', status: 'fail', message: 'the version 3 pack has no key_history' },
    ]);
  });

  it('fails an unusable ledger section with one named check', async () => {
    const p = packV2();
    p.ledger.inclusion_path = ['sha256:XYZ'];
    expect(await failed(p)).toEqual([
      { check: 'ledger', status: 'fail', message: expect.stringContaining('inclusion_path is not an array of sha256:<64 lowercase hex>') },
    ]);
  });

  it('fails a fact changed after sealing: its hash does not recompute (and the payload differs)', async () => {
    const p = packV2();
    factOf(p).custom_payload = { ...factOf(p).custom_payload, verdict: 'allowed' };
    const f = await failed(p);
    expect(f.map((c) => c.check)).toEqual(['ledger.fact_hash', 'ledger.payload']);
    expect(f[0].message).toContain('the fact was changed after it was sealed');
  });

  it('fails a fact whose fact_hash was replaced: hash check and inclusion', async () => {
    const p = packV2();
    factOf(p).fact_hash = `sha256:${'a'.repeat(64)}`;
    expect(await failedChecks(p)).toEqual(['ledger.fact_hash', 'ledger.inclusion']);
  });

  it('fails a sealed payload that is not the consultation, naming the fields', async () => {
    const p = packV2({ payload: (x) => ({ ...x, verdict: 'allowed', decided_at: '2026-03-01T11:00:00.000Z' }) });
    const f = await failed(p);
    expect(f.map((c) => c.check)).toEqual(['ledger.payload']);
    expect(f[0].message).toBe(
      'the sealed payload differs from the consultation: verdict (record "approval_required", ledger "allowed"); decided_at (record "2026-03-01T12:00:00.000Z", ledger "2026-03-01T11:00:00.000Z")',
    );
  });

  it('fails a payload with a member the contract does not have, or without one it has', async () => {
    const extra = await failed(packV2({ payload: (x) => ({ ...x, note: 'x' }) }));
    expect(extra).toEqual([
      { check: 'ledger.payload', status: 'fail', message: expect.stringContaining('note (record absent, ledger "x")') },
    ]);
    const missing = await failed(packV2({ payload: ({ signing_kid: _k, ...x }) => x }));
    expect(missing).toEqual([
      { check: 'ledger.payload', status: 'fail', message: expect.stringContaining(`signing_kid (record "${TENANT}:2026", ledger absent)`) },
    ]);
  });

  it('fails a fact sealed in another stream or by another tenant', async () => {
    const other = await failedChecks(packV2({ streamId: `arbiter.${TENANT}.approvals` }));
    expect(other).toEqual(['ledger.stream', 'ledger.checkpoint.shape']);
    const tenant = await failed(packV2({ streamId: STREAM, tenantId: 'tnt-someoneelse0000000000000' }));
    expect(tenant.map((c) => c.check)).toEqual(['ledger.stream']);
    expect(tenant[0].message).toContain('of tenant "tnt-someoneelse0000000000000"');
  });

  it("fails a leaf_index that is not the fact's position: leaf and inclusion", async () => {
    const p = packV2();
    p.ledger.leaf_index = 3;
    expect(await failedChecks(p)).toEqual(['ledger.leaf_index', 'ledger.inclusion']);
  });

  it('fails a changed hash of the audit path', async () => {
    const p = packV2();
    p.ledger.inclusion_path[1] = `sha256:${'b'.repeat(64)}`;
    const f = await failed(p);
    expect(f.map((c) => c.check)).toEqual(['ledger.inclusion']);
    expect(f[0].message).toContain('the audit path does not lead from the leaf');
  });

  it("fails a tree_size that is not the checkpoint's (the proof is checked at the signed size)", async () => {
    const p = packV2();
    p.ledger.tree_size = 5;
    expect(await failed(p)).toEqual([{ check: 'ledger.checkpoint.shape', status: 'fail', message: 'its tree_size 6 is not 5' }]);
  });

  it('fails a changed checkpoint root: signature and inclusion', async () => {
    const p = packV2();
    p.ledger.checkpoint.root_hash = `sha256:${'c'.repeat(64)}`;
    expect(await failedChecks(p)).toEqual(['ledger.checkpoint.signature', 'ledger.inclusion']);
  });

  it("fails a checkpoint re-signed with a key the pack's ledger keys do not have, or a key of the wrong window", async () => {
    const p = packV2();
    const { signature: _s, ...unsigned } = p.ledger.checkpoint;
    const rogue = makeLedgerKey('ledger:2026');
    p.ledger.checkpoint = signCheckpoint(unsigned, rogue);
    expect(await failedChecks(p)).toEqual(['ledger.checkpoint.signature']);
    const q = packV2();
    const { signature: _t, ...qUnsigned } = q.ledger.checkpoint;
    q.ledger.checkpoint = signCheckpoint({ ...qUnsigned, key_id: 'ledger:2027' }, rogue);
    expect(await failed(q)).toEqual([
      { check: 'ledger.checkpoint.key', status: 'fail', message: 'key ledger:2027 is not among the published ledger keys (ledger:2026)' },
    ]);
    const r = packV2();
    r.ledger.keys = { keys: [{ ...ledgerKey.jwk, not_after: '2026-02-01T00:00:00.000Z' }] };
    expect(await failed(r)).toEqual([
      {
        check: 'ledger.checkpoint.key',
        status: 'fail',
        message:
          'key ledger:2026 was not valid when the checkpoint was made (2026-03-01T12:30:00.000Z; key window [2026-01-01T00:00:00.000Z, 2026-02-01T00:00:00.000Z))',
      },
    ]);
  });

  it('fails a changed checkpoint signature and a checkpoint member added after signing', async () => {
    const p = packV2();
    const sig = Buffer.from(p.ledger.checkpoint.signature, 'base64');
    sig[0] ^= 1;
    p.ledger.checkpoint.signature = sig.toString('base64');
    expect(await failedChecks(p)).toEqual(['ledger.checkpoint.signature']);
    const q = packV2();
    (q.ledger.checkpoint as unknown as Record<string, unknown>).note = 'added';
    expect(await failedChecks(q)).toEqual(['ledger.checkpoint.signature']);
  });

  it('fails a consultation record changed after sealing on the v1 checks and on the payload', async () => {
    const p = packV2();
    p.consultation.verdict = 'allowed';
    const checks = await failedChecks(p);
    expect(checks).toEqual(expect.arrayContaining(['consultation.normative_hash', 'ledger.payload']));
  });
});

describe(`${buildEvidencePack.name} (version 3)`, () => {
  async function setup() {
    const server = await startFakeEvidenceServer({ tenant: TENANT });
    server.ledgerKeys.push(ledgerKey);
    server.verdictKeys.push(key.jwk);
    const consultation = makeConsultation(key, {}, now);
    server.records.set(String(consultation.id), consultation);
    server.ruleVersions.set('rv-large-1', {
      id: 'rv-large-1',
      rule_id: 'rul-large',
      tenant_id: TENANT,
      version: 1,
      statement: 'Large transfers need approval',
      severity: 'REQUIRES_APPROVAL',
    });
    const stream = new TestStream(STREAM, TENANT, ledgerKey);
    server.streams.set(STREAM, stream);
    stream.seal('service:verdict', { consultation_id: 'cns-before' }, 'cns-before');
    const verdict = createVerdictClient({ baseUrl: server.url, apiKey: 'ak-test', tenant: TENANT });
    const ledger = createLedgerClient({ baseUrl: server.url, apiKey: 'ak-test' });
    return { server, consultation, stream, verdict, ledger };
  }

  it("builds a v3 pack from the verdict's evidence, the ledger's fact and keys and the key history, which verifies", async () => {
    const { server, consultation, stream, verdict, ledger } = await setup();
    try {
      const fact = stream.seal('service:verdict', sealedPayloadOf(consultation), String(consultation.id));
      stream.seal('service:verdict', { consultation_id: 'cns-after' }, 'cns-after');
      const pack = await buildEvidencePack(verdict, String(consultation.id), { ledger, now: () => new Date('2026-03-02T00:00:00.000Z') });
      expect(pack).toMatchObject({
        version: 3,
        source: { verdict_url: server.url, ledger_url: server.url, tenant_id: TENANT },
        ledger: { fact: { fact_id: fact.fact_id }, leaf_index: 1, tree_size: 3 },
        key_history: { stream_id: `arbiter.${TENANT}.keys`, facts: [], checkpoint: null },
      });
      expect((pack as EvidencePackV3).ledger.keys.keys.map((k) => k.kid)).toEqual(['ledger:2026']);
      expect((await verifyEvidencePack(pack, { now, trust })).valid).toBe(true);
      expect(server.requests).toEqual(
        expect.arrayContaining([
          `GET /${TENANT}/v1/consultations/cns-0001/evidence`,
          `GET /facts/${fact.fact_id}`,
          'GET /.well-known/ledger-keys',
        ]),
      );
    } finally {
      await server.close();
    }
  });

  it('fails with evidence_pending before reading anything else while the consultation is not sealed; falls back to v1 only when asked', async () => {
    const { server, consultation, verdict, ledger } = await setup();
    try {
      const err = await buildEvidencePack(verdict, String(consultation.id), { ledger }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(VerdictError);
      expect(err).toMatchObject({ status: 409, code: 'evidence_pending' });
      expect(server.requests.some((r) => r.includes('/jwks'))).toBe(false);
      const warnings: string[] = [];
      const pack = await buildEvidencePack(verdict, String(consultation.id), {
        ledger,
        fallbackToV1: true,
        onWarning: (w) => warnings.push(w),
      });
      expect(pack.version).toBe(1);
      expect(warnings).toEqual([
        'consultation cns-0001 is not sealed in the ledger yet: writing a version 1 pack, without ledger evidence',
      ]);
      expect((await verifyEvidencePack(pack, { now, trust })).valid).toBe(true);
      expect((await buildEvidencePack(verdict, String(consultation.id))).version).toBe(1);
    } finally {
      await server.close();
    }
  });
});
