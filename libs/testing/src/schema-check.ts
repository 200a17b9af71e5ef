import type { Pool } from 'pg';

interface RuntimeField {
  name: string;
  kind: string;
  type: string;
  dbName?: string | null;
}
interface RuntimeModel {
  fields: RuntimeField[];
  dbName: string | null;
}

/** PostgreSQL types Prisma can map each scalar type to (docs/development.md: migrations are hand-written). */
const COMPATIBLE: Record<string, string[]> = {
  String: ['text', 'varchar', 'bpchar', 'uuid'],
  Int: ['int4', 'int2'],
  BigInt: ['int8'],
  Float: ['float8', 'float4'],
  Decimal: ['numeric'],
  Boolean: ['bool'],
  DateTime: ['timestamptz', 'timestamp', 'date'],
  Json: ['jsonb', 'json'],
  Bytes: ['bytea'],
};

/**
 * Compares every model Prisma was generated with against the migrated database: each table and
 * column exists with a compatible type, and no NOT NULL column without a default is unknown to
 * the model (an insert through Prisma would fail). Then reads every model once through Prisma.
 * Returns the problems found; an empty list means the schema and the migrations agree.
 */
export async function schemaMismatches(prisma: object, pool: Pool): Promise<string[]> {
  const dataModel = (prisma as { _runtimeDataModel?: { models: Record<string, RuntimeModel> } })._runtimeDataModel;
  if (!dataModel) return ['prisma client exposes no runtime data model'];
  const problems: string[] = [];
  const { rows } = await pool.query<{
    table_name: string;
    column_name: string;
    udt_name: string;
    is_nullable: string;
    column_default: string | null;
  }>(
    `SELECT table_name, column_name, udt_name, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = current_schema()`,
  );
  for (const [modelName, model] of Object.entries(dataModel.models)) {
    const table = model.dbName ?? modelName;
    const columns = new Map(rows.filter((r) => r.table_name === table).map((r) => [r.column_name, r]));
    if (!columns.size) {
      problems.push(`${modelName}: table ${table} does not exist`);
      continue;
    }
    const scalars = model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum');
    const known = new Set<string>();
    for (const f of scalars) {
      const column = f.dbName ?? f.name;
      known.add(column);
      const col = columns.get(column);
      if (!col) {
        problems.push(`${modelName}.${f.name}: column ${table}.${column} does not exist`);
        continue;
      }
      const udt = col.udt_name.replace(/^_/, '');
      if (f.kind === 'scalar' && !(COMPATIBLE[f.type] ?? []).includes(udt)) {
        problems.push(`${modelName}.${f.name}: ${f.type} does not fit column type ${col.udt_name}`);
      }
    }
    for (const [name, col] of columns) {
      if (!known.has(name) && col.is_nullable === 'NO' && col.column_default === null) {
        problems.push(`${table}.${name}: NOT NULL column without default is not in model ${modelName}`);
      }
    }
    const delegate = (prisma as Record<string, { findMany?: (a: object) => Promise<unknown> }>)[
      modelName[0].toLowerCase() + modelName.slice(1)
    ];
    try {
      await delegate?.findMany?.({ take: 1 });
    } catch (err) {
      problems.push(`${modelName}: read through Prisma failed: ${(err as Error).message.split('\n').slice(-1)[0]}`);
    }
  }
  return problems;
}
