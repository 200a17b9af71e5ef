import request from 'supertest';
import { generateSync } from 'json-schema-faker';
import { openApiValidator, toJsonSchema } from '@arbiter/testing';
import { createPrincipalWithKey, createTenantWithAdmin } from '../../apps/registry/test/harness';
import registryDoc from '../../apps/registry/openapi.json';
import verdictDoc from '../../apps/verdict/openapi.json';
import ledgerDoc from '../../apps/ledger/openapi.json';
import { startStack, type Stack } from './stack';

/**
 * The contract test (docs/development.md "The API contract"): for every operation of each public
 * document, requests generated from the document itself (json-schema-faker, seeded) go to the real
 * service: valid ones, invalid ones (a body of the wrong shape, a required field missing, a field of
 * the wrong type, an unknown field, malformed JSON, a query parameter out of its schema, no
 * credentials) and a method the path does not list. Every answer must be a status the document
 * declares for that operation, never a 5XX, with a body its schema accepts and the documented
 * headers; a 405 names in Allow exactly the methods the document lists.
 */

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
  security?: Array<Record<string, string[]>>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    headers?: Record<string, unknown>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }>;
  };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Headers the services set on some answers only: where one appears, the document must declare it. */
const TRACKED_HEADERS = [
  'x-verdict-ttl',
  'x-consultation-id',
  'cache-control',
  'retry-after',
  'set-cookie',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-ratelimit-policy',
];

interface Sent {
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
}

/** Requests generated for one operation of a document. */
class OperationRequests {
  private readonly components: unknown;

  constructor(
    private readonly doc: Doc,
    private readonly path: string,
    private readonly method: string,
    private readonly op: Operation,
    private readonly fixtures: Record<string, string>,
    private readonly credentials: Record<string, string>,
  ) {
    this.components = toJsonSchema(doc.components);
  }

  private fake(schema: Schema, seed: number): unknown {
    return generateSync({ ...(toJsonSchema(schema) as Schema), components: this.components } as never, {
      seed,
      optionalsProbability: 0.5,
      maxLength: 64,
      maxItems: 3,
    });
  }

  /** The schema a $ref or an allOf of one $ref stands for. */
  private resolve(schema: Schema | undefined): Schema | undefined {
    let s = schema;
    for (let i = 0; s && i < 5; i++) {
      if (typeof s.$ref === 'string') s = this.doc.components.schemas[s.$ref.split('/').pop() as string];
      else if (Array.isArray(s.allOf) && s.allOf.length === 1) s = s.allOf[0] as Schema;
      else break;
    }
    return s;
  }

  private bodySchema(): Schema | undefined {
    return this.op.requestBody?.content['application/json']?.schema;
  }

  private params(where: Parameter['in']): Parameter[] {
    return (this.op.parameters ?? []).filter((p) => p.in === where);
  }

  private url(seed: number, query: Record<string, unknown>): string {
    let url = this.path;
    for (const p of this.params('path')) {
      const value = this.fixtures[p.name] ?? String(this.fake(p.schema, seed));
      url = url.replace(`{${p.name}}`, encodeURIComponent(value));
    }
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    const s = qs.toString();
    return s ? `${url}?${s}` : url;
  }

  private validQuery(seed: number): Record<string, unknown> {
    const q: Record<string, unknown> = {};
    this.params('query').forEach((p, i) => {
      // A cursor is an opaque token only the service makes: a made-up one is the invalid case below.
      if (p.name === 'cursor' && !p.required) return;
      if (p.required || (seed + i) % 2 === 0) q[p.name] = this.fixtures[p.name] ?? this.fake(p.schema, seed + i);
    });
    return q;
  }

  private headers(withCredentials = true): Record<string, string> {
    return withCredentials && (this.op.security ?? []).length ? { ...this.credentials } : {};
  }

  private send(label: string, seed: number, extra: Partial<Sent> = {}): Sent {
    return { label, method: this.method, url: this.url(seed, this.validQuery(seed)), headers: this.headers(), ...extra };
  }

