import type { SealFactBody } from '../models/ledger';
import { findUnstorableString, isPlainObject, stringMember, unknownMember } from '@arbiter/input';
import { unstorableError, validationError } from './errors';

const SEAL_KEYS = new Set(['tenant_id', 'actor', 'custom_payload', 'client_ref']);

function text(body: Record<string, unknown>, key: string, max: number, required: boolean): string | undefined {
  return stringMember(body, key, max, required, (problem) =>
    validationError(problem === 'missing' ? `'${key}' is required` : `${key} must be a string of 1 to ${max} characters`, key),
  );
}

/**
 * The seal body (docs/ledger-formats.md "Seal request body"; the OpenAPI SealFactBody), the one validation of it on both doors of
 * the route (http/seal-route.ts): tenant_id, actor and custom_payload (an object) required,
 * client_ref optional, nothing else. FactsService.seal then checks the payload's size, depth and
 * text, and that every string can be stored (@arbiter/input).
 */
export function parseSealBody(raw: unknown): SealFactBody {
  try {
    return parseSealShape(raw);
  } catch (err) {
    // A body the shape refuses may also hold a string that cannot be stored: answer that first, as
    // refuseUnstorable does ahead of everything else on the other ledger routes. Only on this error path.
    const unstorable = findUnstorableString(raw);
    throw unstorable ? unstorableError(unstorable) : err;
  }
}

function parseSealShape(raw: unknown): SealFactBody {
  if (!isPlainObject(raw)) throw validationError('The body must be a JSON object');
  const unknown = unknownMember(raw, SEAL_KEYS);
  if (unknown !== undefined) throw validationError(`${unknown} is not a field of the seal body`, unknown);
  const tenant_id = text(raw, 'tenant_id', 128, true)!;
  const actor = text(raw, 'actor', 256, true)!;
  if (!isPlainObject(raw.custom_payload)) {
    throw validationError(
      raw.custom_payload === undefined ? "'custom_payload' is required" : 'custom_payload must be a JSON object',
      'custom_payload',
    );
  }
  const body: SealFactBody = { tenant_id, actor, custom_payload: raw.custom_payload };
  const clientRef = text(raw, 'client_ref', 255, false);
  if (clientRef !== undefined) body.client_ref = clientRef;
  return body;
}
