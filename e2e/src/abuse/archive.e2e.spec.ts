import request from 'supertest';
import { createVerdictTenant, type VerdictTenant } from '../verdict-harness';
import { startStack, type Stack } from '../stack';

/**
 * Abuse cases of the archive's internal routes (docs/operations.md "Archive"): the rows of a partition are every
 * tenant's data in bulk, and a recorded segment opens the drop gate, so both are what an outsider would want. Each
 * refusal stands beside the worker's legitimate call.
 */
describe('abuse: archive routes', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let partition: { verdict: string; registry: string };
  const token = () => stack.env('verdict').INTERNAL_TOKEN;
  const url = { verdict: () => stack.verdict.url, registry: () => stack.registry.url };

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'abuse-archive');
    // The partitions ahead, as the maintenance job has them made; one of each archived table.
    for (const service of ['verdict', 'registry'] as const)
      await request(url[service]()).post('/internal/v1/maintenance/partitions').set('X-Internal-Token', token()).expect(200);
    const first = async (service: 'verdict' | 'registry', table: string) =>
      (
        await stack.db(service).query<{ name: string }>(
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
              WHERE i.inhparent = $1::regclass AND c.relname <> $2 ORDER BY 1 LIMIT 1`,
          [table, `${table}_default`],
        )
      ).rows[0].name;
    partition = { verdict: await first('verdict', 'consultations'), registry: await first('registry', 'events') };
  });
  afterAll(() => stack.stop());

  const segment = (service: 'verdict' | 'registry', over: object = {}) => ({
    tenant_id: t.id,
    kind: service === 'verdict' ? 'consultations' : 'events',
    partition: partition[service],
    url: 'file:///archive/x.jsonl.gz',
    from: '2026-11-27T14:00:00.000Z',
    to: '2026-11-27T14:01:00.000Z',
    count: 0,
    sha256: `sha256:${'0'.repeat(64)}`,
    first_id: null,
    last_id: null,
    fact_id: 'fct-1',
    ...over,
  });

  it.each(['verdict', 'registry'] as const)(
    '%s: answers the worker, and refuses a tenant API key or no token with 401',
    async (service) => {
      const p = partition[service];
      const tenants = await request(url[service]())
        .get(`/internal/v1/maintenance/partitions/${p}/tenants`)
        .set('X-Internal-Token', token());
      expect(tenants.status).toBe(200);
      expect(tenants.body).toMatchObject({ partition: p, tenants: [] });
      const rows = `/internal/v1/maintenance/partitions/${p}/tenants/${t.id}/rows`;
      expect((await request(url[service]()).get(rows).set('X-Internal-Token', token())).status).toBe(200);
      for (const path of [`/internal/v1/maintenance/partitions/${p}/tenants`, rows]) {
        await request(url[service]()).get(path).set('X-API-Key', t.agent.key).set('Authorization', `Bearer ${t.adminKey}`).expect(401);
        await request(url[service]()).get(path).expect(401);
      }
      await request(url[service]())
        .post(`/internal/v1/maintenance/partitions/${p}/segments`)
        .set('Authorization', `Bearer ${t.adminKey}`)
        .send(segment(service))
        .expect(401);
    },
  );

  it.each(['verdict', 'registry'] as const)(
    '%s: reads no table by a crafted partition name: 400 for a name, 404 for another table',
    async (service) => {
      for (const bad of ['consultations%22%3B%20DROP%20TABLE%20x', '..%2Fevents', 'pg_authid'])
        await request(url[service]())
          .get(`/internal/v1/maintenance/partitions/${bad}/tenants`)
          .set('X-Internal-Token', token())
          .expect(400);
      for (const other of ['resolve_sessions_p20261127t1400', 'seal_outbox_p20261127t1400', 'principals_legacy'])
        await request(url[service]())
          .get(`/internal/v1/maintenance/partitions/${other}/tenants`)
          .set('X-Internal-Token', token())
          .expect(404);
    },
  );

  it.each(['verdict', 'registry'] as const)(
    '%s: records a segment of the partition once, and refuses one of another kind, partition or shape with 400',
    async (service) => {
      const p = partition[service];
      const post = (body: object) =>
        request(url[service]()).post(`/internal/v1/maintenance/partitions/${p}/segments`).set('X-Internal-Token', token()).send(body);
      const { to } = (
        await request(url[service]()).get(`/internal/v1/maintenance/partitions/${p}/tenants`).set('X-Internal-Token', token())
      ).body;
      for (const bad of [
        segment(service, { to, kind: service === 'verdict' ? 'events' : 'consultations' }),
        segment(service, { to, partition: `${p}x` }),
        segment(service, { to, sha256: 'sha256:zz' }),
        segment(service, { to, count: -1 }),
        segment(service, { to, url: 'http://elsewhere/x' }),
        segment(service, { to, tenant_id: '../tnt' }),
        { ...segment(service, { to }), extra: 1 },
      ])
        expect((await post(bad)).status).toBe(400);
      const first = await post(segment(service, { to })).expect(201);
      const again = await post(segment(service, { to, sha256: `sha256:${'1'.repeat(64)}` })).expect(200);
      expect(again.body).toEqual({ created: false, segment: first.body.segment });
      expect((await post(segment(service, { to: '2000-01-01T00:00:00.000Z' }))).status).toBe(400);
    },
  );
});
