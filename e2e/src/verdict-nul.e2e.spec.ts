import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { Client } from 'pg';
import { createVerdictTenant, type VerdictTenant } from './verdict-harness';
import { startStack, type Stack } from './stack';

interface Answer {
  status: number;
  body: { code?: string; message?: string; details?: unknown };
}

/**
 * docs/verdicts.md "Errors": U+0000 (and a lone surrogate) is refused wherever it occurs, on every route,
 * with 400 validation_failed naming the field, before anything is evaluated or stored. The verdict
 * gateway's routes, query and path; the guard's inputs (invalid UTF-8, numbers, nesting) against every
 * service are the table of storable-json.e2e.spec.ts.
 */
describe('strings PostgreSQL cannot store', () => {
  let stack: Stack;
  let t: VerdictTenant;
  let db: Client;

  beforeAll(async () => {
    stack = await startStack({ verdict: true });
    t = await createVerdictTenant(stack, 'nul-a');
    db = new Client({ connectionString: stack.databaseUrl('verdict') });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await stack.stop();
  });

  /** A request sent byte for byte; `gzip` makes the check fast lane pass it on to express and tsoa. */
  const send = (method: string, path: string, body?: string, opts: { gzip?: boolean; key?: string | null } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const raw = body === undefined ? undefined : Buffer.from(body);
      const payload = raw && opts.gzip ? gzipSync(raw) : raw;
      const headers: Record<string, string> = {};
      if (opts.key !== null) headers['X-API-Key'] = opts.key ?? t.adminKey;
      if (payload)
        Object.assign(
          headers,
          { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) },
          opts.gzip ? { 'Content-Encoding': 'gzip' } : {},
        );
      const req = http.request(new URL(path, stack.verdict.url), { method, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : {} }));
      });
      req.on('error', reject);
      req.end(payload);
    });
  const refused = (field: string, where: 'body' | 'query' | 'path') => ({
    status: 400,
    body: { code: 'validation_failed', message: expect.stringContaining(field), details: { field, in: where } },
  });
  const op = { action: 'calendar.read', resource: 'c', scope: {} };
  const count = async (table: string) =>
    (await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`, [t.id])).rows[0].n as number;

  it('check: refuses U+0000 and lone surrogates in any key or value at any depth, the same on the fast lane and the tsoa route', async () => {
    const cases: Array<[object, string]> = [
      [{ ...op, action: 'calendar.\u0000read' }, 'action'],
      [{ ...op, resource: 'c\u0000' }, 'resource'],
      [{ ...op, on_behalf_of: 'hum-\u0000' }, 'on_behalf_of'],
      [{ ...op, scope: { region: 'e\u0000u' } }, 'scope.region'],
      [{ ...op, scope: { ['reg\u0000ion']: 'eu' } }, 'scope["reg\\u0000ion"]'],
      [{ ...op, parameters: { items: [{ note: 'ok' }, { note: 'a\u0000b' }] } }, 'parameters.items[1].note'],
      [{ ...op, parameters: { meta: { deep: { ['k\u0000']: 1 } } } }, 'parameters.meta.deep["k\\u0000"]'],
      [{ ...op, parameters: { note: 'half an emoji \ud83d' } }, 'parameters.note'],
      [{ ...op, parameters: { ['\udc00']: 1 } }, 'parameters["\\udc00"]'],
      [{ ...op, context: { 'beneficiary.country': { value: 'K\u0000P', source: 'crm' } } }, 'context["beneficiary.country"].value'],
      [{ ...op, context: { 'a\u0000b': { value: 1, source: 'crm' } } }, 'context["a\\u0000b"]'],
      [{ ...op, extra: { ['\u0000']: 'x' } }, 'extra["\\u0000"]'],
    ];
    for (const [body, field] of cases) {
      const text = JSON.stringify(body);
      const fast = await send('POST', `/${t.id}/v1/check`, text);
      const general = await send('POST', `/${t.id}/v1/check`, text, { gzip: true });
      expect({ field, fast }).toEqual({ field, fast: refused(field, 'body') });
      expect({ field, general }).toEqual({ field, general: fast });
    }
    expect(await count('consultations')).toBe(0);
  });

  it('check: refuses %00 in the path and the query on both paths, and a raw NUL byte as malformed JSON', async () => {
    const body = JSON.stringify(op);
    for (const gzip of [false, true]) {
      expect(await send('POST', `/${t.id}%00/v1/check`, body, { gzip })).toEqual(refused('tenant_id', 'path'));
      expect(await send('POST', `/${t.id}/v1/check?trace=a%00`, body, { gzip })).toEqual(refused('trace', 'query'));
      expect(await send('POST', `/${t.id}/v1/check?tr%00ce=a`, body, { gzip })).toEqual(refused('["tr\\u0000ce"]', 'query'));
      const raw = await send('POST', `/${t.id}/v1/check`, body.replace('"c"', '"c\u0000"'), { gzip });
      expect([raw.status, raw.body.code]).toEqual([400, 'malformed_json']);
    }
    expect(await count('consultations')).toBe(0);
  });

  it('refuses before authentication: no key still gets the 400, on both paths', async () => {
    const text = JSON.stringify({ ...op, resource: '\u0000' });
    expect(await send('POST', `/${t.id}/v1/check`, text, { key: null })).toEqual(refused('resource', 'body'));
    expect(await send('POST', `/${t.id}/v1/check`, text, { key: null, gzip: true })).toEqual(refused('resource', 'body'));
  });

  it('resolve: refuses it in the correlation ids, the session id, the context and the overview fields', async () => {
    const cases: Array<[object, string]> = [
      [
        { action_type: 'calendar.read', context: {}, correlation: { conversation_id: 'c\u0000', agent_run_id: 'r' } },
        'correlation.conversation_id',
      ],
      [{ action_type: 'calendar.\u0000read', context: {} }, 'action_type'],
      [{ ...op, context: {}, resolve_session_id: 'rs-\u0000' }, 'resolve_session_id'],
      [{ ...op, context: { amount: { value: 1, source: 's\u0000' } } }, 'context.amount.source'],
    ];
    for (const [body, field] of cases)
      expect({ field, res: await send('POST', `/${t.id}/v1/resolve`, JSON.stringify(body)) }).toEqual({
        field,
        res: refused(field, 'body'),
      });
    expect(await count('resolve_sessions')).toBe(0);
  });

  it('approvals: refuses it in the request body, the decision notes, the grant scope and the approval id', async () => {
    expect(await send('POST', `/${t.id}/v1/approvals`, JSON.stringify({ consultation_id: 'cns-1', requester_notes: 'n\u0000' }))).toEqual(
      refused('requester_notes', 'body'),
    );
    const decision = `/${t.id}/v1/approvals/apr-000000000000000000000000/decision`;
    expect(await send('POST', decision, JSON.stringify({ decision: 'approve', decider_notes: '\u0000' }))).toEqual(
      refused('decider_notes', 'body'),
    );
    expect(
      await send('POST', decision, JSON.stringify({ decision: 'approve', grant: { applies_to_scope: { ['r\u0000']: 'eu' } } })),
    ).toEqual(refused('grant.applies_to_scope["r\\u0000"]', 'body'));
    expect(await send('GET', `/${t.id}/v1/approvals/apr-%00`)).toEqual(refused('approval_id', 'path'));
    expect(await send('GET', `/${t.id}/v1/approvals?assignee=hum-%00`)).toEqual(refused('assignee', 'query'));
    expect(await count('approvals')).toBe(0);
  });

  it('refuses it in the path and query of every other route', async () => {
    expect(await send('GET', `/${t.id}/v1/consultations/cns-%00`)).toEqual(refused('consultation_id', 'path'));
    expect(await send('GET', `/${t.id}/v1/consultations?actor=agn-%00&limit=5`)).toEqual(refused('actor', 'query'));
    expect(await send('GET', `/${t.id}/v1/consultations?action=a%00`)).toEqual(refused('action', 'query'));
    expect(await send('GET', '/v1/rule-versions/rv-%00')).toEqual(refused('rule_version_id', 'path'));
    expect(await send('GET', '/v1/tenants/%00/jwks', undefined, { key: null })).toEqual(refused('tenant_slug', 'path'));
    expect(await send('GET', `/v1/tenants/${t.slug}/jwks?v=%00`, undefined, { key: null })).toEqual(refused('v', 'query'));
    expect(await send('POST', `/${t.id}/v1/signing-keys/rotate`, JSON.stringify({ mode: 'emergency\u0000' }))).toEqual(
      refused('mode', 'body'),
    );
    expect(await send('GET', '/v1/whoami?x=%00')).toEqual(refused('x', 'query'));
    expect(await send('POST', '/v1/sessions', JSON.stringify({ note: '\u0000' }))).toEqual(refused('note', 'body'));
    expect(await count('cookie_sessions')).toBe(0);
  });

  it('refuses a body nested more than 64 levels deep on every route, with 400 naming where (never a 500)', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    // The first array past level 64 (the body is level 1): `names` member names, then positions.
    const at = (...names: string[]) => `${names.join('.')}${'[0]'.repeat(64 - names.length)}`;
    const tooDeep = (field: string) => ({
      status: 400,
      body: { code: 'validation_failed', message: expect.stringContaining('nested more than 64 levels'), details: { field, in: 'body' } },
    });
    const cases: Array<[string, string, string]> = [
      [`/${t.id}/v1/check`, `{"action":"a","resource":"r","scope":{},"parameters":{"x":${deep}}}`, at('parameters', 'x')],
      [`/${t.id}/v1/resolve`, `{"action_type":"a","context":{},"correlation":${deep}}`, at('correlation')],
      [
        `/${t.id}/v1/approvals/apr-000000000000000000000000/decision`,
        `{"decision":"approve","grant":{"applies_to_scope":{"a":${deep}}}}`,
        at('grant', 'applies_to_scope', 'a'),
      ],
      [`/${t.id}/v1/signing-keys/rotate`, `{"mode":${deep}}`, at('mode')],
    ];
    for (const [path, body, field] of cases) {
      expect({ path, res: await send('POST', path, body) }).toEqual({ path, res: tooDeep(field) });
    }
    expect(await send('POST', `/${t.id}/v1/check`, cases[0][1], { gzip: true })).toEqual(tooDeep(cases[0][2]));
  });

  it('lets a surrogate pair and other control characters through', async () => {
    const text = JSON.stringify({ ...op, parameters: { emoji: '\ud83d\ude00', tab: '\t\u0001\u001f' } });
    for (const gzip of [false, true]) expect((await send('POST', `/${t.id}/v1/check`, text, { gzip })).status).toBe(200);
  });
});