  /** A handful of requests: two valid, then one of each way of being wrong that applies. */
  all(): Sent[] {
    const out: Sent[] = [];
    const schema = this.bodySchema();
    // Top-level body fields named like a fixture (tenant_id, scope_id, ...) take its value: the tenant's own ids.
    const body = (seed: number) => {
      const value = schema ? this.fake(schema, seed) : undefined;
      if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
      const known = Object.keys(value).filter((k) => this.fixtures[k] !== undefined);
      return { ...value, ...Object.fromEntries(known.map((k) => [k, this.fixtures[k]])) };
    };
    for (const seed of [1, 2, 3]) out.push(this.send(`valid #${seed}`, seed, { body: body(seed) }));

    if (schema) {
      const valid = body(3);
      out.push(this.send('body: an array', 3, { body: [valid] }));
      out.push(this.send('body: malformed JSON', 3, { rawBody: '{"unterminated": ' }));
      out.push(this.send('body: text/plain', 3, { rawBody: 'plain text', contentType: 'text/plain' }));
      const object = this.resolve(schema);
      const props = (object?.properties ?? {}) as Record<string, Schema>;
      const required = (object?.required ?? []) as string[];
      if (valid && typeof valid === 'object' && !Array.isArray(valid)) {
        const base = valid as Record<string, unknown>;
        if (required.length) {
          const { [required[0]]: _dropped, ...rest } = base;
          out.push(this.send(`body: no ${required[0]}`, 3, { body: rest }));
        }
        const field = required[0] ?? Object.keys(props)[0];
        if (field) {
          const kind = this.resolve(props[field])?.type;
          out.push(
            this.send(`body: ${field} of the wrong type`, 3, {
              body: { ...base, [field]: kind === 'string' ? { not: 'a string' } : 'not-of-its-type' },
            }),
          );
        }
        out.push(this.send('body: an unknown field', 3, { body: { ...base, zz_unknown_field: true } }));
      }
    }

    for (const p of this.params('query')) {
      const s = this.resolve(p.schema);
      const wrong =
        s?.type === 'integer' || s?.type === 'number'
          ? [`${p.name}=abc`, `${p.name}=0.5`]
          : s?.enum
            ? [`${p.name}=not-one-of-them`]
            : [`${p.name}=%00`];
      if (typeof s?.maximum === 'number') wrong.push(`${p.name}=${s.maximum + 1}`);
      for (const q of wrong) {
        const { [p.name]: _replaced, ...query } = this.validQuery(4);
        const url = this.url(4, query);
        out.push(this.send(`query ${q}`, 4, { body: body(4), url: `${url}${url.includes('?') ? '&' : '?'}${q}` }));
      }
    }

    for (const p of this.params('path')) {
      for (const [label, value] of [
        ['U+0000', 'a\u0000b'],
        ['300 characters', 'x'.repeat(300)],
      ]) {
        const valid = this.send(`path ${p.name}: ${label}`, 6, { body: body(6) });
        const url = this.url(6, this.validQuery(6)).replace(
          encodeURIComponent(this.fixtures[p.name] ?? String(this.fake(p.schema, 6))),
          encodeURIComponent(value),
        );
        out.push({ ...valid, url });
      }
    }

    if ((this.op.security ?? []).length) out.push(this.send('no credentials', 5, { body: body(5), headers: {} }));
    return out;
  }
}

interface Finding {
  where: string;
  problem: string;
}

