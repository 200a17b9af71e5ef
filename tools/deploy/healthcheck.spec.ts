import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { checkHttp, checkRedis, healthTarget } from '../../docker/healthcheck';
import { testRedisUrl } from './sources';

/** A TCP server that records what it is sent and answers with the given RESP lines, one per command received. */
async function fakeRedis(replies: string[]): Promise<{ url: (auth?: string) => string; received: () => string; close(): Promise<void> }> {
  let received = '';
  const server = net.createServer((socket) => {
    socket.on('data', (chunk) => {
      received += chunk.toString();
      const commands = received.split('\r\n').filter((l) => l.startsWith('*')).length;
      socket.write(replies.slice(0, commands).join(''));
      replies.splice(0, commands);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (auth = '') => `redis://${auth}127.0.0.1:${port}`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe(healthTarget.name, () => {
  it('checks a service on its own port: PORT, else the service default', () => {
    expect(healthTarget({ ARBITER_SERVICE: 'ledger', PORT: '8080' })).toEqual({ kind: 'http', url: 'http://127.0.0.1:8080/readyz' });
    expect(healthTarget({ ARBITER_SERVICE: 'verdict' })).toEqual({ kind: 'http', url: 'http://127.0.0.1:3002/readyz' });
  });

  it('checks the worker through its Redis, unless HEALTHCHECK_URL names an endpoint', () => {
    expect(healthTarget({ ARBITER_SERVICE: 'worker', REDIS_URL: 'redis://r:6379' })).toEqual({ kind: 'redis', url: 'redis://r:6379' });
    expect(
      healthTarget({ ARBITER_SERVICE: 'worker', REDIS_URL: 'redis://r:6379', HEALTHCHECK_URL: 'http://127.0.0.1:9464/readyz' }),
    ).toEqual({
      kind: 'http',
      url: 'http://127.0.0.1:9464/readyz',
    });
  });

  it('refuses to guess when there is nothing to check, with code no_target', () => {
    expect(() => healthTarget({ ARBITER_SERVICE: 'worker' })).toThrow(expect.objectContaining({ code: 'no_target' }));
  });
});

describe(checkRedis.name, () => {
  it('answers healthy when the real Redis answers PING', async () => {
    await expect(checkRedis(testRedisUrl())).resolves.toBeUndefined();
  });

  it('authenticates with the user and password of the URL before PING', async () => {
    const sut = await fakeRedis(['+OK\r\n', '+PONG\r\n']);
    try {
      await checkRedis(sut.url('worker:s%40cret@'));
      expect(sut.received()).toBe('*3\r\n$4\r\nAUTH\r\n$6\r\nworker\r\n$6\r\ns@cret\r\n*1\r\n$4\r\nPING\r\n');
    } finally {
      await sut.close();
    }
  });

  it('reports a refused password as unhealthy', async () => {
    const sut = await fakeRedis(['-WRONGPASS invalid username-password pair\r\n']);
    try {
      await expect(checkRedis(sut.url(':nope@'))).rejects.toMatchObject({
        code: 'unhealthy',
        message: expect.stringContaining('WRONGPASS'),
      });
    } finally {
      await sut.close();
    }
  });

  it('reports a closed port as unreachable', async () => {
    await expect(checkRedis('redis://127.0.0.1:1')).rejects.toMatchObject({ code: 'unreachable' });
  });
});

describe(checkHttp.name, () => {
  it('is healthy on 200 only', async () => {
    let status = 200;
    const server = http.createServer((_req, res) => {
      res.statusCode = status;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`;
    try {
      await expect(checkHttp(url)).resolves.toBeUndefined();
      status = 503;
      await expect(checkHttp(url)).rejects.toMatchObject({ code: 'unhealthy', message: expect.stringContaining('503') });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
