import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DevstackError } from './errors';
import { findFreePort } from './ports';
import { isProcessAlive } from './processes';
import { pingRedis, RedisHandle, startRedis } from './redis';

// Each test starts real servers (initdb alone takes about a second); Jest's project-level testTimeout is ignored
// when running from the root config, so the default of 5 s would apply on a busy machine.
jest.setTimeout(60_000);

// These tests start their own redis-server in temporary directories, independent of the global test setup's server.

describe(startRedis.name, () => {
  let tmp: string;
  const started: RedisHandle[] = [];

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-devstack-redis-'));
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((redis) => redis.stop()));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function start(options: Parameters<typeof startRedis>[0]): Promise<RedisHandle> {
    const sut = await startRedis(options);
    started.push(sut);
    return sut;
  }

  it('answers PING on 127.0.0.1 at the URL it returns', async () => {
    const sut = await start({ dir: tmp });

    expect(sut.url).toBe(`redis://127.0.0.1:${sut.port}`);
    expect(await pingRedis(sut.port)).toBe(true);
  });

  it('listens on the port it is given', async () => {
    const port = await findFreePort();

    const sut = await start({ dir: tmp, port });

    expect(sut.port).toBe(port);
    expect(await pingRedis(port)).toBe(true);
  });

  it('stops the server on stop()', async () => {
    const sut = await start({ dir: tmp });

    await sut.stop();

    expect(isProcessAlive(sut.pid)).toBe(false);
    expect(await pingRedis(sut.port)).toBe(false);
  });

  it('rejects with port_in_use when the port is taken', async () => {
    const first = await start({ dir: path.join(tmp, 'a') });

    const attempt = startRedis({ dir: path.join(tmp, 'b'), port: first.port });

    await expect(attempt).rejects.toBeInstanceOf(DevstackError);
    await expect(attempt).rejects.toMatchObject({ code: 'port_in_use' });
  });
});
