import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ValidateError } from '@tsoa/runtime';
import { UnstorableJsonError, wellFormedJson } from '@arbiter/input';
import { AppError, type ErrorDialect, type FieldProblem } from './errors';
import { sendJson } from './fast-lane';
import { requestIdOf } from './request-log';

/**
 * Answers an error in the service's dialect on a plain node:http response (express routes and fast
 * lanes alike): the AppError's status, body and headers; anything unexpected is a 500 whose body
 * holds only an error id, logged with the error and the request id.
 */
export function renderError(err: unknown, req: IncomingMessage, res: ServerResponse, dialect: ErrorDialect, logger?: Logger): void {
  const appError = toAppError(err, dialect);
  let errorId: string | undefined;
  if (appError.status >= 500) {
    errorId = randomUUID();
    logger?.error({ err, errorId, reqId: requestIdOf(req) }, 'unhandled error');
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  // An error may echo what the request held: a lone surrogate in it is written as text, so every
  // error body is strict JSON (docs/development.md "Storable JSON").
  sendJson(res, appError.status, wellFormedJson(dialect.body(appError, errorId)), appError.headers);
}

function toAppError(err: unknown, dialect: ErrorDialect): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof UnstorableJsonError) return dialect.unstorable(err.unstorable, 'body');
  if (err instanceof ValidateError) return dialect.problem('validation_failed', describeFields(err), fieldsOf(err));
  const e = err as { type?: string; status?: number; message?: string } | undefined;
  switch (e?.type) {
    case 'entity.parse.failed':
      return dialect.problem('malformed_json', 'Request body is not valid JSON');
    case 'entity.too.large':
      return dialect.problem('payload_too_large', 'Request body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return dialect.problem('unsupported_media_type', e.message ?? 'Unsupported body encoding');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return dialect.problem('malformed_json', 'Request body could not be read');
  }
  // The router could not decode a path parameter (`%ff`): the path is at fault, not a body.
  if (e?.status === 400 && e.message?.startsWith('Failed to decode param'))
    return dialect.problem('validation_failed', 'A path parameter is not percent-encoded UTF-8');
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return dialect.problem(e.status === 404 ? 'not_found' : 'malformed_json', e.message ?? 'Bad request');
  }
  return dialect.problem('internal', 'Internal server error');
}

function fieldsOf(err: ValidateError): FieldProblem[] {
  return Object.entries(err.fields).map(([field, { message }]) => ({
    field: field.replace(/^requestBody\.?/, '').replace(/^body\.?/, '') || 'body',
    message,
  }));
}

function describeFields(err: ValidateError): string {
  const fields = fieldsOf(err);
  if (!fields.length) return 'Request validation failed';
  return `Invalid request: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`;
}
