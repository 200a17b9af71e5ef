/** PostgreSQL's type oid of `json` (pg_type), the element type of a `json[]` parameter. */
const JSON_OID = 114;

/**
 * A `json[]` statement parameter in PostgreSQL's binary array format: the elements' JSON texts as they are, each
 * behind its length, no quoting and no escaping. node-postgres sends a Buffer parameter in binary format, so the
 * statement reads it as `$n::json[]`: PostgreSQL validates each element once and keeps its text byte for byte.
 *
 * A batch of JSON texts sent as one JSON array (`json_array_elements($n::json)`) is lexed twice, once to accept the
 * array and once to split it, and each element copied out of it; as a text-format `json[]` literal every quote of
 * every element is escaped on the way and unescaped on arrival (docs/benchmarks.md "Records as a binary json[]"; ADR 0038).
 *
 * A null element is SQL NULL. The layout (PostgreSQL's array_recv): dimensions (1), a has-nulls flag, the element
 * type, the length and lower bound (1) of the one dimension, then each element as a 32-bit length (-1 for NULL)
 * and its UTF-8 bytes.
 */
export function jsonArrayParam(texts: readonly (string | null)[]): Buffer {
  let size = 20;
  let nulls = 0;
  for (const t of texts) {
    if (t === null) nulls = 1;
    size += 4 + (t === null ? 0 : Buffer.byteLength(t, 'utf8'));
  }
  const out = Buffer.allocUnsafe(size);
  out.writeInt32BE(1, 0);
  out.writeInt32BE(nulls, 4);
  out.writeUInt32BE(JSON_OID, 8);
  out.writeInt32BE(texts.length, 12);
  out.writeInt32BE(1, 16);
  let at = 20;
  for (const t of texts) {
    if (t === null) {
      out.writeInt32BE(-1, at);
      at += 4;
      continue;
    }
    const n = out.write(t, at + 4, 'utf8');
    out.writeInt32BE(n, at);
    at += 4 + n;
  }
  return out;
}
