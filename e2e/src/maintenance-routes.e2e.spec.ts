import request from 'supertest';
import { TEST_INTERNAL_TOKEN } from '../../apps/registry/test/harness';
import { startStack, type Stack } from './stack';

/** The maintenance routes of /internal/v1 (docs/operations.md "Partitions"): what they answer a caller who gets them wrong. */
describe('maintenance internal routes', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
  });
  afterAll(() => stack.stop());

  const services = () => [
    ['verdict', stack.verdict.url],
    ['registry', stack.registry.url],
  ];
  const post = (url: string, path: string, token: string | null = TEST_INTERNAL_TOKEN) => {
    const r = request(url).post(path);
    return token === null ? r : r.set('X-Internal-Token', token);
  };

  it('refuses callers without the internal token, or with a tenant key', async () => {
    for (const [, url] of services()) {
      await post(url, '/internal/v1/maintenance/partitions', null).expect(401);
      await post(url, '/internal/v1/maintenance/partitions/consultations_p20200101t0000/drop', null).expect(401);
      await post(url, '/internal/v1/maintenance/partitions', 'not-the-internal-token-0000').expect(401);
    }
    await request(stack.registry.url)
      .get('/internal/v1/maintenance/retentions')
      .set('Authorization', `Bearer ${stack.registry.adminKey}`)
      .expect(401);
  });

  it('answers 400 for a name that is not a partition name, in each service dialect', async () => {
    const verdict = await post(
      stack.verdict.url,
      `/internal/v1/maintenance/partitions/${encodeURIComponent('consultations; DROP TABLE x')}/drop`,
    ).expect(400);
    expect(verdict.body).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('partition') });
    const registry = await post(stack.registry.url, '/internal/v1/maintenance/partitions/events_default/drop').expect(400);
    expect(registry.body).toEqual({ detail: expect.stringContaining('partition') });
  });

  it('drops nothing it does not know, nor the table itself, nor a partition not yet past', async () => {
    for (const [name, url] of services()) {
      const table = name === 'verdict' ? 'consultations' : 'events';
      expect((await post(url, `/internal/v1/maintenance/partitions/${table}_p20200101t0000/drop`).expect(200)).body).toEqual({
        dropped: false,
        reason: 'unknown_partition',
      });
      expect((await post(url, '/internal/v1/maintenance/partitions/approvals_p20200101t0000/drop').expect(200)).body).toEqual({
        dropped: false,
        reason: 'unknown_partition',
      });
      const { due } = (await post(url, '/internal/v1/maintenance/partitions').expect(200)).body as { due: Array<{ partition: string }> };
      expect(Array.isArray(due)).toBe(true);
      const { rows } = await stack
        .db(name as 'verdict' | 'registry')
        .query<{ name: string }>(
          `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass AND c.relname LIKE '%\\_p%'`,
          [table],
        );
      const current = rows.map((r) => r.name).find((n) => !due.some((d) => d.partition === n));
      expect(current).toBeDefined();
      expect((await post(url, `/internal/v1/maintenance/partitions/${current}/drop`).expect(200)).body).toEqual({
        dropped: false,
        reason: 'not_due',
      });
    }
  });

  it('lists the retentions in use on the registry, defaults included', async () => {
    const res = await request(stack.registry.url)
      .get('/internal/v1/maintenance/retentions')
      .set('X-Internal-Token', TEST_INTERNAL_TOKEN)
      .expect(200);
    expect(res.body).toEqual({ consultations: [90 * 86_400_000], deliveries: [30 * 86_400_000], events: [90 * 86_400_000] });
  });
});
