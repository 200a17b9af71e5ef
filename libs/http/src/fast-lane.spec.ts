import http, { type IncomingMessage } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { fastLaneBodyLength, readJsonBody, sendJson } from './fast-lane';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe(fastLaneBodyLength.name, () => {
  const json = { 'content-type': 'application/json', 'content-length': '10' };

  it('takes plain JSON with a Content-Length within the limit', () => {
    expect(fastLaneBodyLength(req(json), 100)).toBe(10);
    expect(fastLaneBodyLength(req({ ...json, 'content-type': 'application/json; charset=utf-8' }), 100)).toBe(10);
    expect(fastLaneBodyLength(req({ ...json, 'content-type': 'Application/JSON;charset="UTF-8"' }), 100)).toBe(10);
    expect(fastLaneBodyLength(req({ ...json, 'content-encoding': 'identity' }), 100)).toBe(10);
  });

  it.each([
    ['another media type', { 'content-type': 'text/plain' }],
    ['a +json vendor type', { 'content-type': 'application/vnd.x+json' }],
    ['another charset', { 'content-type': 'application/json; charset=utf-16' }],
    ['a compressed body', { 'content-encoding': 'gzip' }],
    ['a chunked body', { 'transfer-encoding': 'chunked' }],
    ['an oversize body', { 'content-length': '101' }],
    ['an empty body', { 'content-length': '0' }],
    ['a nonsense length', { 'content-length': '1e3' }],
  ])('passes on %s', (_name, change) => {
    expect(fastLaneBodyLength(req({ ...json, ...change }), 100)).toBeNull();
  });

  it('passes on a request without Content-Length or Content-Type', () => {
    expect(fastLaneBodyLength(req({ 'content-type': 'application/json' }), 100)).toBeNull();
    expect(fastLaneBodyLength(req({ 'content-length': '10' }), 100)).toBeNull();
  });
});

describe(readJsonBody.name, () => {
  let server: http.Server;
  let url: string;
  const failures: Array<string | undefined> = [];
  beforeAll(async () => {
    server = http.createServer((request, res) => {
      readJsonBody(request, Number(request.headers['content-length'])).then(
        (body) => sendJson(res, 200, { body }, { 'X-Lane': 'fast' }),
        (err: { type?: string }) => {
          failures.push(err.type);
          if (!res.destroyed) sendJson(res, 400, { type: err.type });
        },
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const send = async (body: string | Buffer) => {
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    return {
      status: res.status,
      lane: res.headers.get('x-lane'),
      type: res.headers.get('content-type'),
      json: (await res.json()) as { body?: { pad?: string } } & Record<string, unknown>,
    };
  };

  it('parses objects and arrays, across several chunks, and drops a byte order mark', async () => {
    expect(await send('{"a":[1,"é"]}')).toEqual({
      status: 200,
      lane: 'fast',
      type: 'application/json; charset=utf-8',
      json: { body: { a: [1, 'é'] } },
    });
    expect((await send(' [true]')).json).toEqual({ body: [true] });
    expect((await send(`\ufeff{"b":2}`)).json).toEqual({ body: { b: 2 } });
    const big = JSON.stringify({ pad: 'x'.repeat(200_000) });
    expect((await send(big)).json.body?.pad).toHaveLength(200_000);
  });

  it('fails as body-parser does: malformed, or not an object or array at the top', async () => {
    for (const bad of ['{"a":', '"text"', '42', 'null', '']) {
      expect((await send(bad)).json).toEqual({ type: 'entity.parse.failed' });
    }
  });

  it('refuses with the storable-JSON guard what cannot be stored exactly (input-guard.ts)', async () => {
    expect((await send(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))).json).toEqual({ type: 'entity.unstorable' });
    expect((await send('{"a":[9007199254740993]}')).json).toEqual({ type: 'entity.unstorable' });
    expect((await send(`${'['.repeat(65)}${']'.repeat(65)}`)).json).toEqual({ type: 'entity.unstorable' });
    expect((await send('{"a":[9007199254740991,"\\\\ud800 is text"]}')).json).toEqual({
      body: { a: [9007199254740991, '\\ud800 is text'] },
    });
  });

  it('gives up on a body whose client left before sending it all', async () => {
    failures.length = 0;
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    for (let i = 0; i < 50 && failures.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(failures).toEqual(['request.aborted']);
  });
});
