import { rm } from 'node:fs/promises';
import request from 'supertest';
import { applyMigrations, createPool } from '@arbiter/db';
import { createTestDatabase, migrationsWithout } from '@arbiter/testing';
import { registryMigrationsDir } from '../src/context';
import { hashToken, newToken } from '../src/domain/console-cookies';
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';

const DAY = 86_400_000;
const chat = { approval_notifications: { chat_webhooks: [{ url: 'https://93.184.215.14/hooks/abc', format: 'slack' }] } };

/**
 * What leaves the registry besides its partitions (docs/operations.md "Retention"): an approval notification with its
 * approval.requested event's retention once it is no longer pending, a console sign-in link or session a week after
 * it expired. The pruner runs on its timer here (PRUNE_INTERVAL_MS 1000); `pruner.round()` runs a round at once.
 */
describe('spent rows leave the registry', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let principalId: string;

  beforeAll(async () => {
    h = await startTestRegistry({ PRUNE_INTERVAL_MS: '1000' });
    t = await createTenantWithAdmin(h, 'spent', { ...chat, retention: { events: '2d' } });
    principalId = (await createPrincipalWithKey(h, t.admin.key, { kind: 'human', permissions: ['read'] })).principalId;
  });
  afterAll(() => h.stop());

  /** An approval of a new scope's REQUIRES_APPROVAL rule, requested by a writer: its notification rows. */
  async function notifiedApproval() {
    const auth = { Authorization: `Bearer ${t.admin.key}` };
    const scope = (
      await request(h.url)
        .post('/api/v1/scopes')
        .set(auth)
        .send({ name: `s-${newToken().slice(0, 8)}` })
        .expect(201)
    ).body.id;
    const rule = (
      await request(h.url)
        .post(`/api/v1/scopes/${scope}/rules`)
        .set(auth)
        .send({ directive: 'Finance decides', severity: 'REQUIRES_APPROVAL' })
        .expect(201)
    ).body.id;
    const writer = await createPrincipalWithKey(h, t.admin.key, { permissions: ['write', 'read'] });
    const approval = (
      await request(h.url)
        .post(`/api/v1/scopes/${scope}/approvals`)
        .set('Authorization', `Bearer ${writer.key}`)
        .send({ trigger_id: rule, intended_action: 'act' })
        .expect(201)
    ).body;
    return h.registry.ctx.prisma.approvalNotification.findMany({ where: { approval_id: approval.id } });
  }

  const stillThere = async (ids: string[]) =>
    (await h.registry.ctx.prisma.approvalNotification.findMany({ where: { id: { in: ids } }, select: { id: true } }))
      .map((r) => r.id)
      .sort();

  it("gives a notification its approval.requested event's keep_until (the tenant's retention of events)", async () => {
    const [row] = await notifiedApproval();
    const event = await h.registry.ctx.prisma.event.findFirstOrThrow({ where: { id: row.event_id } });
    expect(event.type).toBe('approval.requested');
    expect(row.keep_until.toISOString()).toBe(event.keep_until.toISOString());
    expect(row.keep_until.getTime() - event.created_at.getTime()).toBe(2 * DAY);
  });

  it('deletes a notification past its keep_until once sent, failed or cancelled; never a pending one, nor one still kept', async () => {
    const rows = await Promise.all([1, 2, 3, 4, 5].map(() => notifiedApproval().then((r) => r[0])));
    const [pending, sent, failed, cancelled, kept] = rows.map((r) => r.id);
    const past = new Date(Date.now() - 60_000);
    const set = (id: string, data: { status: string; keep_until?: Date }) =>
      h.registry.ctx.prisma.approvalNotification.update({ where: { id }, data });
    await set(pending, { status: 'pending', keep_until: past });
    await set(sent, { status: 'sent', keep_until: past });
    await set(failed, { status: 'failed', keep_until: past });
    await set(cancelled, { status: 'cancelled', keep_until: past });
    await set(kept, { status: 'sent' });

    await h.registry.ctx.pruner.round();
    expect(await stillThere(rows.map((r) => r.id))).toEqual([pending, kept].sort());

    // Once the pending row has run its course, it leaves too.
    await set(pending, { status: 'failed' });
    await h.registry.ctx.pruner.round();
    expect(await stillThere(rows.map((r) => r.id))).toEqual([kept]);
  });

  it('prunes on its own timer (PRUNE_INTERVAL_MS)', async () => {
    const [row] = await notifiedApproval();
    await h.registry.ctx.prisma.approvalNotification.update({
      where: { id: row.id },
      data: { status: 'sent', keep_until: new Date(Date.now() - 1) },
    });
    const deadline = Date.now() + 30_000;
    while ((await stillThere([row.id])).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await stillThere([row.id])).toEqual([]);
  });

  it('keeps an expired sign-in link for a week (410 "Link expired"), then deletes it (404, as an unknown link)', async () => {
    const link = async (expiredDaysAgo: number) => {
      const token = newToken();
      await h.registry.ctx.prisma.consoleLink.create({
        data: {
          id: `lnk-${newToken().slice(0, 12)}`,
          tenant_id: t.tenant.id,
          principal_id: principalId,
          token_hash: hashToken(token),
          created_at: new Date(Date.now() - expiredDaysAgo * DAY - 600_000),
          expires_at: new Date(Date.now() - expiredDaysAgo * DAY),
        },
      });
      return token;
    };
    const recent = await link(6);
    const old = await link(8);
    expect((await request(h.url).get(`/console/auth/link/${old}`)).status).toBe(410);

    await h.registry.ctx.pruner.round();
    const recentPage = await request(h.url).get(`/console/auth/link/${recent}`);
    expect(recentPage.status).toBe(410);
    expect(recentPage.text).toContain('Link expired');
    expect((await request(h.url).get(`/console/auth/link/${old}`)).status).toBe(404);
  });

  it('deletes a console session a week after it expired, and keeps a live one', async () => {
    const session = (expiresAt: Date) =>
      h.registry.ctx.prisma.consoleSession.create({
        data: {
          id: `cs-${newToken().slice(0, 12)}`,
          tenant_id: t.tenant.id,
          principal_id: principalId,
          token_hash: hashToken(newToken()),
          credential_hash: hashToken(newToken()),
          method: 'link',
          created_at: new Date(expiresAt.getTime() - 8 * 3_600_000),
          expires_at: expiresAt,
        },
      });
    const live = await session(new Date(Date.now() + 3_600_000));
    const recent = await session(new Date(Date.now() - 6 * DAY));
    const old = await session(new Date(Date.now() - 8 * DAY));

    await h.registry.ctx.pruner.round();
    const left = await h.registry.ctx.prisma.consoleSession.findMany({ where: { id: { in: [live.id, recent.id, old.id] } } });
    expect(left.map((s) => s.id).sort()).toEqual([live.id, recent.id].sort());
  });
});

