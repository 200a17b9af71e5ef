import type { Pool } from 'pg';
import { createTestDatabase, testPool } from '@arbiter/testing';
import { jsonArrayParam } from './json-array';

// jsonArrayParam is read by PostgreSQL's own array_recv and json_recv: the texts arrive as sent, byte for byte, and a
// text that is not JSON is refused as PostgreSQL refuses it in a literal.
describe(jsonArrayParam.name, () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase('json_array_param');
    pool = testPool(db.url, 2);
  });
  afterAll(async () => {
    await pool.end();
    await db.drop();
  });

  /** The elements as PostgreSQL holds them: their text (null for SQL NULL), their byte length and position. */
  async function received(texts: (string | null)[]) {
    const { rows } = await pool.query<{ text: string | null; bytes: number | null; n: string }>(
      `SELECT e::text AS text, octet_length(e::text) AS bytes, n FROM unnest($1::json[]) WITH ORDINALITY AS u(e, n) ORDER BY n`,
      [jsonArrayParam(texts)],
    );
    return rows.map((r) => ({ text: r.text, bytes: r.bytes }));
  }

  it('keeps every text as sent: spacing, key order, numbers as written, escapes and characters beyond ASCII', async () => {
    const texts = [
      '{"b":1,  "a":[1.0, 2e3]}',
      '"\\u0000 and \\ud800 escaped"',
      '{"name":"Zoë ✓ 𝄞","quote":"\\"","backslash":"\\\\"}',
      `{"big":"${'x'.repeat(100_000)}"}`,
      '[]',
    ];
    expect(await received(texts)).toEqual(texts.map((t) => ({ text: t, bytes: Buffer.byteLength(t) })));
  });

  it('sends null as SQL NULL, and an empty list as an empty array', async () => {
    expect(await received(['1', null, 'null'])).toEqual([
      { text: '1', bytes: 1 },
      { text: null, bytes: null },
      { text: 'null', bytes: 4 },
    ]);
    const { rows } = await pool.query<{ n: number }>('SELECT cardinality($1::json[]) AS n', [jsonArrayParam([])]);
    expect(rows[0].n).toBe(0);
  });

  it('is refused with invalid_text_representation when a text is not JSON, like a literal', async () => {
    await expect(pool.query('SELECT $1::json[]', [jsonArrayParam(['{"a":1}', '{"a":'])])).rejects.toMatchObject({ code: '22P02' });
    await expect(pool.query(`SELECT '{"a":'::json`)).rejects.toMatchObject({ code: '22P02' });
  });
});
