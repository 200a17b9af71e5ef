/** PostgreSQL SQLSTATE helpers, for errors raised by pg directly or wrapped by Prisma's adapter. */
function sqlState(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown; originalCode?: unknown }; meta?: { code?: unknown } } | undefined;
  for (const c of [e?.code, e?.cause?.originalCode, e?.cause?.code, e?.meta?.code]) {
    if (typeof c === 'string' && /^[0-9A-Z]{5}$/.test(c)) return c;
  }
  return undefined;
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | undefined;
  return sqlState(err) === '23505' || e?.code === 'P2002';
}

export function isSerializationFailure(err: unknown): boolean {
  const s = sqlState(err);
  return s === '40001' || s === '40P01';
}

/**
 * Whether a statement's failure can be one row's doing (PostgreSQL SQLSTATE classes, appendix A): 22 data
 * exception (e.g. 22021 a byte sequence the encoding refuses, 22P02 text that is not JSON), 23 integrity
 * constraint violation, 54 program limit exceeded (e.g. an index row too large). Connection failures,
 * shutdowns, resources and lock timeouts are no row's doing: they would fail every row alike. The
 * classifier of bisectOnRowFault for SQL writes.
 */
export function isRowFault(err: unknown): boolean {
  const s = sqlState(err);
  return s !== undefined && /^(22|23|54)/.test(s);
}
