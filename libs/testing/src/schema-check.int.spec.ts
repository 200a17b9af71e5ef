import { createTestDatabase, testPool } from './databases';
import { schemaMismatches } from './schema-check';

describe(schemaMismatches.name, () => {
  it('names missing tables, missing columns, wrong types and unknown NOT NULL columns', async () => {
    const db = await createTestDatabase('schemacheck');
    const pool = testPool(db.url, 1);
    try {
      await pool.query('CREATE TABLE things (id text PRIMARY KEY, count text, extra int NOT NULL)');
      const fakePrisma = {
        _runtimeDataModel: {
          models: {
            Thing: {
              dbName: 'things',
              fields: [
                { name: 'id', kind: 'scalar', type: 'String' },
                { name: 'count', kind: 'scalar', type: 'Int' },
                { name: 'missing', kind: 'scalar', type: 'String' },
              ],
            },
            Ghost: { dbName: 'ghosts', fields: [{ name: 'id', kind: 'scalar', type: 'String' }] },
          },
        },
      };
      expect((await schemaMismatches(fakePrisma, pool)).sort()).toEqual(
        [
          'Ghost: table ghosts does not exist',
          'Thing.count: Int does not fit column type text',
          'Thing.missing: column things.missing does not exist',
          'things.extra: NOT NULL column without default is not in model Thing',
        ].sort(),
      );
    } finally {
      await pool.end();
      await db.drop();
    }
  });
});