async function exercise(name: string, doc: Doc, baseUrl: string, fixtures: Record<string, string>, credentials: Record<string, string>) {
  const validator = openApiValidator(doc);
  const findings: Finding[] = [];
  const succeeded = new Set<string>();
  let operations = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    const listed = METHODS.filter((m) => item[m]);
    for (const method of listed) {
      const op = item[method];
      operations++;
      for (const sent of new OperationRequests(doc, path, method, op, fixtures, credentials).all()) {
        const where = `${name} ${op.operationId} (${sent.label}): ${method.toUpperCase()} ${sent.url}`;
        let req = (request(baseUrl) as unknown as Record<string, (url: string) => request.Test>)[method](sent.url).set(sent.headers);
        if (sent.rawBody !== undefined) req = req.set('Content-Type', sent.contentType ?? 'application/json').send(sent.rawBody);
        else if (sent.body !== undefined) req = req.send(sent.body as object);
        const res = await req;
        const status = String(res.status);
        if (res.status < 300) succeeded.add(op.operationId);
        const declared = op.responses[status] ?? op.responses.default;
        if (process.env.CONTRACT_TRACE) console.log(`${res.status} ${where}`);
        if (res.status === 500 || (res.status > 500 && !op.responses[status]))
          findings.push({ where, problem: `answered ${status} ${JSON.stringify(res.body).slice(0, 300)}` });
        if (!declared) {
          findings.push({
            where,
            problem: `status ${status} is not declared (declared: ${Object.keys(op.responses).join(', ')}) ${JSON.stringify(res.body).slice(0, 300)}`,
          });
          continue;
        }
        const isJson = /application\/json/.test(String(res.headers['content-type'] ?? ''));
        if (isJson && !declared.content) findings.push({ where, problem: `a JSON body on ${status}, which declares none` });
        if (declared.content && res.status !== 204) {
          const validate = validator.schemaAt(path, method, { status: op.responses[status] ? status : 'default' });
          if (validate && !validate(res.body))
            findings.push({
              where,
              problem: `${status} body does not match its schema: ${validator.errorsText(validate)} ${JSON.stringify(res.body).slice(0, 300)}`,
            });
        }
        const declaredHeaders = Object.keys(declared.headers ?? {}).map((h) => h.toLowerCase());
        for (const h of TRACKED_HEADERS) {
          if (res.headers[h] !== undefined && !declaredHeaders.includes(h))
            findings.push({ where, problem: `header ${h} on ${status} is not declared` });
        }
        for (const [h, def] of Object.entries(declared.headers ?? {})) {
          const ref = (def as { $ref?: string }).$ref;
          const header = (ref ? doc.components.headers?.[ref.split('/').pop() as string] : def) as { required?: boolean } | undefined;
          if (header?.required && res.headers[h.toLowerCase()] === undefined)
            findings.push({ where, problem: `required header ${h} missing on ${status}` });
        }
      }
    }
    // A method the path does not list: 405 and an Allow naming exactly the listed ones (HEAD with GET).
    const unlisted = METHODS.find((m) => !item[m]);
    if (unlisted) {
      const url = path.replace(/\{([^}]+)\}/g, (_m, p: string) => encodeURIComponent(fixtures[p] ?? 'x'));
      const res = await (request(baseUrl) as unknown as Record<string, (url: string) => request.Test>)[unlisted](url).set(credentials);
      const expected = [...listed.map((m) => m.toUpperCase()), ...(item.get ? ['HEAD'] : [])].sort().join(', ');
      if (res.status !== 405 || res.headers.allow !== expected) {
        findings.push({
          where: `${name} ${unlisted.toUpperCase()} ${url}`,
          problem: `answered ${res.status} with Allow ${res.headers.allow}, expected 405 with Allow ${expected}`,
        });
      }
    }
  }
  return { findings, operations, succeeded: succeeded.size };
}

const ALL_TENANT_PERMISSIONS = ['read', 'write', 'manage_rules', 'manage_invariants', 'approve', 'check', 'seal', 'admin'];

/** The three services, a tenant and a key of it with every tenant permission. */
async function stackWithTenant(slug: string, settings: object = {}) {
  const stack = await startStack({ verdict: true, ledger: true });
  const t = await createTenantWithAdmin(stack.registry, slug, settings);
  const key = (await createPrincipalWithKey(stack.registry, t.admin.key, { permissions: ALL_TENANT_PERMISSIONS })).key;
  return { stack, tenant: t.tenant, key };
}

