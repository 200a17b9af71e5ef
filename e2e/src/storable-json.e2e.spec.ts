import http from 'node:http';
import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { startStack, type Stack } from './stack';
import { provisionTenant, type SdkTenant } from './sdk-harness';

/**
 * The storable-JSON guard (docs/development.md "Storable JSON") on every service's public API: one
 * table of inputs that cannot be stored exactly, each sent to a write route of the registry, the
 * verdict gateway and the ledger (the check and seal fast lanes, and the express/tsoa door of the same
 * routes, reached with a gzipped body), each answered in that service's error format naming the
 * field, nothing stored; every error body strict JSON. The services' own cases (every route, the
 * query, the path) stay next to them: verdict-nul.e2e.spec.ts, ledger-poison.e2e.spec.ts,
 * apps/registry/test/nul-guard.int.spec.ts.
 */

interface Answer {
  status: number;
  text: string;
  body: Record<string, unknown>;
}

/** A request sent byte for byte (the body as given, gzipped when asked: the fast lanes leave such bodies to express). */
function send(base: string, path: string, headers: Record<string, string>, body: Buffer, gzip = false): Promise<Answer> {
  const payload = gzip ? gzipSync(body) : body;
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, base),
      {
        method: 'POST',
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'Content-Length': String(payload.length),
          ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, text, body: text ? JSON.parse(text) : {} });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** What a strict JSON parser requires beyond JSON.parse: no escape that makes a lone surrogate, anywhere. */
function expectStrictJson(text: string): void {
  const walk = (v: unknown): void => {
    if (typeof v === 'string') expect(v.isWellFormed()).toBe(true);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        walk(k);
        walk(x);
      }
    }
  };
  walk(JSON.parse(text));
}

const b = (s: string) => Buffer.from(s, 'utf8');
const nested = (levels: number) => b(`${'['.repeat(levels)}1${']'.repeat(levels)}`);

/**
 * Each input as the bytes of one JSON value, put where each service stores a value of any shape, and
 * the field each names: `verdict` after `parameters.x`, `ledger` after `custom_payload.x`, `registry`
 * after `body.conditions[0].value`.
 */
const ROWS: Array<{ name: string; value: Buffer; verdict: string; ledger: string; registry: string }> = [
  { name: 'U+0000 in a string', value: b('"a\\u0000b"'), verdict: '', ledger: '', registry: '' },
  { name: 'U+0000 in a member name', value: b('{"k\\u0000":1}'), verdict: '["k\\u0000"]', ledger: '.k\u0000', registry: '["k\\u0000"]' },
  { name: 'an escaped lone surrogate', value: b('"a\\ud800"'), verdict: '', ledger: '', registry: '' },
  {
    name: 'a lone surrogate in a member name',
    value: b('{"\\udc00":1}'),
    verdict: '["\\udc00"]',
    ledger: '.\\udc00',
    registry: '["\\udc00"]',
  },
  {
    name: 'a raw lone surrogate (ED A0 80, not UTF-8)',
    value: Buffer.concat([b('"a'), Buffer.from([0xed, 0xa0, 0x80]), b('"')]),
    verdict: '',
    ledger: '',
    registry: '',
  },
  {
    name: 'a byte that is no UTF-8 (FF)',
    value: Buffer.concat([b('"a'), Buffer.from([0xff]), b('"')]),
    verdict: '',
    ledger: '',
    registry: '',
  },
  {
    name: 'an overlong NUL (C0 80)',
    value: Buffer.concat([b('"a'), Buffer.from([0xc0, 0x80]), b('"')]),
    verdict: '',
    ledger: '',
    registry: '',
  },
  { name: 'an integer beyond 2^53', value: b('123456789012345678901234567890'), verdict: '', ledger: '', registry: '' },
  { name: 'an integer one past 2^53', value: b('9007199254740993'), verdict: '', ledger: '', registry: '' },
  { name: 'a number beyond the double range', value: b('1e400'), verdict: '', ledger: '', registry: '' },
  { name: 'a number with more digits than a double holds', value: b('0.10000000000000000001'), verdict: '', ledger: '', registry: '' },
  // The body is level 1; the slot is level 3 (verdict, ledger) or 4 (registry): the first array past 64 levels is named.
  { name: 'nesting past 64 levels', value: nested(70), verdict: '[0]'.repeat(62), ledger: '.0'.repeat(62), registry: '[0]'.repeat(61) },
];

/** Values that are stored exactly, and must stay accepted: a surrogate pair, the last safe integer, 0.1, 1e21, the text `\u0000`. */
const EXACT = b('["é 😀","\\\\u0000",9007199254740991,-9007199254740991,0.1,1e21,-0]');
const EXACT_READ = ['é 😀', '\\u0000', 9007199254740991, -9007199254740991, 0.1, 1e21, 0];

