import http from 'node:http';
import net from 'node:net';
import { createServiceApp } from './app';
import { verdictDialect } from './dialects';
import { createLogger } from './logger';
import { startOpsServer } from './ops-server';
import { listen, type RunningServer } from './server';

const logger = createLogger('test', 'silent');

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

/** One request on the given agent; resolves with the answer or rejects with the socket error. */
function get(url: string, agent: http.Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      })
      .on('error', reject);
  });
}

/** An app whose /slow route answers only when the test says so; `events` gets 'answered' when it did. */
function slowApp(events: string[] = []) {
  const waiting: Array<() => void> = [];
  let arrived: () => void = () => undefined;
  const app = createServiceApp({
    service: 'test',
    dialect: verdictDialect,
    logger,
    routes: (a) => {
      a.get('/slow', (_req, res) => {
        res.once('finish', () => events.push('answered'));
        waiting.push(() => res.json({ done: true }));
        arrived();
      });
    },
  });
  return {
    app,
    arrival: () => new Promise<void>((resolve) => (arrived = resolve)),
    release: () => waiting.splice(0).forEach((answer) => answer()),
  };
}

describe(listen.name, () => {
  let running: RunningServer | undefined;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  afterEach(async () => {
    await running?.close();
    running = undefined;
    agent.destroy();
  });

  it('finishes an in-flight request, closes its keep-alive connection, then runs the close hook', async () => {
    const events: string[] = [];
    const sut = slowApp(events);
    running = await listen(sut.app, { host: '127.0.0.1', port: 0, logger, onClose: async () => void events.push('hook') });
    const arrived = sut.arrival();
    const answer = get(`${running.url}/slow`, agent);
    await arrived;

    const closed = running.close();
    sut.release();
    await closed;

    const a = await answer;
    expect(a.status).toBe(200);
    expect(a.connection).toBe('close');
    expect(events).toEqual(['answered', 'hook']);
  });

  it('refuses new connections once closing', async () => {
    const sut = slowApp();
    running = await listen(sut.app, { host: '127.0.0.1', port: 0, logger });
    const arrived = sut.arrival();
    const first = get(`${running.url}/slow`, agent);
    await arrived;
    const closed = running.close();
    await expect(get(`${running.url}/livez`, new http.Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    sut.release();
    await first;
    await closed;
  });

  it('answers a /readyz that was being checked when shutdown began with 503 draining', async () => {
    let checking: () => void = () => undefined;
    let release: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (checking = resolve));
    const app = createServiceApp({
      service: 'test',
      dialect: verdictDialect,
      logger,
      readiness: [{ name: 'db', check: () => new Promise<void>((resolve) => ((release = resolve), checking())) }],
      routes: () => undefined,
    });
    running = await listen(app, { host: '127.0.0.1', port: 0, logger });
    const answer = get(`${running.url}/readyz`, agent);
    await started;
    const closed = running.close();
    release();
    const a = await answer;
    await closed;
    expect(a.status).toBe(503);
    expect(JSON.parse(a.body)).toMatchObject({ status: 'draining', checks: { db: 'ok' } });
  });

  it('cuts requests still running when the grace period is over, then runs the close hook', async () => {
    let hookRan = false;
    const sut = slowApp();
    running = await listen(sut.app, { host: '127.0.0.1', port: 0, logger, graceMs: 1, onClose: async () => void (hookRan = true) });
    const arrived = sut.arrival();
    const answer = get(`${running.url}/slow`, agent);
    await arrived;
    await running.close();
    await expect(answer).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(hookRan).toBe(true);
  });

  it('returns the same shutdown to every caller', async () => {
    let hooks = 0;
    running = await listen(slowApp().app, { host: '127.0.0.1', port: 0, logger, onClose: async () => void hooks++ });
    await Promise.all([running.close(), running.close()]);
    expect(hooks).toBe(1);
  });

  /** A request written on a socket as is, and the whole answer. */
  const rawAnswer = (url: string, text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(url).port), '127.0.0.1', () => socket.write(text));
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (received += c));
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
    });

  it.each([
    ['a control character in a header value', 'GET /slow HTTP/1.1\r\nHost: x\r\nX-Key: a\u0001b\r\n\r\n', 400],
    ['a malformed request line', 'GET /slow HTTP/9\r\n\r\n', 400],
    ['headers too large', `GET /slow HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['an HTTP/1.1 request without Host', 'GET /livez HTTP/1.1\r\nConnection: close\r\n\r\n', 400],
  ])('answers %s in the service error format, then closes', async (_what, text, status) => {
    running = await listen(slowApp().app, { host: '127.0.0.1', port: 0, logger });
    const answer = await rawAnswer(running.url, text);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(head).toMatch(/\r\nContent-Type: application\/json; charset=utf-8/i);
    expect(head).toMatch(/\r\nConnection: close/i);
    expect(JSON.parse(body)).toEqual({ code: 'bad_request', message: expect.any(String) });
  });

  it('still serves an HTTP/1.0 request without Host', async () => {
    running = await listen(slowApp().app, { host: '127.0.0.1', port: 0, logger });
    expect(await rawAnswer(running.url, 'GET /livez HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1.1 200 /);
  });
});

describe(startOpsServer.name, () => {
  it('serves /livez, /readyz and /metrics and nothing else', async () => {
    const sut = await startOpsServer({
      service: 'worker',
      host: '127.0.0.1',
      port: 0,
      logger,
      readiness: [{ name: 'redis', check: async () => undefined }],
    });
    const agent = new http.Agent();
    try {
      sut.metrics.gauge('queue_jobs', { help: 'Jobs', labelNames: ['queue', 'state'] }).set({ queue: 'webhooks', state: 'waiting' }, 2);
      expect(await get(`${sut.url}/livez`, agent)).toMatchObject({ status: 200 });
      expect(JSON.parse((await get(`${sut.url}/readyz`, agent)).body)).toMatchObject({ status: 'ready', checks: { redis: 'ok' } });
      const metrics = await get(`${sut.url}/metrics`, agent);
      expect(metrics.body).toContain('arbiter_queue_jobs{queue="webhooks",state="waiting",service="worker"} 2');
      expect((await get(`${sut.url}/api`, agent)).status).toBe(404);
    } finally {
      agent.destroy();
      await sut.close();
    }
  });
});
