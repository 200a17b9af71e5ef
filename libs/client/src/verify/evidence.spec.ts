import { makeConsultation, makeKey, TENANT } from '../../test/fixtures';
import type { Approval, RuleVersion } from '../types';
import { EVIDENCE_PACK_FORMAT, verifyEvidencePack, type EvidencePack } from './evidence';

const now = Date.parse('2026-03-01T12:00:00.000Z');
const key = makeKey(`${TENANT}:2026`, { notBefore: '2026-01-01T00:00:00.000Z' });

function pack(): EvidencePack {
  const consultation = makeConsultation(key, {}, now) as unknown as EvidencePack['consultation'];
  const ruleVersion = {
    id: 'rv-large-1',
    rule_id: 'rul-large',
    tenant_id: TENANT,
    version: 1,
    statement: 'Large transfers need approval',
    severity: 'REQUIRES_APPROVAL',
  } as RuleVersion;
  const approval = {
    id: 'apr-1',
    status: 'approved',
    requester: 'agn-1',
    intended_action: consultation.action,
    intended_resource: consultation.resource,
    intended_parameters: consultation.parameters,
    triggers: consultation.triggers,
    requested_at: '2026-03-01T12:00:01.000Z',
    consultation_id: consultation.id,
    candidate_deciders: ['role-cfo'],
    decider: 'hum-cfo',
    decision: 'approve',
    decided_at: '2026-03-01T12:05:00.000Z',
  } as Approval;
  return {
    format: EVIDENCE_PACK_FORMAT,
    version: 1,
    exported_at: '2026-03-02T00:00:00.000Z',
    source: { verdict_url: 'http://verdict', tenant_id: TENANT },
    consultation,
    jwks: { keys: [key.jwk] },
    rule_versions: [ruleVersion],
    approvals: [approval],
    approvals_available: true,
  };
}

/** The auditor's trust file: the tenant's key, obtained out of band. */
const trust = { tenant_id: TENANT, jwks: { keys: [key.jwk] }, ledger_keys: { keys: [] } };
const failed = async (p: unknown) => (await verifyEvidencePack(p, { now })).checks.filter((c) => c.status === 'fail');

describe(verifyEvidencePack.name, () => {
  it('verifies a complete pack offline against the keys the verifier holds', async () => {
    const report = await verifyEvidencePack(pack(), { now, trust });
    expect(report).toMatchObject({ valid: true, status: 'valid' });
    expect(report.checks.map((c) => c.check)).toEqual(
      expect.arrayContaining([
        'format',
        'trust',
        'consultation.normative_hash',
        'consultation.signature',
        'rule_versions',
        'approval.apr-1',
      ]),
    );
  });

  it('without trusted keys, checks the pack against its own keys and reports it unpinned: never valid', async () => {
    const report = await verifyEvidencePack(pack(), { now });
    expect(report).toMatchObject({ valid: false, status: 'unpinned' });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.checks.find((c) => c.check === 'trust')).toMatchObject({
      status: 'unpinned',
      message: expect.stringContaining('no trusted keys given'),
    });
  });

  it("fails a pack whose key set lacks the signing key when it is checked against its own keys; with trust the pack's keys are not needed", async () => {
    const p = pack();
    p.jwks = { keys: [makeKey(`${TENANT}:2025`).jwk] };
    expect((await failed(p)).map((c) => c.check)).toEqual(['consultation.signature']);
    expect((await verifyEvidencePack(p, { now, trust })).status).toBe('valid');
  });

  it('fails a pack missing a cited rule version, or holding one of another rule', async () => {
    const p = pack();
    p.rule_versions = [];
    expect(await failed(p)).toEqual([
      { check: 'rule_versions', status: 'fail', message: 'cited rule versions missing from the pack: rv-large-1' },
    ]);
    const q = pack();
    q.rule_versions[0].rule_id = 'rul-other';
    expect((await failed(q))[0].message).toContain('its rule rul-other is not among the cited rules');
  });

  it('fails an approval about another operation, or with a contradicting decision', async () => {
    const p = pack();
    p.approvals[0].intended_parameters = { transfer: { amount: 1 } };
    expect((await failed(p))[0]).toMatchObject({ check: 'approval.apr-1', message: expect.stringContaining('intended_parameters') });
    const q = pack();
    q.approvals[0].decision = 'reject';
    expect((await failed(q))[0].message).toContain('status approved contradicts decision reject');
  });

  it('passes an expired approval (undecided), and fails one that carries a decision', async () => {
    const p = pack();
    Object.assign(p.approvals[0], { status: 'expired', decider: null, decision: null, decider_notes: null, decided_at: null });
    expect(await failed(p)).toEqual([]);
    const q = pack();
    q.approvals[0].status = 'expired';
    expect((await failed(q))[0]).toMatchObject({
      check: 'approval.apr-1',
      message: expect.stringContaining('it is expired but carries a decision'),
    });
  });

  it('refuses a file that is not a pack', async () => {
    expect(await failed({ consultation: {} })).toEqual([
      { check: 'format', status: 'fail', message: expect.stringContaining('not an evidence pack') },
    ]);
  });
});