describe('the storable-JSON guard on every service', () => {
  let stack: Stack;
  let t: SdkTenant;
  let scopeId: string;
  const stream = 'storable-guard';

  beforeAll(async () => {
    stack = await startStack({ verdict: true, ledger: true });
    t = await provisionTenant(stack, 'storable');
    const scope = await fetch(`${stack.registry.url}/api/v1/scopes`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.adminKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'storable' }),
    });
    scopeId = ((await scope.json()) as { id: string }).id;
  });
  afterAll(() => stack.stop());

  const doors = {
    verdict: (value: Buffer, gzip: boolean) =>
      send(
        stack.verdict.url,
        `/${t.id}/v1/check`,
        { 'X-API-Key': t.agentKey },
        Buffer.concat([b('{"action":"calendar.read","resource":"c","scope":{},"parameters":{"x":'), value, b('}}')]),
        gzip,
      ),
    ledger: (value: Buffer, gzip: boolean) =>
      send(
        stack.ledger.url,
        `/streams/${stream}/facts`,
        { 'X-API-Key': t.agentKey },
        Buffer.concat([b(`{"tenant_id":"${t.id}","actor":"a","custom_payload":{"x":`), value, b('}}')]),
        gzip,
      ),
    registry: (value: Buffer) =>
      send(
        stack.registry.url,
        `/api/v1/scopes/${scopeId}/rules`,
        { Authorization: `Bearer ${t.adminKey}` },
        Buffer.concat([b('{"directive":"d","severity":"ADVISORY","conditions":[{"field":"f","op":"eq","value":'), value, b('}]}')]),
      ),
  };
  const get = async (url: string, headers: Record<string, string>) => {
    const res = await fetch(url, { headers });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const stored = {
    verdict: async () =>
      (await get(`${stack.verdict.url}/${t.id}/v1/consultations?limit=1000`, { 'X-API-Key': t.agentKey })).body.items as Array<{
        parameters: unknown;
      }>,
    ledger: async () => {
      const res = await get(`${stack.ledger.url}/streams/${stream}/facts?limit=1000`, { 'X-API-Key': t.agentKey });
      return res.status === 404 ? [] : (res.body.facts as Array<{ custom_payload: unknown }>);
    },
    registry: async () =>
      (await get(`${stack.registry.url}/api/v1/scopes/${scopeId}/rules`, { Authorization: `Bearer ${t.adminKey}` })).body.items as Array<{
        conditions: Array<{ value: unknown }>;
      }>,
  };

  it('stores the exact values on every door, and reads them back unchanged', async () => {
    for (const gzip of [false, true]) {
      expect((await doors.verdict(EXACT, gzip)).status).toBe(200);
      expect((await doors.ledger(EXACT, gzip)).status).toBe(201);
    }
    expect((await doors.registry(EXACT)).status).toBe(201);

    expect((await stored.verdict()).map((c) => c.parameters)).toEqual([{ x: EXACT_READ }, { x: EXACT_READ }]);
    expect((await stored.ledger()).map((f) => f.custom_payload)).toEqual([{ x: EXACT_READ }, { x: EXACT_READ }]);
    expect((await stored.registry()).map((r) => r.conditions[0].value)).toEqual([EXACT_READ]);
  });

  describe.each(ROWS)('$name', (row) => {
    it.each([false, true])('verdict check (gzip: %s): 400 validation_failed naming the field, nothing stored', async (gzip) => {
      const before = (await stored.verdict()).length;
      const res = await doors.verdict(row.value, gzip);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', details: { field: `parameters.x${row.verdict}`, in: 'body' } });
      expectStrictJson(res.text);
      expect((await stored.verdict()).length).toBe(before);
    });

    it.each([false, true])('ledger seal (gzip: %s): 400 VALIDATION_ERROR naming the field, nothing stored', async (gzip) => {
      const before = (await stored.ledger()).length;
      const res = await doors.ledger(row.value, gzip);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field: `custom_payload.x${row.ledger}` }] } });
      expectStrictJson(res.text);
      expect((await stored.ledger()).length).toBe(before);
    });

    it('registry rule: 400 {detail} naming the field, nothing stored', async () => {
      const before = (await stored.registry()).length;
      const res = await doors.registry(row.value);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['detail']);
      // docs/registry.md "Limits": a field over 200 characters is shortened in the middle.
      const field = `body.conditions[0].value${row.registry}`;
      expect(res.body.detail).toContain(`${field.length > 200 ? `${field.slice(0, 120)}…${field.slice(-60)}` : field} `);
      expectStrictJson(res.text);
      expect((await stored.registry()).length).toBe(before);
    });
  });

  /** A request written on a socket as is: node:http refuses a control character in a header before any handler. */
  const raw = async (url: string, request: string) => {
    const text = await new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(url);
      const socket = net.connect(Number(port), hostname, () => socket.write(request));
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (received += c));
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
    });
    const end = text.indexOf('\r\n\r\n');
    const head = text.slice(0, end);
    expect(head).toMatch(/\r\ncontent-type: application\/json; charset=utf-8(\r\n|$)/i);
    return { status: Number(head.split(' ')[1]), body: JSON.parse(text.slice(end + 4)) as Record<string, unknown> };
  };

  it.each([
    [
      'a header value with a control character',
      (path: string) => `POST ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: a\u0001b\r\nContent-Length: 0\r\n\r\n`,
    ],
    ['an HTTP/1.1 request without Host', (path: string) => `GET ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`],
  ])('answers %s with 400 in each service error format, not a bare 400', async (_what, request) => {
    const verdict = await raw(stack.verdict.url, request(`/${t.id}/v1/check`));
    const ledger = await raw(stack.ledger.url, request(`/streams/${stream}/facts`));
    const registry = await raw(stack.registry.url, request(`/api/v1/scopes/${scopeId}/rules`));

    expect(verdict).toEqual({ status: 400, body: { code: 'bad_request', message: expect.any(String) } });
    expect(ledger).toEqual({ status: 400, body: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
    expect(registry).toEqual({ status: 400, body: { detail: expect.any(String) } });
  });
});