describe('every operation of the public OpenAPI documents, against the real services', () => {
  let stack: Stack;
  const fixtures: Record<string, string> = {};
  let key: string;

  beforeAll(async () => {
    // Some 300 ledger requests with one key: a bucket that large keeps the ledger's rate limit out of the answers.
    const made = await stackWithTenant('contract', { rate_limit: { tier: 'enterprise', requests_per_minute: 100_000, burst: 10_000 } });
    ({ stack, key } = made);
    const auth = { Authorization: `Bearer ${key}` };
    const scope = await request(stack.registry.url).post('/api/v1/scopes').set(auth).send({ name: 'contract', selector: {} }).expect(201);
    const rule = await request(stack.registry.url)
      .post(`/api/v1/scopes/${scope.body.id}/rules`)
      .set(auth)
      .send({ directive: 'Contract rule', severity: 'ADVISORY', applies_to: { actions: ['contract.*'] } })
      .expect(201);
    const fact = await request(stack.ledger.url)
      .post('/streams/contract/facts')
      .set('X-API-Key', key)
      .send({ tenant_id: made.tenant.id, actor: 'agent:contract', custom_payload: { n: 1 } })
      .expect(201);
    const check = await request(stack.verdict.url)
      .post(`/${made.tenant.id}/v1/check`)
      .set('X-API-Key', key)
      .send({ action: 'contract.run', resource: 'contract', scope: {}, parameters: {} })
      .expect(200);
    Object.assign(fixtures, {
      consultation_id: check.headers['x-consultation-id'],
      // Query bounds every list accepts (a made-up string is not a date).
      since: '2026-01-01',
      until: '2099-12-31',
      tenant_id: made.tenant.id,
      tenant_slug: made.tenant.slug,
      scope_id: scope.body.id,
      rule_id: rule.body.id,
      stream_id: 'contract',
      fact_id: fact.body.fact_id,
    });
  }, 120_000);
  afterAll(() => stack?.stop());

  const explain = (findings: Finding[]) => findings.map((f) => `${f.where}\n    ${f.problem}`);

  // The generated valid requests must reach the success path of a good part of the operations: otherwise
  // the test would only be checking error answers.
  it.each([
    ['registry', registryDoc, () => stack.registry.url, () => ({ Authorization: `Bearer ${key}` })],
    ['verdict', verdictDoc, () => stack.verdict.url, () => ({ 'X-API-Key': key })],
    ['ledger', ledgerDoc, () => stack.ledger.url, () => ({ 'X-API-Key': key })],
  ] as const)(
    '%s: every answer is declared, conforms and is never a 500',
    async (name, doc, url, credentials) => {
      const { findings, operations, succeeded } = await exercise(name, doc as unknown as Doc, url(), fixtures, credentials());
      expect(explain(findings)).toEqual([]);
      expect(succeeded).toBeGreaterThanOrEqual(operations / 3);
    },
    120_000,
  );
});

/**
 * The same requests while the registry is down: the verdict gateway cannot check a key (one it has not
 * cached) or look a tenant up, and must still answer only what its document declares. (The ledger is
 * left out here: without the registry every request spends the client address's bucket, which the test
 * servers share through Redis; e2e/src/ledger-rate-limit.e2e.spec.ts covers a ledger without a registry.)
 */
describe('the verdict gateway while the registry is down', () => {
  let stack: Stack;
  const fixtures: Record<string, string> = {};
  let key: string;

  beforeAll(async () => {
    const made = await stackWithTenant('contract-down');
    ({ stack, key } = made);
    Object.assign(fixtures, { tenant_id: made.tenant.id, tenant_slug: made.tenant.slug });
    await stack.registry.registry.close();
  }, 120_000);
  // The registry is closed already: stopping it again fails, the rest (services, databases) still stops.
  afterAll(() => stack?.stop().catch(() => undefined));

  it('every answer is declared, conforms and is never a 500', async () => {
    const { findings } = await exercise('verdict', verdictDoc as unknown as Doc, stack.verdict.url, fixtures, { 'X-API-Key': key });
    expect(findings.map((f) => `${f.where}\n    ${f.problem}`)).toEqual([]);
  }, 120_000);
});
