import { AppError } from '@arbiter/http';
import { auditStreamTenant } from '@arbiter/audit-streams';
import { STREAM_ID_PATTERN } from './payload';
import { isPlainObject, stringProblem } from '@arbiter/input';
import type { SealFactBody } from '../models/ledger';
import { parseSealBody } from './seal-request';
import { unstorableError, validationError } from './errors';

/** Most seals in one POST /internal/v1/seals (docs/ledger-formats.md "Service seals"). */
export const MAX_SERVICE_SEALS = 1000;

/** A service seal whose shape is checked: the public seal body (client_ref present) and its stream. */
export interface ServiceSealShape {
  streamId: string;
  body: SealFactBody & { client_ref: string };
}

/** The envelope `{seals: [...]}`, 1 to MAX_SERVICE_SEALS seals; each seal is checked by parseServiceSeal. */
export function parseServiceSealEnvelope(raw: unknown): unknown[] {
  if (!isPlainObject(raw)) throw validationError('The body must be a JSON object');
  for (const key of Object.keys(raw)) if (key !== 'seals') throw validationError(`${key} is not a field of the body`, key);
  const seals = raw.seals;
  if (seals === undefined) throw validationError("'seals' is required", 'seals');
  if (!Array.isArray(seals) || seals.length < 1 || seals.length > MAX_SERVICE_SEALS) {
    throw validationError(`seals must be an array of 1 to ${MAX_SERVICE_SEALS} seals`, 'seals');
  }
  return seals;
}

/**
 * One seal of the batch: the public seal body's checks (domain/seal-request.ts, the same words and
 * limits) plus what a service seal must have: a client_ref, and a stream_id that is one of the
 * audit streams of the seal's own tenant_id. Errors name the field as the public seal does; the
 * caller prefixes them with `seals[i]`.
 */
export function parseServiceSeal(raw: unknown): ServiceSealShape {
  if (!isPlainObject(raw)) throw validationError('A seal must be a JSON object');
  const { stream_id: streamId, ...rest } = raw;
  const body = parseSealBody(rest);
  if (body.client_ref === undefined) throw validationError("'client_ref' is required", 'client_ref');
  if (streamId === undefined) throw validationError("'stream_id' is required", 'stream_id');
  if (typeof streamId !== 'string') throw validationError('stream_id must be a string', 'stream_id');
  const unstorable = stringProblem(streamId);
  if (unstorable) throw unstorableError({ path: ['stream_id'], reason: unstorable, inName: false });
  const tenant = STREAM_ID_PATTERN.test(streamId) ? auditStreamTenant(streamId) : null;
  if (tenant === null)
    throw validationError('stream_id must be arbiter.<tenant_id>.consultations, .approvals, .rules or .keys', 'stream_id');
  if (tenant !== body.tenant_id) throw validationError(`stream_id ${streamId} is not a stream of tenant_id ${body.tenant_id}`, 'stream_id');
  return { streamId, body: body as ServiceSealShape['body'] };
}

/**
 * A seal's validation error as the batch answers it: the field becomes `seals[i].<field>` (or
 * `seals[i]` when the error names none), the message starts with `seals[i]: `.
 */
export function atSeal(index: number, err: AppError): { field: string; message: string } {
  const fields = (err.details as { fields?: Array<{ field: string }> } | undefined)?.fields;
  const inner = fields?.[0]?.field;
  return { field: inner ? `seals[${index}].${inner}` : `seals[${index}]`, message: `seals[${index}]: ${err.message}` };
}

/** 400 VALIDATION_ERROR naming every invalid seal (the message gives the first). */
export function invalidSeals(problems: Array<{ field: string; message: string }>, total: number): AppError {
  const first = problems[0];
  const more = problems.length > 1 ? ` (${problems.length} of ${total} seals are invalid; details.fields names each)` : '';
  return new AppError(400, 'VALIDATION_ERROR', `${first.message}${more}`, { fields: problems });
}
