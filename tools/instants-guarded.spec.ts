import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './repository';

type Schema = {
  $ref?: string;
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};
interface Doc {
  paths: Record<string, Record<string, { operationId?: string; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components?: { schemas?: Record<string, Schema> };
}

/**
 * The dot paths of a body schema's `date-time` members (tsoa's `Date`), refs followed; a member inside an array is
 * named with `[]`, which no guard can name (it fails below until the guard learns arrays).
 */
function instantMembers(doc: Doc, schema: Schema, prefix = '', seen: ReadonlySet<string> = new Set()): string[] {
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop()!;
    return seen.has(name) ? [] : instantMembers(doc, doc.components!.schemas![name], prefix, new Set([...seen, name]));
  }
  if (schema.format === 'date-time') return [prefix];
  const parts = [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap((s) =>
    instantMembers(doc, s, prefix, seen),
  );
  if (schema.items) parts.push(...instantMembers(doc, schema.items, `${prefix}[]`, seen));
  for (const [name, member] of Object.entries(schema.properties ?? {}))
    parts.push(...instantMembers(doc, member, prefix ? `${prefix}.${name}` : name, seen));
  return parts;
}

function controllerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    return e.isDirectory() ? controllerFiles(file) : e.name.endsWith('.controller.ts') ? [file] : [];
  });
}

/** The decorators written above the handler method `name` (from the end of the previous member). */
function decoratorsOf(service: string, name: string): string | null {
  for (const file of controllerFiles(path.join(root, 'apps', service, 'src/controllers'))) {
    const text = readFileSync(file, 'utf8');
    const at = text.search(new RegExp(`\\n  (?:public )?async ${name}\\(`));
    if (at < 0) continue;
    const before = text.slice(0, at);
    return before.slice(Math.max(before.lastIndexOf('\n  }'), before.lastIndexOf('*/')));
  }
  return null;
}

/**
 * tsoa reads a `Date` body member as any strict ISO 8601 text (a local time in the server's zone, a date as UTC
 * midnight), so every route whose body has one checks it first with `@Instants(...)` (apps/registry/src/http/instants.ts,
 * docs/registry.md "Errors"). A new `Date` member fails here until its route names it.
 */
describe('date-time body members', () => {
  const operations = ['registry', 'verdict', 'ledger'].flatMap((service) =>
    ['openapi.json', 'openapi.internal.json'].flatMap((file) => {
      const doc = JSON.parse(readFileSync(path.join(root, 'apps', service, file), 'utf8')) as Doc;
      return Object.entries(doc.paths).flatMap(([route, ops]) =>
        Object.entries(ops).flatMap(([method, op]) => {
          const members = Object.values(op.requestBody?.content ?? {}).flatMap((c) => instantMembers(doc, c.schema));
          return members.length ? [{ service, operation: `${method.toUpperCase()} ${route}`, id: op.operationId ?? '', members }] : [];
        }),
      );
    }),
  );

  it('are found in the documents (the three expiries of the registry at least)', () => {
    expect(operations.map((o) => o.operation)).toEqual(
      expect.arrayContaining([
        'POST /api/v1/scopes/{scope_id}/overrides',
        'POST /api/v1/scopes/{scope_id}/approvals/{approval_id}/decide',
        'POST /api/v1/api-keys',
      ]),
    );
  });

  it('are each checked by the route as an instant with Z or an offset', () => {
    const unguarded = operations.flatMap(({ service, operation, id, members }) => {
      const handler = id.charAt(0).toLowerCase() + id.slice(1);
      const decorators = decoratorsOf(service, handler) ?? '';
      const named = [...decorators.matchAll(/@Instants\(([^)]*)\)/g)].flatMap((m) => [...m[1].matchAll(/'([^']+)'/g)].map((n) => n[1]));
      return members.filter((m) => !named.includes(m)).map((m) => `${service} ${operation} (${handler}): ${m}`);
    });
    expect(unguarded).toEqual([]);
  });
});
