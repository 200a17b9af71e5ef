import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { databaseUrl, ensureDatabases, startPostgres, PostgresHandle } from './postgres';
import { isRoot, locateNativeDir } from './postgres-runtime';
import { isProcessAlive, writeOwnerRecord } from './processes';

// Each test starts real servers (initdb alone takes about a second); Jest's project-level testTimeout is ignored
// when running from the root config, so the default of 5 s would apply on a busy machine.
jest.setTimeout(60_000);

// These tests start their own clusters in temporary directories, independent of the global test setup's server.

async function query<T = Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** mkdtemp makes 0700 folders; as root the postgres OS user must traverse them. */
function traversableTmpDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-devstack-pg-'));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

function writeOwner(dataDir: string, ownerPid: number, port: number): void {
  writeOwnerRecord(path.join(dataDir, 'arbiter-owner.json'), { ownerPid, port });
}

const itAsRoot = isRoot() ? it : it.skip;

describe(startPostgres.name, () => {
  let tmp: string;
  const started: PostgresHandle[] = [];

  beforeEach(() => {
    tmp = traversableTmpDir();
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((pg) => pg.stop()));
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function start(options: Parameters<typeof startPostgres>[0]): Promise<PostgresHandle> {
    const sut = await startPostgres({ durable: false, ...options });
    started.push(sut);
    return sut;
  }

  it('serves SQL on 127.0.0.1 as the superuser', async () => {
    const sut = await start({ dataDir: path.join(tmp, 'pg') });

    const rows = await query<{ one: number; user: string }>(sut.url, 'SELECT 1 AS one, current_user AS user');

    expect(rows).toEqual([{ one: 1, user: 'postgres' }]);
    expect(new URL(sut.url).hostname).toBe('127.0.0.1');
    expect(new URL(sut.url).port).toBe(String(sut.port));
  });

  it('reuses an initialised data directory: a table created before stop exists after the next start', async () => {
    const dataDir = path.join(tmp, 'pg');
    // Durable, as `npm start` runs it.
    const first = await start({ dataDir, durable: true });
    await query(first.url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('still here')");
    await first.stop();

    const sut = await start({ dataDir, durable: true });

    expect(await query(sut.url, 'SELECT v FROM kept')).toEqual([{ v: 'still here' }]);
  });

  it('starts over a stale postmaster.pid left by a killed server', async () => {
    const dataDir = path.join(tmp, 'pg');
    const first = await start({ dataDir });
    process.kill(first.pid, 'SIGKILL');
    await first.stop();
    expect(fs.existsSync(path.join(first.dataDir, 'postmaster.pid'))).toBe(true);

    const sut = await start({ dataDir });

    expect(await query(sut.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('treats a postmaster.pid naming a live unrelated process as stale', async () => {
    const dataDir = path.join(tmp, 'pg');
    const first = await start({ dataDir });
    await first.stop();
    // A pid reused by another process (common after a container restart): here, this test process itself.
    fs.writeFileSync(path.join(first.dataDir, 'postmaster.pid'), `${process.pid}\n${first.dataDir}\n`);

    const sut = await start({ dataDir });

    expect(await query(sut.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('stops a server orphaned by a killed run (its owner process is gone) and starts a new one', async () => {
    const dataDir = path.join(tmp, 'pg');
    const orphan = await start({ dataDir });
    writeOwner(orphan.dataDir, deadPid(), orphan.port);

    const sut = await start({ dataDir });

    expect(isProcessAlive(orphan.pid)).toBe(false);
    expect(await query(sut.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('refuses with already_running when the owner of the running server is alive', async () => {
    const dataDir = path.join(tmp, 'pg');
    const running = await start({ dataDir });
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeOwner(running.dataDir, owner.pid!, running.port);

      const attempt = startPostgres({ dataDir, durable: false });

      await expect(attempt).rejects.toMatchObject({ code: 'already_running' });
      expect(isProcessAlive(running.pid)).toBe(true);
    } finally {
      owner.kill('SIGKILL');
    }
  });

  itAsRoot('runs from binaries and a data directory under a 0700 directory by copying and relocating them', async () => {
    // A checkout under a private home directory: the postgres OS user can traverse neither path.
    const home = path.join(tmp, 'home');
    fs.mkdirSync(home, { mode: 0o700 });
    const native = locateNativeDir();
    const privateNative = path.join(home, 'native');
    fs.cpSync(native.dir, privateNative, { recursive: true, verbatimSymlinks: true });
    const cacheRoot = path.join(tmp, 'cache');
    fs.mkdirSync(cacheRoot, { mode: 0o755 });
    const relocateRoot = path.join(tmp, 'relocated');
    const dataDir = path.join(home, 'checkout', '.data', 'pg');

    const sut = await start({
      dataDir,
      nativeDir: { dir: privateNative, version: `${native.version}-test` },
      binaryCacheRoot: cacheRoot,
      relocateRoot,
    });

    expect(await query(sut.url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(fs.existsSync(path.join(cacheRoot, `arbiter-pg-${native.version}-test`, 'bin', 'postgres'))).toBe(true);
    expect(fs.lstatSync(dataDir).isSymbolicLink()).toBe(true);
    expect(sut.dataDir.startsWith(relocateRoot)).toBe(true);
    const owner = spawnSync('stat', ['-c', '%U', sut.dataDir], { encoding: 'utf8' }).stdout.trim();
    expect(owner).toBe('postgres');
  });
});

describe(`${startPostgres.name} with a relocated data directory`, () => {
  itAsRoot('starts from a fresh cluster after the folder holding the symlink is deleted', async () => {
    const tmp = traversableTmpDir();
    const home = path.join(tmp, 'home');
    fs.mkdirSync(home, { mode: 0o700 });
    const dataDir = path.join(home, '.data', 'pg');
    const relocateRoot = path.join(tmp, 'relocated');
    try {
      const first = await startPostgres({ dataDir, relocateRoot, durable: false });
      await query(first.url, 'CREATE TABLE old_data (id int)');
      await first.stop();
      fs.rmSync(path.join(home, '.data'), { recursive: true });

      const sut = await startPostgres({ dataDir, relocateRoot, durable: false });
      try {
        const rows = await query(sut.url, "SELECT to_regclass('old_data') AS t");
        expect(rows).toEqual([{ t: null }]);
      } finally {
        await sut.stop();
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe(ensureDatabases.name, () => {
  it('creates missing databases and leaves existing ones alone', async () => {
    const tmp = traversableTmpDir();
    const pg = await startPostgres({ dataDir: path.join(tmp, 'pg'), durable: false });
    try {
      await ensureDatabases(pg.url, ['arbiter_a', 'arbiter_b']);
      await query(databaseUrl(pg.url, 'arbiter_a'), 'CREATE TABLE marker (id int)');

      await ensureDatabases(pg.url, ['arbiter_a', 'arbiter_b']);

      const names = await query<{ datname: string }>(pg.url, "SELECT datname FROM pg_database WHERE datname LIKE 'arbiter_%' ORDER BY 1");
      expect(names.map((r) => r.datname)).toEqual(['arbiter_a', 'arbiter_b']);
      expect(await query(databaseUrl(pg.url, 'arbiter_a'), 'SELECT count(*)::int AS n FROM marker')).toEqual([{ n: 0 }]);
    } finally {
      await pg.stop();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
