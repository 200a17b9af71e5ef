import { bracketPath, describeUnstorable, dottedPath, printable, reasonText } from '@arbiter/input';
import { AppError, ErrorDialect, FieldProblem, ProblemKind } from './errors';

const STATUS: Record<ProblemKind, number> = {
  malformed_json: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  validation_failed: 400,
  not_found: 404,
  method_not_allowed: 405,
  bad_request: 400,
  internal: 500,
};

function fieldDetails(fields?: FieldProblem[]) {
  return fields && fields.length ? { fields } : undefined;
}

/** The verdict gateway (docs/verdicts.md "Errors"): `{code, message, details?}` with lowercase codes. */
export const verdictDialect: ErrorDialect = {
  problem(kind, message, fields) {
    const code = kind === 'internal' ? 'internal_error' : kind;
    return new AppError(STATUS[kind], code, message, fieldDetails(fields));
  },
  body(error, errorId) {
    const details = error.status >= 500 && errorId ? { error_id: errorId } : error.details;
    return details === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, details };
  },
  // docs/verdicts.md "Strings that cannot be stored": `details: {field, in}`; a body path as
  // `a.b[2]["x.y"]`, a query or path parameter by its name (JSON-quoted when the name is at fault).
  unstorable(u, location) {
    const field = location === 'body' ? bracketPath(u.path) || 'body' : u.inName ? bracketPath(u.path) : String(u.path[0]);
    const what = u.inName && location === 'body' ? 'member name' : 'field';
    return new AppError(400, 'validation_failed', `${location} ${what} ${printable(field)} ${reasonText(u)}`, { field, in: location });
  },
};

/**
 * The ledger (docs/ledger-formats.md "Errors"): `{code, message, details?}` with uppercase codes. Every
 * malformed request is a 400 VALIDATION_ERROR there (wrong content type and oversize bodies included).
 */
export const ledgerDialect: ErrorDialect = {
  problem(kind, message, fields) {
    switch (kind) {
      case 'not_found':
        return new AppError(404, 'NOT_FOUND', message);
      case 'method_not_allowed':
        return new AppError(405, 'METHOD_NOT_ALLOWED', message);
      case 'internal':
        return new AppError(500, 'INTERNAL_ERROR', message);
      default:
        return new AppError(400, 'VALIDATION_ERROR', message, fieldDetails(fields));
    }
  },
  body: verdictDialect.body,
  // docs/ledger-formats.md "Limits and validation": `details.fields[0].field` a dot path
  // (`custom_payload.lines.0.sku`), or the parameter's name.
  unstorable(u, location) {
    const field = location === 'body' ? dottedPath(u.path) || 'body' : String(u.path[0]);
    const message = describeUnstorable(u, field);
    return new AppError(400, 'VALIDATION_ERROR', message, { fields: [{ field, message }] });
  },
};

/**
 * The registry (docs/registry.md "Errors"): `{detail}`. A missing required field is 422, other validation 400.
 */
export const registryDialect: ErrorDialect = {
  problem(kind, message, fields) {
    if (kind === 'validation_failed' && fields?.some((f) => /is required/.test(f.message))) {
      return new AppError(422, 'missing_field', message, fieldDetails(fields));
    }
    return new AppError(STATUS[kind], kind, message, fieldDetails(fields));
  },
  body(error, errorId) {
    if (error.status >= 500 && errorId) return { detail: `${error.message} (error id ${errorId})` };
    return { detail: error.message };
  },
  // docs/registry.md "Limits": `body.a[2]["odd key"]`, `query.<name>`, `path`; a field name over 200
  // characters is shortened in the middle.
  unstorable(u, location) {
    const full = location === 'path' ? 'path' : bracketPath(u.path, { root: location, dashes: true, maxName: 64 });
    const field = full.length > 200 ? `${full.slice(0, 120)}…${full.slice(-60)}` : full;
    return new AppError(400, 'bad_request', describeUnstorable(u, field));
  },
};
