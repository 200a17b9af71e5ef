import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase } from '@arbiter/testing';
import { createServiceApp } from './app';
import { verdictDialect } from './dialects';
import { createLogger } from './logger';
import { startService, type RunningService, type ServiceConfig, type ServiceDefinition } from './service';

const logger = createLogger('test', 'silent');

interface Config extends ServiceConfig {
  DATABASE_URL: string;
}

/** A context that records what happened to it, in the order it happened. */
interface Ctx {
  events: string[];
  close(): Promise<void>;
}

async function migrationsFolder(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'arbiter-service-'));
  await mkdir(path.join(dir, '20260101000000_init'));
  await writeFile(path.join(dir, '20260101000000_init', 'migration.sql'), 'CREATE TABLE thing (id int PRIMARY KEY);');
  return dir;
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe(startService.name, () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dir: string;
  let config: Config;
  let events: string[];

  beforeAll(async () => {
    db = await createTestDatabase('service');
    dir = await migrationsFolder();
    config = { HOST: '127.0.0.1', PORT: 0, DATABASE_URL: db.url, SHUTDOWN_GRACE_MS: 1000 };
  });
  afterAll(() => db.drop());
  beforeEach(() => {
    events = [];
  });

  const definition = (over: Partial<ServiceDefinition<Config, Ctx>> = {}): ServiceDefinition<Config, Ctx> => ({
    migrations: (c) => ({ databaseUrl: c.DATABASE_URL, dir }),
    context: async () => {
      const client = new Client({ connectionString: db.url });
      await client.connect();
      // The migration ran before the context was made.
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM thing');
      await client.end();
      events.push(`context (thing has ${rows[0].n} rows)`);
      return { events, close: async () => void events.push('context closed') };
    },
    startupChecks: [async (ctx) => void ctx.events.push('check 1'), async (ctx) => void ctx.events.push('check 2')],
    app: (ctx) => {
      ctx.events.push('app');
      return createServiceApp({
        service: 'test',
        dialect: verdictDialect,
        logger,
        routes: (a) => a.get('/hello', (_req, res) => void res.json({ hi: true })),
      });
    },
    ...over,
  });

  it('migrates, makes the context, runs the startup checks in order, serves, and closes the context last', async () => {
    const running: RunningService<Ctx> = await startService(definition(), config, logger);
    expect(await get(`${running.url}/hello`)).toEqual({ status: 200, body: '{"hi":true}' });
    expect(running.ctx.events).toEqual(['context (thing has 0 rows)', 'check 1', 'check 2', 'app']);
    await running.close();
    expect(events.at(-1)).toBe('context closed');
    await expect(get(`${running.url}/hello`)).rejects.toThrow();
  });

  it('closes the context when a startup check fails, and never listens', async () => {
    const failing = definition({
      startupChecks: [
        async (ctx) => void ctx.events.push('check 1'),
        async () => Promise.reject(new Error('KEY_ENCRYPTION_KEY does not open the current key')),
      ],
    });
    await expect(startService(failing, config, logger)).rejects.toThrow('KEY_ENCRYPTION_KEY does not open the current key');
    expect(events).toEqual(['context (thing has 0 rows)', 'check 1', 'context closed']);
  });

  it('closes the context when the port cannot be opened', async () => {
    const first = await startService(definition(), config, logger);
    const port = Number(new URL(first.url).port);
    events = [];
    try {
      await expect(startService(definition(), { ...config, PORT: port }, logger)).rejects.toThrow(/EADDRINUSE/);
      expect(events).toEqual(['context (thing has 0 rows)', 'check 1', 'check 2', 'app', 'context closed']);
    } finally {
      await first.close();
    }
  });

  it('makes no context when the migrations fail', async () => {
    const broken = await mkdtemp(path.join(os.tmpdir(), 'arbiter-service-'));
    await mkdir(path.join(broken, '20260101000000_broken'));
    await writeFile(path.join(broken, '20260101000000_broken', 'migration.sql'), 'THIS IS NOT SQL;');
    await expect(startService(definition({ migrations: () => ({ databaseUrl: db.url, dir: broken }) }), config, logger)).rejects.toThrow();
    expect(events).toEqual([]);
  });
});
