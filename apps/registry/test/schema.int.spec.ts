import { applyMigrations, createPool, createPrismaClient } from '@arbiter/db';
import { createTestDatabase, schemaMismatches } from '@arbiter/testing';
import { PrismaClient } from '../src/generated/prisma/client';
import { registryMigrationsDir } from '../src/context';

describe('registry Prisma schema against its migrations', () => {
  it('matches every model to the migrated tables', async () => {
    const db = await createTestDatabase('registry_schema');
    const pool = createPool({ url: db.url, max: 2 });
    const prisma = createPrismaClient(PrismaClient, pool);
    try {
      const first = await applyMigrations(db.url, registryMigrationsDir());
      expect(first.applied.length).toBeGreaterThan(0);
      expect(await schemaMismatches(prisma, pool)).toEqual([]);
      const again = await applyMigrations(db.url, registryMigrationsDir());
      expect(again.applied).toEqual([]);
    } finally {
      await prisma.$disconnect();
      await pool.end();
      await db.drop();
    }
  });
});
