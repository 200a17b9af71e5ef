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
