import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import request from 'supertest';
import { createPrincipalWithKey } from '../../apps/registry/test/harness';
import { ConsultationRepository } from '../../apps/verdict/src/repositories/consultations.repository';
import type { SealedConsultation } from '../../apps/verdict/src/domain/consultation-builder';
import { createPool } from '@arbiter/db';
import { createVerdictTenant, registryApi, verdictApi, type VerdictTenant } from './verdict-harness';
import { startStack, type Stack } from './stack';
import { outboxRows, sealOutboxApi, sql } from './seal-harness';

/** The RFC 8785 SHA-256 of a rule version without its derived fields, computed here without the project's code. */
function contentHash(body: Record<string, unknown>): string {
  const { status: _s, rule_status: _r, ...content } = body;
  return `sha256:${createHash('sha256').update(canonicalize(content)!).digest('hex')}`;
}

/**
 * The seal outbox (docs/operations.md "Seal relay") through HTTP against real PostgreSQL and Redis:
 * what the verdict gateway and the registry write with each decision, and the lease / done / release
 * of their internal APIs.
 */
describe('seal outbox', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let scope: string;
  let rule: { id: string; current_version_id: string };
  let finance: { principalId: string; key: string };
  const verdictDb = () => stack.databaseUrl('verdict');
  const registryDb = () => stack.registry.databaseUrl;

  const transfer = (amount: number) => ({
    action: 'payments.transfer',
    resource: 'acct:eu/4471',
    scope: { region: 'eu', env: 'prod' },
    parameters: { transfer: { amount } },
    on_behalf_of: t.humanId,
  });

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'seal-a');
    const reg = registryApi(stack, t.adminKey);
    scope = await reg.scope('eu', { region: 'eu' });
    rule = await reg.rule(scope, {
      directive: 'Transfers above 10,000 need finance approval',
      severity: 'REQUIRES_APPROVAL',
      applies_to: { actions: ['payments.transfer'] },
      conditions: [{ field: 'transfer.amount', op: 'gt', value: 10000 }],
      deciders: ['role-finance'],
    });
    finance = await createPrincipalWithKey(stack.registry, t.adminKey, {
      kind: 'human',
      permissions: ['approve', 'read'],
      roles: ['role-finance'],
    });
  });
  afterAll(() => stack.stop());

  const agent = () => verdictApi(stack, t.agent.key, t.id);

  describe('verdict gateway', () => {
    it('writes exactly one row with each consultation, with the consultation payload', async () => {
      const checked = await agent().check(transfer(5)).expect(200);
      const id = checked.body.consultation_id as string;
      const record = (await agent().consultation(id).expect(200)).body;

      const rows = await outboxRows(verdictDb(), 'client_ref = $1', [id]);

      expect(rows).toEqual([
        expect.objectContaining({
          tenant_id: t.id,
          stream_id: `arbiter.${t.id}.consultations`,
          client_ref: id,
          attempts: 0,
          leased_until: null,
          payload: {
            consultation_id: id,
            normative_hash: record.normative_hash,
            context_hash: record.context_hash,
            verdict: record.verdict,
            signing_kid: record.signing_kid,
            decided_at: record.requested_at,
          },
        }),
      ]);
      expect(Object.keys(rows[0].payload)).toEqual([
        'consultation_id',
        'normative_hash',
        'context_hash',
        'verdict',
        'signing_kid',
        'decided_at',
      ]);
    });

    it('writes a row for every consultation of a batch and none for a consultation the database refused', async () => {
      // Straight on the repository (the group commit): one duplicate id fails alone, the others commit with their rows.
      const pool = createPool({ url: verdictDb(), max: 2 });
      const repo = new ConsultationRepository(pool);
      try {
        const taken = (await outboxRows(verdictDb(), 'stream_id = $1', [`arbiter.${t.id}.consultations`]))[0].client_ref;
        // The duplicate has the stored record's key: its id and keep_until (the same requested_at and retention).
        const { rows: stored } = await pool.query<{ requested_at: Date }>('SELECT requested_at FROM consultations WHERE id = $1', [taken]);
        const sealed = (id: string): SealedConsultation => {
          const record = {
            id,
            tenant_id: t.id,
            caller_principal_id: t.agent.id,
            requested_at: (id === taken ? stored[0].requested_at : new Date()).toISOString(),
            action: 'payments.transfer',
            verdict: 'allowed',
            dominating_rule_id: null,
            normative_hash: `sha256:${'a'.repeat(64)}`,
            context_hash: `sha256:${'b'.repeat(64)}`,
            signing_kid: `${t.id}:1`,
          };
          return { record, json: JSON.stringify(record) } as unknown as SealedConsultation;
        };
        const results = await Promise.allSettled(
          [sealed('cns-seal-batch-1'), sealed(taken), sealed('cns-seal-batch-2')].map((s) => repo.save(s)),
        );

        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect(
          (await outboxRows(verdictDb(), 'client_ref = ANY($1)', [['cns-seal-batch-1', 'cns-seal-batch-2']]))
            .map((r) => r.client_ref)
            .sort(),
        ).toEqual(['cns-seal-batch-1', 'cns-seal-batch-2']);
        // The refused duplicate wrote nothing: its id still has the one row of the first consultation.
        expect(await outboxRows(verdictDb(), 'client_ref = $1', [taken])).toHaveLength(1);
      } finally {
        await repo.drain();
        await pool.end();
      }
    });

    it('writes the decision row of a verdict approval: approved without and with a grant, rejected', async () => {
      const decide = async (amount: number, body: object) => {
        const checked = await agent().check(transfer(amount)).expect(200);
        expect(checked.body.verdict).toBe('approval_required');
        const approval = (await agent().post(`/${t.id}/v1/approvals`, { consultation_id: checked.body.consultation_id }).expect(201)).body;
        const decided = (await verdictApi(stack, finance.key, t.id).post(`/${t.id}/v1/approvals/${approval.id}/decision`, body).expect(200))
          .body;
        return { consultationId: checked.body.consultation_id as string, decided };
      };
      const plain = await decide(20_000, { decision: 'approve' });
      // Rejected before the grant: once the grant reaches the snapshot, checks in its scope are allowed.
      const rejected = await decide(40_000, { decision: 'reject', decider_notes: 'no' });
      const granted = await decide(30_000, {
        decision: 'approve',
        grant: { applies_to_scope: { region: 'eu', env: 'prod' }, expires_at: new Date(Date.now() + 600_000).toISOString() },
      });

      const rows = await outboxRows(verdictDb(), 'stream_id = $1', [`arbiter.${t.id}.approvals`]);

      expect(rows.map((r) => [r.client_ref, r.payload])).toEqual([
        [
          `${plain.decided.id}:approved`,
          {
            approval_id: plain.decided.id,
            kind: 'verdict',
            consultation_id: plain.consultationId,
            decision: 'approved',
            decider: finance.principalId,
            decided_at: plain.decided.decided_at,
          },
        ],
        [
          `${rejected.decided.id}:rejected`,
          {
            approval_id: rejected.decided.id,
            kind: 'verdict',
            consultation_id: rejected.consultationId,
            decision: 'rejected',
            decider: finance.principalId,
            decided_at: rejected.decided.decided_at,
          },
        ],
        [
          `${granted.decided.id}:approved`,
          {
            approval_id: granted.decided.id,
            kind: 'verdict',
            consultation_id: granted.consultationId,
            decision: 'approved',
            decider: finance.principalId,
            decided_at: granted.decided.decided_at,
            override_id: granted.decided.grants[0].override_id,
          },
        ],
      ]);
      expect(rows.every((r) => r.tenant_id === t.id)).toBe(true);
    });

    it('writes no row with LEDGER_SEALING=false', async () => {
      const unsealed = await stack.startReplica('verdict', { freshDatabase: true, env: { LEDGER_SEALING: 'false' } });
      try {
        const checked = await verdictApi({ verdict: unsealed }, t.agent.key, t.id).check(transfer(5)).expect(200);
        expect(checked.body.consultation_id).toMatch(/^cns-/);
        expect(await outboxRows(unsealed.ctx.config.DATABASE_URL_VERDICT)).toEqual([]);
      } finally {
        await unsealed.close();
      }
    });
  });

  describe('registry', () => {
    it('writes a row with each new rule version, its content_hash over GET /v1/rule-versions/<id> without status and rule_status', async () => {
      const reg = registryApi(stack, t.adminKey);
      const made = await reg.rule(scope, {
        directive: 'No transfers to sanctioned countries',
        severity: 'MANDATORY',
        applies_to: { actions: ['payments.transfer'] },
      });
      const updated = await reg.updateRule(scope, made.id, {
        directive: 'No transfers to sanctioned countries, ever',
        severity: 'MANDATORY',
        applies_to: { actions: ['payments.transfer'], resources: ['acct:*'] },
        conditions: [{ field: 'transfer.country', op: 'in', value: ['KP', 'IR'] }],
        priority: 7,
      });
      const versions = [made.current_version_id, updated.current_version_id];

      const rows = await outboxRows(registryDb(), 'client_ref = ANY($1)', [versions]);

      expect(rows).toHaveLength(2);
      for (const [i, id] of versions.entries()) {
        const body = (await agent().ruleVersion(id).expect(200)).body;
        expect(rows[i]).toMatchObject({
          tenant_id: t.id,
          stream_id: `arbiter.${t.id}.rules`,
          client_ref: id,
          payload: { rule_version_id: id, rule_id: made.id, version: i + 1, content_hash: contentHash(body) },
        });
        expect(Object.keys(rows[i].payload)).toEqual(['rule_version_id', 'rule_id', 'version', 'content_hash']);
      }
      // The first version is superseded now: its status changed, its hash did not.
      expect((await agent().ruleVersion(versions[0]).expect(200)).body.status).toBe('superseded');
    });

    it('writes the decision row of a registry approval, with the override an approval granted', async () => {
      const requester = await createPrincipalWithKey(stack.registry, t.adminKey, { kind: 'agent', permissions: ['read', 'write'] });
      const ask = async () =>
        (
          await request(stack.registry.url)
            .post(`/api/v1/scopes/${scope}/approvals`)
            .set('Authorization', `Bearer ${requester.key}`)
            .send({ trigger_id: rule.id, intended_action: 'pay the invoice' })
            .expect(201)
        ).body as { id: string };
      const decide = async (id: string, decision: string) =>
        (
          await request(stack.registry.url)
            .post(`/api/v1/scopes/${scope}/approvals/${id}/decide`)
            .set('Authorization', `Bearer ${finance.key}`)
            .send({ decision })
            .expect(200)
        ).body as { id: string; decided_at: string; override_id: string | null };
      const approved = await decide((await ask()).id, 'approved');
      const rejected = await decide((await ask()).id, 'rejected');
      expect(approved.override_id).toMatch(/^ovr-/);

      const rows = await outboxRows(registryDb(), 'stream_id = $1', [`arbiter.${t.id}.approvals`]);

      expect(rows.map((r) => [r.client_ref, r.payload])).toEqual([
        [
          `${approved.id}:approved`,
          {
            approval_id: approved.id,
            kind: 'registry',
            decision: 'approved',
            decider: finance.principalId,
            decided_at: approved.decided_at,
            override_id: approved.override_id,
          },
        ],
        [
          `${rejected.id}:rejected`,
          {
            approval_id: rejected.id,
            kind: 'registry',
            decision: 'rejected',
            decider: finance.principalId,
            decided_at: rejected.decided_at,
          },
        ],
      ]);
    });
  });

  describe.each([
    ['verdict', () => stack.verdict.url, () => stack.databaseUrl('verdict')],
    ['registry', () => stack.registry.url, () => stack.registry.databaseUrl],
  ])('internal API of the %s', (_name, url, db) => {
    beforeEach(async () => {
      await sql(db(), 'DELETE FROM seal_outbox');
      await sql(
        db(),
        `INSERT INTO seal_outbox (tenant_id, stream_id, client_ref, payload)
         SELECT $1, 'arbiter.' || $1 || '.rules', 'ref-' || n, json_build_object('n', n) FROM generate_series(1, 10) AS n`,
        [t.id],
      );
    });

    it('answers 401 without the service token, and with a tenant API key', async () => {
      for (const op of ['lease', 'done', 'release']) {
        await request(url()).post(`/internal/v1/seal-outbox/${op}`).send({}).expect(401);
        await request(url())
          .post(`/internal/v1/seal-outbox/${op}`)
          .set('X-API-Key', t.agent.key)
          .set('Authorization', `Bearer ${t.adminKey}`)
          .send({})
          .expect(401);
        await sealOutboxApi(url(), 'not-the-internal-token-000').raw(op, {}).expect(401);
      }
      expect((await outboxRows(db())).every((r) => r.leased_until === null)).toBe(true);
    });

    it('refuses malformed bodies with 400', async () => {
      const api = sealOutboxApi(url());
      await api.lease({ limit: 0 }).expect(400);
      await api.lease({ limit: 1001 }).expect(400);
      await api.lease({ lease_ms: 10 }).expect(400);
      await api.raw('lease', { limit: 5, extra: true }).expect(400);
      await api.raw('done', { ids: ['1; DROP TABLE seal_outbox'] }).expect(400);
      await api.raw('done', {}).expect(400);
      await api.raw('release', { ids: ['1'] }).expect(400);
      await api.raw('release', { ids: ['1'], leased_until: 'yesterday' }).expect(400);
      expect(await outboxRows(db())).toHaveLength(10);
    });

    it('leases oldest first, disjoint sets to concurrent callers, with the seal as the ledger takes it', async () => {
      const api = sealOutboxApi(url());
      const [a, b] = await Promise.all([api.lease({ limit: 6 }).expect(200), api.lease({ limit: 6 }).expect(200)]);
      const ids = (res: request.Response) => (res.body.items as Array<{ id: string }>).map((i) => i.id);

      expect(ids(a).length + ids(b).length).toBe(10);
      expect(new Set([...ids(a), ...ids(b)]).size).toBe(10);
      for (const res of [a, b]) {
        expect(ids(res)).toEqual([...ids(res)].sort((x, y) => Number(x) - Number(y)));
        expect(res.body.leased_until).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      }
      const first = [...a.body.items, ...b.body.items].find((i: { seal: { client_ref: string } }) => i.seal.client_ref === 'ref-1');
      expect(first).toEqual({
        id: expect.stringMatching(/^\d+$/),
        attempts: 1,
        seal: {
          stream_id: `arbiter.${t.id}.rules`,
          tenant_id: t.id,
          actor: `service:${_name}`,
          custom_payload: { n: 1 },
          client_ref: 'ref-1',
        },
      });
      // Everything is leased: nothing more to hand out.
      expect((await api.lease({ limit: 10 }).expect(200)).body.items).toEqual([]);
    });

    it('deletes done rows, frees released ones at once (only under their own lease), and hands out expired leases again', async () => {
      const api = sealOutboxApi(url());
      const lease = (await api.lease({ limit: 10, lease_ms: 1000 }).expect(200)).body as {
        leased_until: string;
        items: Array<{ id: string }>;
      };
      const ids = lease.items.map((i) => i.id);

      expect((await api.done(ids.slice(0, 3)).expect(200)).body).toEqual({ deleted: 3 });
      expect((await api.release(ids.slice(3, 5), '2020-01-01T00:00:00.000Z').expect(200)).body).toEqual({ released: 0 });
      expect((await api.release(ids.slice(3, 5), lease.leased_until).expect(200)).body).toEqual({ released: 2 });
      expect((await outboxRows(db())).map((r) => r.id)).toEqual(ids.slice(3));

      const again = (await api.lease({ limit: 10, lease_ms: 60_000 }).expect(200)).body.items as Array<{ id: string; attempts: number }>;
      expect(again.map((i) => [i.id, i.attempts])).toEqual(ids.slice(3, 5).map((id) => [id, 2]));

      // The other five come back once their one-second lease ran out.
      await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(lease.leased_until) - Date.now()) + 50));
      const expired = (await api.lease({ limit: 10 }).expect(200)).body.items as Array<{ id: string; attempts: number }>;
      expect(expired.map((i) => [i.id, i.attempts])).toEqual(ids.slice(5).map((id) => [id, 2]));
    });
  });
});
