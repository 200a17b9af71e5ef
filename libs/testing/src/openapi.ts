import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * OpenAPI 3.0 schemas as JSON Schema: `nullable: true` is not JSON Schema, so it becomes an explicit
 * null alternative; everything else (example, format int64, ...) is kept and ignored by validators.
 */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'example' ? v : toJsonSchema(v);
  if (out.nullable !== true) return out;
  delete out.nullable;
  if (typeof out.type === 'string' && !out.enum) return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

/** A JSON pointer segment. */
export const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export interface OpenApiValidator {
  /** The validator of one documented JSON body (response or request), or undefined when the document has none there. */
  schemaAt(path: string, method: string, where: { status: string } | 'request'): ValidateFunction | undefined;
  errorsText(validate: ValidateFunction): string;
}

/** Validates bodies against a whole OpenAPI document with ajv (its components resolve by $ref). */
export function openApiValidator(doc: object): OpenApiValidator {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const f of ['double', 'float', 'int32', 'int64']) ajv.addFormat(f, true);
  ajv.addSchema({ ...(toJsonSchema(doc) as object), $id: 'openapi' });
  const cache = new Map<string, ValidateFunction | undefined>();
  return {
    schemaAt(path, method, where) {
      const at = where === 'request' ? 'requestBody' : `responses/${where.status}`;
      const ref = `openapi#/paths/${pointer(path)}/${method}/${at}/content/${pointer('application/json')}/schema`;
      if (!cache.has(ref)) {
        let found: ValidateFunction | undefined;
        try {
          found = ajv.getSchema(ref);
        } catch {
          found = undefined; // no such place in the document
        }
        cache.set(ref, found);
      }
      return cache.get(ref);
    },
    errorsText: (validate) => ajv.errorsText(validate.errors),
  };
}
