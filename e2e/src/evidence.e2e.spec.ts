import { createRegistryClient, type LedgerClient, type LedgerFact, type LedgerFactListEntry, type VerdictClient } from '@arbiter/client';
import { findFreePort } from '@arbiter/devstack';
import type { RunningWorker } from '../../apps/worker/src/worker';
import {
  canonicalHash,
  checkpointSignatureHolds,
  consistencyHolds,
  inclusionHolds,
  leafOf,
  type PublishedLedgerKey,
} from './evidence-harness';
import { eventually } from '@arbiter/testing';
import { ledgerAs, provisionTenant, transfer, verdictAs, type SdkTenant } from './sdk-harness';
import { startStack, type Stack } from './stack';

/** The client_ref an audit fact was sealed under, from its payload (list entries do not carry it). */
function refOf(f: LedgerFactListEntry): string {
  const p = f.custom_payload as { consultation_id?: string; rule_version_id?: string; approval_id?: string; decision?: string };
  return p.approval_id ? `${p.approval_id}:${p.decision}` : (p.rule_version_id ?? p.consultation_id ?? '');
}

/**
 * The evidence chain against the real stack (docs/evidence.md): every audit fact reaches the real
 * ledger through the worker's seal relay with the payloads docs/evidence.md fixes, and the verdict's
 * evidence route answers a proof an auditor checks with nothing but node:crypto.
 */
