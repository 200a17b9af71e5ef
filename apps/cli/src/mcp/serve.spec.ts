import http from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { serveHttp, type HttpProxy } from './serve';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
};
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** The Streamable HTTP server alone (a bare MCP server behind it): who it answers. */
describe(serveHttp.name, () => {
  const started: AbortController[] = [];
  const serve = async (opts: { host?: string; token?: string } = {}): Promise<HttpProxy> => {
    const stop = new AbortController();
    started.push(stop);
    return serveHttp(() => new Server({ name: 't', version: '0' }, { capabilities: {} }), {
      host: opts.host ?? '127.0.0.1',
      port: 0,
      stop: stop.signal,
      log: () => undefined,
      token: opts.token,
    });
  };
  const post = (url: string, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { ...HEADERS, ...headers }, body: JSON.stringify(INIT) });
  afterAll(() => started.forEach((s) => s.abort()));

  it('answers a client on loopback, and a page on a loopback origin', async () => {
    const { url } = await serve();
    expect((await post(url)).status).toBe(200);
    expect((await post(url, { origin: 'http://localhost:5173' })).status).toBe(200);
  });

  it('refuses a web page of another origin (403), and a Host that is not loopback (DNS rebinding)', async () => {
    const { url } = await serve();
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1.nip.io']) {
      const r = await post(url, { origin });
      expect(r.status).toBe(403);
      expect(await r.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Forbidden: a web page of another origin may not use this proxy' },
        id: null,
      });
    }
    // fetch will not send another Host: node:http does.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', headers: { ...HEADERS, host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end(JSON.stringify(INIT));
    });
    expect(status).toBe(403);
  });

  it('with a token, answers only requests that carry it (401 otherwise)', async () => {
    const { url } = await serve({ token: 'tok-123' });
    const without = await post(url);
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toBe('Bearer');
    expect((await post(url, { authorization: 'Bearer tok-12' })).status).toBe(401);
    expect((await post(url, { authorization: 'Bearer tok-123' })).status).toBe(200);
  });

  it("off loopback, a page must be the proxy's own origin", async () => {
    const { url } = await serve({ host: '0.0.0.0', token: 't' });
    const local = url.replace('0.0.0.0', '127.0.0.1');
    const host = new URL(local).host;
    expect((await post(local, { authorization: 'Bearer t', origin: `http://${host}` })).status).toBe(200);
    expect((await post(local, { authorization: 'Bearer t', origin: 'http://localhost:1' })).status).toBe(403);
  });
});
