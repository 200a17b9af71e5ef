import { migrationStatements, NO_TRANSACTION } from './migrations';

describe('migrationStatements (no-transaction migrations)', () => {
  it('splits after each line ending in a semicolon and drops whole-line comments', () => {
    const sql = `${NO_TRANSACTION}
-- a comment; with a semicolon;
ALTER TABLE a VALIDATE CONSTRAINT a_check;

CREATE UNIQUE INDEX CONCURRENTLY a_key
  ON a (id, keep_until);
DROP INDEX CONCURRENTLY IF EXISTS b_key;
`;
    expect(migrationStatements(sql)).toEqual([
      'ALTER TABLE a VALIDATE CONSTRAINT a_check;',
      'CREATE UNIQUE INDEX CONCURRENTLY a_key\n  ON a (id, keep_until);',
      'DROP INDEX CONCURRENTLY IF EXISTS b_key;',
    ]);
  });

  it('keeps a last statement without a semicolon', () => {
    expect(migrationStatements('SELECT 1;\nSELECT 2')).toEqual(['SELECT 1;', 'SELECT 2']);
  });
});