describe('evidence chain', () => {
  let stack: Stack;
  let worker: RunningWorker | undefined;
  let t: SdkTenant;
  let other: SdkTenant;
  let agent: VerdictClient;
  let ledger: LedgerClient;
  let keys: PublishedLedgerKey[];
  const stream = (kind: 'consultations' | 'approvals' | 'rules') => `arbiter.${t.id}.${kind}`;
  const evidence = (id: string, key = t.agentKey, tenant = t.id, base = stack.verdict.url) =>
    fetch(`${base}/${tenant}/v1/consultations/${id}/evidence`, { headers: { 'X-API-Key': key } });
  /** The stream's fact sealed under client_ref (GET /facts/{id}), once the relay has sealed it. */
  const sealed = async (streamId: string, clientRef: string): Promise<LedgerFact> => {
    const entry = await eventually(`${clientRef} sealed in ${streamId}`, async () =>
      (await ledger.listAllFacts(streamId).catch(() => [])).find((f) => refOf(f) === clientRef),
    );
    const fact = await ledger.getFact(entry.fact_id);
    expect(fact.client_ref).toBe(clientRef);
    return fact;
  };

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true });
    [t, other] = await Promise.all([provisionTenant(stack, 'evid'), provisionTenant(stack, 'evid-b')]);
    agent = verdictAs(stack, t.agentKey, t.id);
    ledger = ledgerAs(stack, t.agentKey);
    keys = (await ledgerAs(stack).keys()).keys;
  });
  afterAll(async () => {
    await worker?.close();
    await stack?.stop();
  });

  it('answers 409 evidence_pending with Retry-After while the worker is not running, then 200 once the relay sealed the consultation', async () => {
    const { consultation_id } = await agent.check(transfer(100));
    const pending = await evidence(consultation_id);
    expect(pending.status).toBe(409);
    expect(pending.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await pending.json()).toMatchObject({ code: 'evidence_pending' });
    await expect(agent.getConsultationEvidence(consultation_id)).rejects.toMatchObject({
      service: 'verdict',
      status: 409,
      code: 'evidence_pending',
    });

    worker = await stack.addWorker();
    const answer = await eventually('the evidence of a sealed consultation', async () => {
      const res = await evidence(consultation_id);
      return res.status === 200 ? res.json() : undefined;
    });
    expect(answer).toMatchObject({ consultation_id, ledger: { stream_id: stream('consultations') } });
  });

  describe('audit facts in the real ledger', () => {
    it("seals a consultation as service:verdict with the record's fields (decided_at = requested_at)", async () => {
      const { consultation_id } = await agent.check(transfer(250));
      const record = await agent.getConsultation(consultation_id);
      const fact = await sealed(stream('consultations'), consultation_id);
      expect(fact).toMatchObject({
        stream_id: stream('consultations'),
        tenant_id: t.id,
        actor: 'service:verdict',
        client_ref: consultation_id,
      });
      expect(fact.custom_payload).toEqual({
        consultation_id,
        normative_hash: record.normative_hash,
        context_hash: record.context_hash,
        verdict: record.verdict,
        signing_kid: record.signing_kid,
        decided_at: record.requested_at,
      });
    });

    it('seals a verdict approval decision as service:verdict under <approval_id>:approved', async () => {
      const { consultation_id, verdict } = await agent.check(transfer(30000));
      expect(verdict).toBe('approval_required');
      const approval = await agent.createApproval({ consultation_id, requester_notes: 'quarter end' });
      const decided = await verdictAs(stack, t.cfoKey, t.id).decideApproval(approval.id, { decision: 'approve', decider_notes: 'checked' });
      const fact = await sealed(stream('approvals'), `${approval.id}:approved`);
      expect(fact).toMatchObject({ tenant_id: t.id, actor: 'service:verdict' });
      // Optional members absent (no grant, so no override_id), not null.
      expect(fact.custom_payload).toEqual({
        approval_id: approval.id,
        kind: 'verdict',
        consultation_id,
        decision: 'approved',
        decider: t.cfoId,
        decided_at: decided.decided_at,
      });
    });

    it('seals a registry approval decision as service:registry under <approval_id>:<decision>, with its override', async () => {
      const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
      const scope = await reg.createScope({ name: 'treasury' });
      const rule = await reg.createRule(scope.id, {
        directive: 'Treasury moves need the CFO',
        severity: 'REQUIRES_APPROVAL',
        deciders: ['role-cfo'],
      });
      const registry = (key: string, path: string, body: object) =>
        fetch(`${stack.registry.url}/api/v1/scopes/${scope.id}/approvals${path}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const requested = await registry(t.adminKey, '', {
        trigger_id: rule.id,
        intended_action: 'move 2M to the reserve account',
        justification: 'policy',
      });
      expect(requested.status).toBe(201);
      const approval = (await requested.json()) as { id: string };
      const rejectedOne = (await (
        await registry(t.adminKey, '', { trigger_id: rule.id, intended_action: 'move 9M', justification: 'why not' })
      ).json()) as { id: string };

      const decidedRes = await registry(t.cfoKey, `/${approval.id}/decide`, { decision: 'approved', comment: 'fine' });
      expect(decidedRes.status).toBe(200);
      const decided = (await decidedRes.json()) as { decided_at: string; override_id: string };
      expect(decided.override_id).toMatch(/^ovr-/);
      const rejected = (await (await registry(t.cfoKey, `/${rejectedOne.id}/decide`, { decision: 'rejected', comment: 'no' })).json()) as {
        decided_at: string;
      };

      const fact = await sealed(stream('approvals'), `${approval.id}:approved`);
      expect(fact).toMatchObject({ tenant_id: t.id, actor: 'service:registry' });
      expect(fact.custom_payload).toEqual({
        approval_id: approval.id,
        kind: 'registry',
        decision: 'approved',
        decider: t.cfoId,
        decided_at: decided.decided_at,
        override_id: decided.override_id,
      });
      const refused = await sealed(stream('approvals'), `${rejectedOne.id}:rejected`);
      expect(refused.custom_payload).toEqual({
        approval_id: rejectedOne.id,
        kind: 'registry',
        decision: 'rejected',
        decider: t.cfoId,
        decided_at: rejected.decided_at,
      });
    });

    it('seals every rule version as service:registry, its content_hash recomputed here from GET /v1/rule-versions/<id>', async () => {
      const reg = createRegistryClient({ baseUrl: stack.registry.url, apiKey: t.adminKey });
      const scope = await reg.createScope({ name: 'rules-sealed' });
      const rule = await reg.createRule(scope.id, {
        directive: 'Payouts to new payees wait a day — café ✓',
        severity: 'ADVISORY',
        applies_to: { actions: ['payments.*'] },
      });
      const versionId = (rule as unknown as { current_version_id: string }).current_version_id;
      const fact = await sealed(stream('rules'), versionId);
      expect(fact).toMatchObject({ tenant_id: t.id, actor: 'service:registry' });
      const publicForm = (await agent.getRuleVersion(versionId)) as unknown as Record<string, unknown>;
      const { status: _status, rule_status: _ruleStatus, ...content } = publicForm;
      expect(fact.custom_payload).toEqual({
        rule_version_id: versionId,
        rule_id: rule.id,
        version: publicForm.version,
        content_hash: canonicalHash(content),
      });

      // The tenant's earlier rule versions too (provisioned before the relay ran): each once, each hash right.
      for (const ruleId of Object.values(t.rules)) {
        const facts = (await ledger.listAllFacts(stream('rules'))).filter(
          (f) => (f.custom_payload as { rule_id?: string }).rule_id === ruleId,
        );
        expect(facts).toHaveLength(1);
        const payload = facts[0].custom_payload as { rule_version_id: string; content_hash: string };
        const {
          status: _s,
          rule_status: _r,
          ...rest
        } = (await agent.getRuleVersion(payload.rule_version_id)) as unknown as Record<string, unknown>;
        expect(payload.content_hash).toBe(canonicalHash(rest));
      }
    });

    it("refuses a tenant key sealing into arbiter.* with 403, while the tenant's read key lists the audit streams", async () => {
      for (const kind of ['consultations', 'approvals', 'rules'] as const) {
        await expect(
          ledger.seal(stream(kind), {
            tenant_id: t.id,
            actor: 'agent:forger',
            custom_payload: { consultation_id: 'cns-forged' },
            client_ref: 'cns-forged',
          }),
        ).rejects.toMatchObject({ service: 'ledger', status: 403, code: 'FORBIDDEN' });
        expect((await ledger.listFacts(stream(kind), { limit: 1000 })).facts.length).toBeGreaterThan(0);
      }
      // Another tenant's read key does not see them.
      await expect(ledgerAs(stack, other.agentKey).listFacts(stream('consultations'))).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('GET /<tenant>/v1/consultations/<id>/evidence', () => {
    it('answers the inclusion proof of the sealed fact, checked here with an independent RFC 9162 verifier and node:crypto Ed25519', async () => {
      const ids: string[] = [];
      for (const amount of [11, 12, 13, 14, 15]) ids.push((await agent.check(transfer(amount))).consultation_id);
      for (const id of ids) {
        const res = await eventually(`evidence of ${id}`, async () => {
          const r = await evidence(id);
          return r.status === 200 ? r : undefined;
        });
        const body = (await res.json()) as {
          consultation_id: string;
          ledger: {
            stream_id: string;
            fact_id: string;
            fact_hash: string;
            leaf_index: number;
            tree_size: number;
            inclusion_path: string[];
            checkpoint: Record<string, unknown> & {
              key_id: string;
              signature: string;
              root_hash: string;
              tree_size: number;
              stream_id: string;
            };
          };
        };
        const fact = await ledger.getFact(body.ledger.fact_id);
        expect(fact).toMatchObject({ stream_id: stream('consultations'), client_ref: id, fact_hash: body.ledger.fact_hash });
        const { leaf_index, tree_size, inclusion_path, checkpoint } = body.ledger;
        expect(leaf_index).toBe(fact.sequence - 1);
        expect(checkpoint).toMatchObject({ stream_id: stream('consultations'), tree_size, signature_alg: 'Ed25519' });
        expect(inclusionHolds(fact.fact_hash, leaf_index, tree_size, inclusion_path, checkpoint.root_hash)).toBe(true);
        expect(checkpointSignatureHolds(checkpoint, keys)).toBe(true);
        // The independent verifier is not a rubber stamp: a changed hash, index or root fails it.
        const flipped = inclusion_path.length
          ? [inclusion_path[0].replace(/.$/, (c) => (c === '0' ? '1' : '0')), ...inclusion_path.slice(1)]
          : inclusion_path;
        if (inclusion_path.length) expect(inclusionHolds(fact.fact_hash, leaf_index, tree_size, flipped, checkpoint.root_hash)).toBe(false);
        expect(
          inclusionHolds(fact.fact_hash, leaf_index, tree_size, inclusion_path, `sha256:${leafOf(fact.fact_hash).toString('hex')}`),
        ).toBe(tree_size === 1);
        expect(checkpointSignatureHolds({ ...checkpoint, tree_size: checkpoint.tree_size + 1 }, keys)).toBe(false);
      }
      // The SDK's typed call answers the same route.
      const viaSdk = await agent.getConsultationEvidence(ids[0]);
      expect(viaSdk.ledger.fact_id).toBe((await sealed(stream('consultations'), ids[0])).fact_id);
    });

    it("has the ledger's public proof routes agree with the independent verifier for every leaf, size and pair of sizes of the stream", async () => {
      const entries = await ledger.listAllFacts(stream('consultations'));
      const facts = await Promise.all(entries.map((e) => ledger.getFact(e.fact_id)));
      const size = facts.length;
      expect(size).toBeGreaterThanOrEqual(8);
      const checkpoints = await Promise.all(
        Array.from({ length: size }, (_, i) => ledger.getCheckpoint(stream('consultations'), { treeSize: i + 1 })),
      );
      for (const c of checkpoints) expect(checkpointSignatureHolds(c, keys)).toBe(true);
      for (const fact of facts) {
        for (let n = fact.sequence; n <= size; n++) {
          const proof = await ledger.getInclusion(fact.fact_id, { treeSize: n });
          expect(proof).toMatchObject({
            leaf_index: fact.sequence - 1,
            tree_size: n,
            checkpoint: { root_hash: checkpoints[n - 1].root_hash },
          });
          expect(inclusionHolds(fact.fact_hash, fact.sequence - 1, n, proof.inclusion_path, checkpoints[n - 1].root_hash)).toBe(true);
        }
      }
      for (let m = 1; m <= size; m++) {
        for (let n = m; n <= size; n++) {
          const { consistency_path } = await ledger.getConsistency(stream('consultations'), m, n);
          expect(consistencyHolds(m, n, consistency_path, checkpoints[m - 1].root_hash, checkpoints[n - 1].root_hash)).toBe(true);
          if (m < n)
            expect(consistencyHolds(m, n, consistency_path, checkpoints[n - 1].root_hash, checkpoints[m - 1].root_hash)).toBe(false);
        }
      }
    });

    it("answers 404 for an unknown consultation and 403 for another tenant's", async () => {
      const unknown = await evidence('cns-000000000000000000000000');
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ code: 'consultation_not_found' });
      const { consultation_id } = await agent.check(transfer(77));
      const crossTenant = await evidence(consultation_id, other.agentKey, t.id);
      expect(crossTenant.status).toBe(403);
      expect(await crossTenant.json()).toMatchObject({ code: 'cross_tenant_forbidden' });
      // Under its own tenant's path too: the consultation is found, and it is another tenant's.
      const ownPath = await evidence(consultation_id, other.agentKey, other.id);
      expect(ownPath.status).toBe(403);
    });

    it('answers 503 ledger_unavailable when the gateway has no LEDGER_URL, and when the ledger cannot be reached', async () => {
      const { consultation_id } = await agent.check(transfer(88));
      await eventually('sealed', async () => ((await evidence(consultation_id)).status === 200 ? true : undefined));
      const deadPort = await findFreePort();
      for (const LEDGER_URL of [undefined, `http://127.0.0.1:${deadPort}`]) {
        const gateway = await stack.startReplica('verdict', { env: { LEDGER_URL } });
        try {
          const res = await evidence(consultation_id, t.agentKey, t.id, gateway.url);
          expect(res.status).toBe(503);
          expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
          expect(await res.json()).toMatchObject({ code: 'ledger_unavailable' });
          // The rest of the gateway answers as ever.
          expect(
            (await fetch(`${gateway.url}/${t.id}/v1/consultations/${consultation_id}`, { headers: { 'X-API-Key': t.agentKey } })).status,
          ).toBe(200);
        } finally {
          await gateway.close();
        }
      }
    });
  });
});
