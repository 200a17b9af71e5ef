import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations, codeChecksum, readMigrations, sqlChecksum } from '@arbiter/db';
import { createTestDatabase } from '@arbiter/testing';

/**
 * Applied migrations whose comments were corrected list their earlier texts in `earlier-checksums`
 * (ADR 0003). Each listed text must be one the repository really had, differ from today's only in
 * whole-line comments, and a database that applied it must start with today's folder.
 */
const root = path.resolve(__dirname, '..');
const SERVICES = ['registry', 'verdict', 'ledger'];
// A shallow clone lacks the earlier texts; the applier still checks the code checksums itself (libs/db).
const shallow = execFileSync('git', ['rev-parse', '--is-shallow-repository'], { cwd: root, encoding: 'utf8' }).trim() === 'true';
const withHistory = shallow ? it.skip : it;

function earlierTexts(file: string): Map<string, string> {
  const git = (args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const texts = new Map<string, string>();
  for (const commit of git(['log', '--format=%H', '--', file]).split('\n').filter(Boolean)) {
    const text = git(['show', `${commit}:${file}`]);
    texts.set(sqlChecksum(text), text);
  }
  return texts;
}

describe.each(SERVICES)('amended %s migrations', (service) => {
  const dir = path.join(root, 'prisma', service, 'migrations');
  const amended = readdirSync(dir).filter((name) => existsSync(path.join(dir, name, 'earlier-checksums')));

  withHistory('list only earlier texts of the repository whose code is today’s', async () => {
    for (const migration of await readMigrations(dir)) {
      if (!migration.earlier.length) continue;
      const history = earlierTexts(path.posix.join('prisma', service, 'migrations', migration.name, 'migration.sql'));
      for (const earlier of migration.earlier) {
        const text = history.get(earlier.checksum);
        expect({ migration: migration.name, found: text !== undefined }).toEqual({ migration: migration.name, found: true });
        expect(codeChecksum(text!)).toBe(earlier.code);
        expect(earlier.code).toBe(codeChecksum(migration.sql));
      }
    }
  });

  withHistory('start on a database that applied the earlier texts', async () => {
    if (!amended.length) return;
    const db = await createTestDatabase(`amended_${service}`);
    const old = mkdtempSync(path.join(os.tmpdir(), 'arbiter-migrations-'));
    try {
      cpSync(dir, old, { recursive: true });
      for (const migration of await readMigrations(dir)) {
        const first = migration.earlier[0];
        if (!first) continue;
        const text = earlierTexts(path.posix.join('prisma', service, 'migrations', migration.name, 'migration.sql')).get(first.checksum)!;
        writeFileSync(path.join(old, migration.name, 'migration.sql'), text);
        rmSync(path.join(old, migration.name, 'earlier-checksums'));
      }
      expect(readFileSync(path.join(old, amended[0]!, 'migration.sql'), 'utf8')).not.toBe(
        readFileSync(path.join(dir, amended[0]!, 'migration.sql'), 'utf8'),
      );
      await applyMigrations(db.url, old);
      await expect(applyMigrations(db.url, dir)).resolves.toEqual({ applied: [] });
    } finally {
      rmSync(old, { recursive: true, force: true });
      await db.drop();
    }
  });
});
