import { createRegistryClient } from './registry-client';
import { createVerdictClient } from './verdict-client';

/** A fetch that records requests and answers each from `answer` (JSON bodies). */
function recording(answer: (req: Request) => { status?: number; body: unknown }) {
  const seen: { method: string; url: string; body: unknown }[] = [];
  const fetch = async (req: Request) => {
    const text = await req.clone().text();
    seen.push({ method: req.method, url: req.url, body: text ? JSON.parse(text) : undefined });
    const { status = 200, body } = answer(req);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { seen, fetch };
}

describe('rule methods of the registry client', () => {
  it('listRules follows next_cursor over every page, active rules by default', async () => {
    const r = recording((req) =>
      new URL(req.url).searchParams.get('cursor')
        ? { body: { items: [{ id: 'rul-2' }], next_cursor: null } }
        : { body: { items: [{ id: 'rul-1' }], next_cursor: 'c1' } },
    );
    const sut = createRegistryClient({ baseUrl: 'http://registry', apiKey: 'ak', fetch: r.fetch });
    const rules = await sut.listRules('scp-1');
    expect(rules.map((x) => x.id)).toEqual(['rul-1', 'rul-2']);
    expect(r.seen.map((s) => s.url)).toEqual([
      'http://registry/api/v1/scopes/scp-1/rules?status=active&limit=1000',
      'http://registry/api/v1/scopes/scp-1/rules?status=active&limit=1000&cursor=c1',
    ]);
  });

  it('getScope, updateRule (PUT) and archiveRule (PATCH …/archive) call their routes', async () => {
    const r = recording(() => ({ body: { id: 'x' } }));
    const sut = createRegistryClient({ baseUrl: 'http://registry', apiKey: 'ak', fetch: r.fetch });
    await sut.getScope('scp-1');
    await sut.updateRule('scp-1', 'rul-1', { directive: 'd', severity: 'ALLOW' });
    await sut.archiveRule('scp-1', 'rul-1');
    expect(r.seen).toEqual([
      { method: 'GET', url: 'http://registry/api/v1/scopes/scp-1', body: undefined },
      { method: 'PUT', url: 'http://registry/api/v1/scopes/scp-1/rules/rul-1', body: { directive: 'd', severity: 'ALLOW' } },
      { method: 'PATCH', url: 'http://registry/api/v1/scopes/scp-1/rules/rul-1/archive', body: undefined },
    ]);
  });
});

describe('simulate of the verdict client', () => {
  it('posts the changes to /<tenant>/v1/simulations and answers the result', async () => {
    const result = {
      evaluated: 3,
      changed: 1,
      transitions: { 'allowed->blocked': 1 },
      samples: [],
      window: { since: 'a', until: 'b', last: 3 },
      evaluated_at: 'b',
    };
    const r = recording(() => ({ body: result }));
    const sut = createVerdictClient({ baseUrl: 'http://verdict', apiKey: 'ak', tenant: 'tnt-1', fetch: r.fetch });
    const body = { changes: [{ op: 'archive' as const, rule_id: 'rul-1' }], window: { last: 3 } };
    await expect(sut.simulate(body)).resolves.toEqual(result);
    expect(r.seen).toEqual([{ method: 'POST', url: 'http://verdict/tnt-1/v1/simulations', body }]);
  });

  it('turns a 404 of a gateway without the route into a VerdictError with status 404', async () => {
    const r = recording(() => ({ status: 404, body: { code: 'not_found', message: 'no route' } }));
    const sut = createVerdictClient({ baseUrl: 'http://verdict', apiKey: 'ak', tenant: 'tnt-1', fetch: r.fetch });
    await expect(sut.simulate({ changes: [] })).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('outcome of the verdict client', () => {
  it("posts {executed} to the consultation's outcome route and answers what was given back", async () => {
    const answer = {
      consultation_id: 'cns-1',
      executed: false,
      given_back: [{ rule_id: 'rul-1', key: '{}', window: '1h', amount: 1200 }],
      reported_at: '2026-11-27T10:00:00.000Z',
    };
    const r = recording(() => ({ body: answer }));
    const sut = createVerdictClient({ baseUrl: 'http://verdict', apiKey: 'ak', tenant: 'tnt-1', fetch: r.fetch });
    await expect(sut.outcome('cns-1', { executed: false })).resolves.toEqual(answer);
    expect(r.seen).toEqual([{ method: 'POST', url: 'http://verdict/tnt-1/v1/consultations/cns-1/outcome', body: { executed: false } }]);
  });

  it('turns a 409 for the other value into VerdictError outcome_already_reported', async () => {
    const r = recording(() => ({ status: 409, body: { code: 'outcome_already_reported', message: 'reported as executed' } }));
    const sut = createVerdictClient({ baseUrl: 'http://verdict', apiKey: 'ak', tenant: 'tnt-1', fetch: r.fetch });
    await expect(sut.outcome('cns-1', { executed: false })).rejects.toMatchObject({
      name: 'VerdictError',
      status: 409,
      code: 'outcome_already_reported',
    });
  });
});
