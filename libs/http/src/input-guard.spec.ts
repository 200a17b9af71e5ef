import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServiceApp } from './app';
import { ledgerDialect, registryDialect, verdictDialect } from './dialects';
import type { ErrorDialect } from './errors';
import { unstorableInBody, unstorableInParams, unstorableInQuery } from './input-guard';
import { createLogger } from './logger';

describe(unstorableInQuery.name, () => {
  it('names a parameter whose value or name holds %00', () => {
    expect(unstorableInQuery('/streams/s/facts?limit=5&cursor=a%00b')).toEqual({ path: ['cursor'], reason: 'nul', inName: false });
    expect(unstorableInQuery('/x?ok=1&bad%00name=1')).toEqual({ path: ['bad\u0000name'], reason: 'nul', inName: true });
  });

  it('finds nothing in an encoded percent sign, a path or an empty query', () => {
    expect(unstorableInQuery('/streams/s/facts?limit=5&offset=%2000')).toBeNull();
    expect(unstorableInQuery('/facts/%00')).toBeNull();
    expect(unstorableInQuery('/facts/x?')).toBeNull();
  });
});

describe(unstorableInParams.name, () => {
  it('names the first parameter that cannot be stored, in lists too', () => {
    expect(unstorableInParams({ stream_id: 'ok', fact_id: 'f\u0000' })).toEqual({ path: ['fact_id'], reason: 'nul', inName: false });
    expect(unstorableInParams({ rest: ['a', '\ud800'] })).toEqual({ path: ['rest'], reason: 'lone_surrogate', inName: false });
    expect(unstorableInParams({ stream_id: 'fine' })).toBeNull();
  });
});

describe(unstorableInBody.name, () => {
  it('walks a body that did not come through the readers', () => {
    expect(unstorableInBody({ a: ['x', { b: 'y\u0000' }] })).toEqual({ path: ['a', 1, 'b'], reason: 'nul', inName: false });
    expect(unstorableInBody(undefined)).toBeNull();
  });
});

describe('the express body reader', () => {
  const app = (dialect: ErrorDialect) =>
    createServiceApp({
      service: 'test',
      dialect,
      logger: createLogger('test', 'silent'),
      routes: (a) => {
        a.post('/echo', (req, res) => {
          res.json({ got: req.body, unstorable: unstorableInBody(req.body) });
        });
      },
    });
  // Bytes as given (supertest would serialise a Buffer as JSON).
  const post = async (dialect: ErrorDialect, body: string | Buffer, type = 'application/json') => {
    const server = http.createServer(app(dialect));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body,
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> & { message?: string } };
    } finally {
      server.close();
    }
  };
  const notUtf8 = Buffer.concat([Buffer.from('{"a":{"b":"x'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}}')]);

  it('refuses bytes that are not UTF-8, naming the field in each service format', async () => {
    expect((await post(verdictDialect, notUtf8)).body).toEqual({
      code: 'validation_failed',
      message: 'body field a.b contains bytes that are not UTF-8, which cannot be stored',
      details: { field: 'a.b', in: 'body' },
    });
    const ledger = await post(ledgerDialect, notUtf8);
    expect(ledger.status).toBe(400);
    expect(ledger.body).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'a.b contains bytes that are not UTF-8, which cannot be stored',
      details: { fields: [{ field: 'a.b', message: ledger.body.message }] },
    });
    expect((await post(registryDialect, notUtf8)).body).toEqual({
      detail: 'body.a.b contains bytes that are not UTF-8, which cannot be stored',
    });
  });

  it('refuses an inexact number and nesting past 64 levels; notes a bad string for the service', async () => {
    expect((await post(verdictDialect, '{"n":[1,123456789012345678901234567890]}')).body).toMatchObject({
      code: 'validation_failed',
      details: { field: 'n[1]', in: 'body' },
    });
    expect((await post(verdictDialect, `{"d":${'['.repeat(64)}${']'.repeat(64)}}`)).body).toMatchObject({
      code: 'validation_failed',
      details: { in: 'body' },
    });
    expect(await post(verdictDialect, '{"s":"\\u0000"}')).toEqual({
      status: 200,
      body: { got: { s: '\u0000' }, unstorable: { path: ['s'], reason: 'nul', inName: false } },
    });
  });

  it('refuses a member name repeated in one object, naming it in each service format; strings holding names are no members', async () => {
    const twice = '{"parameters":{"amount":5000,"note":"a:b \\":\\" c","amount":1}}';
    expect(await post(verdictDialect, twice)).toEqual({
      status: 400,
      body: {
        code: 'validation_failed',
        message: 'body member name parameters.amount is repeated in its object: JSON readers disagree on which of two equal names counts',
        details: { field: 'parameters.amount', in: 'body' },
      },
    });
    expect((await post(ledgerDialect, twice)).body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [{ field: 'parameters.amount' }] },
    });
    expect((await post(registryDialect, twice)).body).toEqual({
      detail: 'The member name body.parameters.amount is repeated in its object: JSON readers disagree on which of two equal names counts',
    });
    // An escaped spelling is the same name; the same name in two objects, or inside a string, is no repetition.
    expect((await post(verdictDialect, '{"a":1,"\\u0061":2}')).status).toBe(400);
    expect(await post(verdictDialect, '{"a":{"a":1},"b":[{"a":2},{"a":3}],"c":"\\"a\\":1,\\"a\\":2"}')).toMatchObject({ status: 200 });
  });

  it('refuses a member named __proto__ at any depth, in each service format; names that resemble it are members', async () => {
    const hidden = '{"rule":{"conditions":[{"value":{"__proto__":{"a":1}}}]}}';
    expect(await post(verdictDialect, hidden)).toEqual({
      status: 400,
      body: {
        code: 'validation_failed',
        message:
          'body member name rule.conditions[0].value.__proto__ is __proto__, which JavaScript readers take for the prototype of its object: a copy would lose the member or inherit its value',
        details: { field: 'rule.conditions[0].value.__proto__', in: 'body' },
      },
    });
    expect((await post(ledgerDialect, hidden)).body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [{ field: 'rule.conditions.0.value.__proto__' }] },
    });
    expect((await post(registryDialect, hidden)).body).toEqual({
      detail: expect.stringMatching(/^The member name body\.rule\.conditions\[0\]\.value\.__proto__ is __proto__/),
    });
    // An escaped spelling is the same name.
    expect((await post(verdictDialect, '{"\\u005f_proto__":{}}')).status).toBe(400);
    expect(await post(verdictDialect, '{"constructor":{"prototype":1},"proto":"__proto__","toString":2}')).toMatchObject({ status: 200 });
  });

  it('refuses a charset other than UTF-8 with 415 (RFC 8259 section 8.1), and reads UTF-8 given by name', async () => {
    const utf16 = await post(verdictDialect, Buffer.from('{"a":1}', 'utf16le'), 'application/json; charset=utf-16le');
    expect(utf16).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
    expect(await post(verdictDialect, '{"a":1}', 'application/json; charset=UTF-8')).toEqual({
      status: 200,
      body: { got: { a: 1 }, unstorable: null },
    });
  });
});
