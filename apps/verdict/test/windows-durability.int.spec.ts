import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mintTenantId } from '@arbiter/auth';
import { applyMigrations, createPool } from '@arbiter/db';
import { ensureDatabases, databaseUrl, startPostgres, type PostgresHandle } from '@arbiter/devstack';
import type { WindowNeed } from '@arbiter/policy';
import type { Pool } from 'pg';
import { verdictMigrationsDir } from '../src/context';
import { WindowRepository } from '../src/repositories/windows.repository';

jest.setTimeout(60_000);

// No restart of PostgreSQL resets a window (docs/verdicts.md "Windows and outcomes"): a take is on disk once it is
// answered, whatever follows it. Shown on a durable PostgreSQL of its own (fsync and synchronous_commit on) killed with
// SIGKILL, every process at once, and recovered from its write-ahead log. Its WAL writer is stopped (SIGSTOP), so that
// nothing but a commit's own flush puts the log on disk: a take whose commit did not wait for the disk would be lost
// (shown by hand with window_take_batch run under synchronous_commit off; docs/benchmarks.md "Takes that do not wait
// for the disk").

const need: WindowNeed = {
  rule_id: 'rul-budget',
  rule_version_id: 'rv-1',
  key: '{"principal":"agent"}',
  window: '24h',
  window_ms: 86_400_000,
  amount: 1,
  max: 100,
};

let dir: string;
let pg: PostgresHandle;
let url: string;
/** The stopped WAL writer of the running server. */
let walWriter: number | undefined;

/** The server's processes: the postmaster and its children. */
function serverProcesses(): { pid: number; title: string }[] {
  const out = [{ pid: pg.pid, title: 'postmaster' }];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pg.pid) out.push({ pid: Number(entry), title: fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8') });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

async function start(): Promise<void> {
  pg = await startPostgres({
    dataDir: path.join(dir, 'pg'),
    durable: true,
    // No background writer writes, no checkpoint and no autovacuum meanwhile: each could flush the log.
    settings: { autovacuum: 'off', bgwriter_lru_maxpages: '0', checkpoint_timeout: '1h', wal_writer_delay: '10s' },
  });
  url = databaseUrl(pg.url, 'verdict');
  const found = serverProcesses().find((p) => p.title.includes('walwriter'));
  if (!found) throw new Error('no WAL writer process found');
  walWriter = found.pid;
  process.kill(walWriter, 'SIGSTOP');
}

/** Sends a signal to a process that may have ended meanwhile (a backend whose client left). */
function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

/** Every process of the server killed at once (the postmaster stopped first, so that it cannot react), then started again. */
async function crashAndRecover(): Promise<void> {
  const processes = serverProcesses();
  process.kill(pg.pid, 'SIGSTOP');
  for (const p of processes) signal(p.pid, 'SIGKILL');
  await pg.stop();
  await start();
}

async function withRepository<T>(fn: (repo: WindowRepository, pool: Pool) => Promise<T>): Promise<T> {
  const pool = createPool({ url, max: 2 });
  try {
    return await fn(new WindowRepository(pool), pool);
  } finally {
    await pool.end();
  }
}

const eventsOf = (consultationId: string) =>
  withRepository(async (_repo, pool) => {
    const { rows } = await pool.query('SELECT consultation_id FROM window_events WHERE consultation_id = $1', [consultationId]);
    return rows.length;
  });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-window-durability-'));
  // mkdtemp makes 0700 folders; as root the postgres OS user must traverse it (else the cluster is kept elsewhere).
  fs.chmodSync(dir, 0o755);
  await start();
  await ensureDatabases(pg.url, ['verdict']);
  await applyMigrations(url, verdictMigrationsDir());
});
afterAll(async () => {
  // A fast shutdown waits for the WAL writer: resumed first.
  if (walWriter !== undefined) signal(walWriter, 'SIGCONT');
  await pg?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  if (pg && !pg.dataDir.startsWith(dir)) fs.rmSync(pg.dataDir, { recursive: true, force: true });
});

describe('the windows through a crash of PostgreSQL', () => {
  const tenant = mintTenantId('tnt-durable');

  it('keeps every answered take, with nothing committed after it, and the window counts them', async () => {
    await withRepository(async (repo) => {
      expect(await repo.take(tenant, 'cns-first', [need], [])).toEqual({ taken: true, used_before: [0] });
      expect(await repo.take(tenant, 'cns-last', [need], [])).toEqual({ taken: true, used_before: [1] });
    });
    await crashAndRecover();
    expect(await eventsOf('cns-first')).toBe(1);
    expect(await eventsOf('cns-last')).toBe(1);
    await withRepository(async (repo) => {
      expect(await repo.peek(tenant, [need])).toEqual([2]);
      expect(await repo.take(tenant, 'cns-after', [need], [])).toEqual({ taken: true, used_before: [2] });
    });
  });
});
