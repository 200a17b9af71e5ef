import { Redis } from 'ioredis';
import { testRedisUrl } from '@arbiter/testing';
import { createPrincipalWithKey, createTenantWithAdmin, startTestRegistry, type RegistryHarness, type TenantFixture } from './harness';
import { api, createScope, expectConforms, type Api } from './fixtures';
import { REGISTRY_CHANGED_CHANNEL, type RegistryChangeMessage } from '../src/services/changes.service';

interface Ev {
  id: string;
  type: string;
  scope_id: string | null;
  scope_ids: string[];
  entity_type: string;
  entity_id: string;
  actor_id: string | null;
  data: Record<string, unknown>;
}

describe('registry event feed', () => {
  let h: RegistryHarness;
  let t: TenantFixture;
  let admin: Api;

  beforeAll(async () => {
    h = await startTestRegistry();
    t = await createTenantWithAdmin(h, 'events');
    admin = api(h, t.admin.key);
  });
  afterAll(() => h.stop());

  const feed = async (scopeId: string, query = '', a = admin): Promise<Ev[]> => {
    const res = await a.get(`/api/v1/scopes/${scopeId}/events?limit=1000${query}`).expect(200);
    expectConforms(res, 'get', '/api/v1/scopes/{scope_id}/events');
    return res.body.items;
  };

  it('writes one event per change, oldest first, with the entity as data', async () => {
    const s = await createScope(admin, 'everything');
    const other = await createScope(admin, 'other');
    await admin.patch(`/api/v1/scopes/${s.id}`, { description: 'x' }).expect(200);
    await admin.post(`/api/v1/scopes/${s.id}/namespaces`, { path: 'ns' }).expect(201);
    const dec = await admin.post(`/api/v1/scopes/${s.id}/decisions`, { decision: 'd' }).expect(201);
    const inv = await admin.post(`/api/v1/scopes/${s.id}/invariants`, { constraint: 'c' }).expect(201);
    const rule = await admin.post(`/api/v1/scopes/${s.id}/rules`, { directive: 'r', severity: 'MANDATORY' }).expect(201);
    const v2 = await admin.put(`/api/v1/scopes/${s.id}/rules/${rule.body.id}`, { directive: 'r2', severity: 'MANDATORY' }).expect(200);
    const o = await admin
      .post(`/api/v1/scopes/${s.id}/overrides`, { target_id: inv.body.id, override_type: 'permanent', justification: 'j' })
      .expect(201);
    await admin.delete(`/api/v1/scopes/${s.id}/overrides/${o.body.id}`).expect(200);
    await admin.delete(`/api/v1/scopes/${s.id}/overrides/${o.body.id}`).expect(200);
    await admin.delete(`/api/v1/scopes/${s.id}/invariants/${inv.body.id}`).expect(200);
    await admin.delete(`/api/v1/scopes/${s.id}/invariants/${inv.body.id}`).expect(200);
    await admin
      .post(`/api/v1/scopes/${s.id}/references`, { entry_id: dec.body.id, context_type: 'ticket', context_ref: 'T-1', status: 'cited' })
      .expect(201);
    const otherRule = await admin.post(`/api/v1/scopes/${other.id}/rules`, { directive: 'o', severity: 'ADVISORY' }).expect(201);
    const link = await admin
      .post('/api/v1/links', {
        from_id: dec.body.id,
        from_type: 'decision',
        to_id: otherRule.body.id,
        to_type: 'rule',
        relation: 'depends_on',
      })
      .expect(201);
    await admin.patch(`/api/v1/scopes/${s.id}/rules/${rule.body.id}/archive`).expect(200);
    await admin.patch(`/api/v1/scopes/${s.id}/rules/${rule.body.id}/archive`).expect(200);

    const events = await feed(s.id);
    expect(events.map((e) => e.type)).toEqual([
      'scope.created',
      'scope.updated',
      'namespace.created',
      'decision.created',
      'invariant.created',
      'rule.created',
      'rule.updated',
      'override.created',
      'override.revoked',
      'invariant.revoked',
      'reference.created',
      'link.created',
      'rule.archived',
    ]);
    for (const e of events) {
      expect(e.id).toMatch(/^evt-[0-9a-f]{16}$/);
      expect(e.scope_ids).toContain(s.id);
      expect(e.actor_id).toBe(t.admin.principalId);
    }
    const updated = events.find((e) => e.type === 'rule.updated')!;
    expect(updated).toMatchObject({
      scope_id: s.id,
      entity_type: 'rule',
      entity_id: rule.body.id,
      data: { ...v2.body, previous_version_id: rule.body.current_version_id },
    });
    const linked = events.find((e) => e.type === 'link.created')!;
    expect(linked).toMatchObject({ entity_id: link.body.id, scope_id: s.id, scope_ids: [s.id, other.id], data: link.body });
    expect((await feed(other.id)).map((e) => e.type)).toEqual(['scope.created', 'rule.created', 'link.created']);
  });

  it('writes no event for a change that fails', async () => {
    const s = await createScope(admin, 'failing');
    const rule = await admin.post(`/api/v1/scopes/${s.id}/rules`, { directive: 'r', severity: 'MANDATORY' }).expect(201);
    await admin.patch(`/api/v1/scopes/${s.id}/rules/${rule.body.id}/archive`).expect(200);
    await admin.put(`/api/v1/scopes/${s.id}/rules/${rule.body.id}`, { directive: 'r2', severity: 'MANDATORY' }).expect(409);
    await admin.post(`/api/v1/scopes/${s.id}/namespaces`, { path: 'a' }).expect(201);
    await admin.post(`/api/v1/scopes/${s.id}/namespaces`, { path: 'a' }).expect(409);
    await admin.post(`/api/v1/scopes/${s.id}/decisions`, { decision: 'x', namespace: 'missing' }).expect(404);
    expect((await feed(s.id)).map((e) => e.type)).toEqual(['scope.created', 'rule.created', 'rule.archived', 'namespace.created']);
  });

  it('filters by type and resumes strictly after an event id', async () => {
    const s = await createScope(admin, 'filtering');
    const rule = await admin.post(`/api/v1/scopes/${s.id}/rules`, { directive: 'r', severity: 'MANDATORY' }).expect(201);
    for (let i = 0; i < 3; i++)
      await admin.put(`/api/v1/scopes/${s.id}/rules/${rule.body.id}`, { directive: `r${i}`, severity: 'MANDATORY' }).expect(200);
    await admin.patch(`/api/v1/scopes/${s.id}/rules/${rule.body.id}/archive`).expect(200);

    const all = await feed(s.id);
    expect((await feed(s.id, '&type=rule.updated')).map((e) => e.type)).toEqual(['rule.updated', 'rule.updated', 'rule.updated']);
    expect((await feed(s.id, '&type=rule.created,rule.archived')).map((e) => e.type)).toEqual(['rule.created', 'rule.archived']);
    expect(await feed(s.id, '&type=nothing.happened')).toEqual([]);

    const after = await feed(s.id, `&after=${all[2].id}`);
    expect(after.map((e) => e.id)).toEqual(all.slice(3).map((e) => e.id));
    expect(await feed(s.id, `&after=${all[all.length - 1].id}`)).toEqual([]);
    expect((await feed(s.id, `&after=${all[1].id}&type=rule.updated`)).map((e) => e.id)).toEqual([all[2].id, all[3].id, all[4].id]);

    const p1 = await admin.get(`/api/v1/scopes/${s.id}/events?limit=2`).expect(200);
    const p2 = await admin.get(`/api/v1/scopes/${s.id}/events?limit=2&cursor=${p1.body.next_cursor}`).expect(200);
    expect([...p1.body.items, ...p2.body.items].map((e: Ev) => e.id)).toEqual(all.slice(0, 4).map((e) => e.id));

    await admin.get(`/api/v1/scopes/${s.id}/events?after=42`).expect(400);
    await admin.get(`/api/v1/scopes/${s.id}/events?after=evt-XYZ`).expect(400);
    // Past the largest position (a PostgreSQL bigint) no event can be named.
    await admin.get(`/api/v1/scopes/${s.id}/events?after=evt-8000000000000000`).expect(400);
    await admin.get(`/api/v1/scopes/${s.id}/events?after=evt-ffffffffffffffff`).expect(400);
    expect(await feed(s.id, '&after=evt-7fffffffffffffff')).toEqual([]);
    await admin.get(`/api/v1/scopes/${s.id}/events?cursor=bm9wZQ`).expect(400);
    await admin.get(`/api/v1/scopes/${s.id}/events?limit=5000`).expect(400);
    await admin.get('/api/v1/scopes/scp-000000000000000000000000/events').expect(404);
  });

  it('orders events strictly within a tenant under concurrent writes, so a reader following with after misses none', async () => {
    const s1 = await createScope(admin, 'busy-1');
    const s2 = await createScope(admin, 'busy-2');
    const u = await createTenantWithAdmin(h, 'events-noise');
    const uAdmin = api(h, u.admin.key);
    const us = await createScope(uAdmin, 'noise');

    const seen: Record<string, string[]> = { [s1.id]: [], [s2.id]: [] };
    let writing = true;
    const follow = async (scopeId: string) => {
      const ids = seen[scopeId];
      const poll = async () => {
        const last = ids[ids.length - 1];
        const page = await feed(scopeId, last ? `&after=${last}` : '');
        ids.push(...page.map((e) => e.id));
      };
      while (writing) await poll();
      await poll();
    };
    const followers = [follow(s1.id), follow(s2.id)];
    const writes: Array<Promise<unknown>> = [];
    for (let i = 0; i < 30; i++) {
      writes.push(admin.post(`/api/v1/scopes/${i % 2 ? s1.id : s2.id}/decisions`, { decision: `d${i}` }).expect(201));
      writes.push(admin.post(`/api/v1/scopes/${i % 3 ? s1.id : s2.id}/invariants`, { constraint: `c${i}` }).expect(201));
      writes.push(uAdmin.post(`/api/v1/scopes/${us.id}/decisions`, { decision: `noise ${i}` }).expect(201));
    }
    await Promise.all(writes);
    writing = false;
    await Promise.all(followers);

    const full1 = (await feed(s1.id)).map((e) => e.id);
    const full2 = (await feed(s2.id)).map((e) => e.id);
    expect(seen[s1.id]).toEqual(full1);
    expect(seen[s2.id]).toEqual(full2);
    const tenantWide = [...full1, ...full2];
    expect(new Set(tenantWide).size).toBe(tenantWide.length);
    expect(tenantWide.length).toBe(2 + 60);
    for (const ids of [full1, full2]) {
      for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    }
  });

  it('keeps restricted keys to the feeds of their scopes and needs read', async () => {
    const mine = await createScope(admin, 'feed-mine');
    const other = await createScope(admin, 'feed-other');
    const restricted = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read'], scope_ids: [mine.id] });
    await api(h, restricted.key).get(`/api/v1/scopes/${mine.id}/events`).expect(200);
    await api(h, restricted.key).get(`/api/v1/scopes/${other.id}/events`).expect(404);
    // An event that concerns another scope too is left out of its feed: a link to the other scope's rule names it.
    const mineRule = await admin.post(`/api/v1/scopes/${mine.id}/rules`, { directive: 'mine', severity: 'ADVISORY' }).expect(201);
    const otherRule = await admin.post(`/api/v1/scopes/${other.id}/rules`, { directive: 'other', severity: 'ADVISORY' }).expect(201);
    const mineDecision = await admin.post(`/api/v1/scopes/${mine.id}/decisions`, { decision: 'd' }).expect(201);
    const link = (to: string) => ({ from_id: mineRule.body.id, from_type: 'rule', to_id: to, relation: 'depends_on' });
    const across = await admin.post('/api/v1/links', { ...link(otherRule.body.id), to_type: 'rule' }).expect(201);
    const inside = await admin.post('/api/v1/links', { ...link(mineDecision.body.id), to_type: 'decision' }).expect(201);
    const linksSeen = async (a: Api) => (await feed(mine.id, '&type=link.created', a)).map((e) => e.entity_id);
    expect(await linksSeen(api(h, restricted.key))).toEqual([inside.body.id]);
    expect(JSON.stringify(await feed(mine.id, '', api(h, restricted.key)))).not.toContain(other.id);
    // A key of every scope sees both.
    expect(await linksSeen(admin)).toEqual([across.body.id, inside.body.id]);
    const noRead = await createPrincipalWithKey(h, t.admin.key, { permissions: ['write'] });
    expect((await api(h, noRead.key).get(`/api/v1/scopes/${mine.id}/events`).expect(403)).body).toEqual({
      detail: 'Missing permission: read',
    });
  });

  describe('Redis announcements', () => {
    let sub: Redis;
    const messages: RegistryChangeMessage[] = [];
    const waiters: Array<() => void> = [];

    beforeAll(async () => {
      sub = new Redis(testRedisUrl());
      sub.on('message', (_channel, raw) => {
        messages.push(JSON.parse(raw));
        waiters.splice(0).forEach((w) => w());
      });
      await sub.subscribe(REGISTRY_CHANGED_CHANNEL);
    });
    afterAll(() => sub.quit());

    const announced = async (match: (m: RegistryChangeMessage) => boolean): Promise<RegistryChangeMessage> => {
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    };

    it('announces each committed change with the tenant, its revision and the events', async () => {
      const s = await createScope(admin, 'announced');
      const rule = await admin.post(`/api/v1/scopes/${s.id}/rules`, { directive: 'r', severity: 'MANDATORY' }).expect(201);
      const [created] = (await feed(s.id, '&type=rule.created')).map((e) => e.id);
      const m1 = await announced((m) => m.event_ids.includes(created));
      expect(m1).toEqual({
        tenant_id: t.tenant.id,
        revision: expect.any(Number),
        event_ids: [created],
        types: ['rule.created'],
        scope_ids: [s.id],
      });
      await admin.put(`/api/v1/scopes/${s.id}/rules/${rule.body.id}`, { directive: 'r2', severity: 'MANDATORY' }).expect(200);
      const m2 = await announced((m) => m.types.includes('rule.updated') && m.scope_ids.includes(s.id));
      expect(m2.revision).toBeGreaterThan(m1.revision);
    });

    it("announces changes of principals' roles and of tenant settings, which the verdict gateway reads", async () => {
      const p = await createPrincipalWithKey(h, t.admin.key, { permissions: ['read'] });
      await admin.patch(`/api/v1/principals/${p.principalId}`, { roles: ['role-finance'] }).expect(200);
      const m = await announced((x) => x.tenant_id === t.tenant.id && x.types.includes('principal.updated'));
      expect(m).toMatchObject({ event_ids: [], scope_ids: [] });
      await admin.patch(`/api/v1/tenants/${t.tenant.id}`, { settings: { default_verdict: 'blocked' } }).expect(200);
      const s = await announced((x) => x.tenant_id === t.tenant.id && x.types.includes('tenant.updated'));
      expect(s.revision).toBeGreaterThan(m.revision);
    });
  });
});
