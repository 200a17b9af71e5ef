import { applyMigrations, createPool, createPrismaClient } from '@arbiter/db';
import { createTestDatabase, schemaMismatches } from '@arbiter/testing';
import { PrismaClient } from '../src/generated/prisma/client';
import { verdictMigrationsDir } from '../src/context';

describe('verdict Prisma schema against its migrations', () => {
  it('matches every model to the migrated tables', async () => {
    const db = await createTestDatabase('verdict_schema');
    const pool = createPool({ url: db.url, max: 2 });
    const prisma = createPrismaClient(PrismaClient, pool);
    try {
      const first = await applyMigrations(db.url, verdictMigrationsDir());
      expect(first.applied.length).toBeGreaterThan(0);
      expect(await schemaMismatches(prisma, pool)).toEqual([]);
      const again = await applyMigrations(db.url, verdictMigrationsDir());
      expect(again.applied).toEqual([]);
    } finally {
      await prisma.$disconnect();
      await pool.end();
      await db.drop();
    }
  });
});
