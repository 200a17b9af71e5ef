import { AppError, ErrorDialect, FieldProblem, ProblemKind } from './errors';

const STATUS: Record<ProblemKind, number> = {
  malformed_json: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  validation_failed: 400,
  not_found: 404,
  method_not_allowed: 405,
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
};