describe('migration 20270105100000_spent_rows_leave on stored notifications', () => {
  it("gives each its event's keep_until, or its own created_at when the event has left", async () => {
    const db = await createTestDatabase('registry_spent_rows_migration');
    const pool = createPool({ url: db.url, max: 2 });
    try {
      const before = await migrationsWithout(registryMigrationsDir(), /^20270105100000_/);
      await applyMigrations(db.url, before);
      await rm(before, { recursive: true });
      await pool.query(`INSERT INTO tenants (id, slug, name) VALUES ('tnt-m', 'm', 'm')`);
      await pool.query(
        `INSERT INTO events (id, seq, tenant_id, type, entity_type, entity_id, data, idempotency_key, created_at, keep_until)
         VALUES ('evt-0000000000000001', 1, 'tnt-m', 'approval.requested', 'approval', 'apr-1', '{}', 'k-1', '2026-11-01T00:00:00Z', '2027-01-30T00:00:00Z')`,
      );
      const row = (id: string, event: string) =>
        pool.query(
          `INSERT INTO approval_notifications (id, tenant_id, event_id, approval_id, flow, reason, channel, recipient, max_attempts, status, created_at)
           VALUES ($1, 'tnt-m', $2, 'apr-1', 'registry', 'requested', 'email', $1 || '@example.test', 8, 'sent', '2026-11-01T00:00:00Z')`,
          [id, event],
        );
      await row('ntf-kept', 'evt-0000000000000001');
      await row('ntf-orphan', 'evt-gone');

      await applyMigrations(db.url, registryMigrationsDir());
      const { rows } = await pool.query<{ id: string; keep_until: Date }>(`SELECT id, keep_until FROM approval_notifications ORDER BY id`);
      expect(rows.map((r) => [r.id, r.keep_until.toISOString()])).toEqual([
        ['ntf-kept', '2027-01-30T00:00:00.000Z'],
        ['ntf-orphan', '2026-11-01T00:00:00.000Z'],
      ]);
    } finally {
      await pool.end();
      await db.drop();
    }
  });
});
