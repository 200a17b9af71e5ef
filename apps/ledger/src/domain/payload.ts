import { canonicalJson, CanonicalizationError, type CanonicalText } from '@arbiter/canonical';
import { describeUnstorable, dottedPath, findUnstorableString, isPlainObject, stringProblem, type Unstorable } from '@arbiter/input';

/** Documented limits of a seal request (docs/ledger-formats.md "Limits"). */
export const LIMITS = {
  /** UTF-8 bytes of the canonical (RFC 8785) JSON of custom_payload. */
  payloadBytes: 64 * 1024,
  /** Nesting depth of custom_payload; the payload object itself is depth 1. */
  payloadDepth: 32,
  actorLength: 256,
  clientRefLength: 255,
  tenantIdLength: 128,
} as const;

/** stream_id: 1-128 characters, letters, digits and . _ : - , starting with a letter or digit. */
export const STREAM_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export class PayloadError extends Error {
  readonly code = 'invalid_payload';
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'PayloadError';
  }
}

/**
 * Checks custom_payload and returns its canonical text, the form it is hashed and stored in.
 * Rejects what has no RFC 8785 form (lone surrogates, non-finite numbers), what PostgreSQL cannot
 * store (U+0000 in a member name or a string value: @arbiter/input's stringProblem), non-objects, payloads
 * nested deeper than LIMITS.payloadDepth (checked iteratively first, so a hostile body cannot
 * exhaust the stack) and payloads larger than LIMITS.payloadBytes. Errors name the offending
 * member by its dot path (`custom_payload.lines.0.sku`).
 */
export function canonicalPayload(value: unknown): CanonicalText {
  let text: CanonicalText;
  try {
    text = checkedCanonicalText(value);
  } catch (err) {
    // Whatever else is wrong, a string that cannot be stored is named first, as on the tsoa routes
    // (http/unstorable.ts checks before validation). Only on this error path: one walk, iterative.
    const hit = err instanceof PayloadError ? findUnstorableString(value) : null;
    throw hit ? payloadUnstorable(hit) : err;
  }
  // The canonical text writes U+0000 as the escape \u0000: one scan of it instead of a walk of
  // every payload; the walk runs only on a hit, to name the member (or to find an escaped backslash).
  if (jsonTextMayHoldNul(text)) {
    const hit = findUnstorableString(value);
    if (hit) throw payloadUnstorable(hit);
  }
  return text;
}

/**
 * Whether an RFC 8785 / JSON.stringify text may hold U+0000: both write it as the escape `\u0000`
 * (lowercase, RFC 8785 section 3.2.2.2). One native scan of text the seal makes anyway; a hit may be
 * an escaped backslash followed by `u0000`, so callers confirm with a walk.
 */
export function jsonTextMayHoldNul(text: string): boolean {
  return text.includes('\\u0000');
}

function payloadUnstorable(hit: Unstorable): PayloadError {
  const field = dottedPath(hit.path, 'custom_payload');
  return new PayloadError(describeUnstorable(hit, field), field);
}

function checkedCanonicalText(value: unknown): CanonicalText {
  if (!isPlainObject(value)) throw new PayloadError('custom_payload must be a JSON object', 'custom_payload');
  const depth = maxDepth(value, LIMITS.payloadDepth);
  if (depth > LIMITS.payloadDepth) {
    throw new PayloadError(`custom_payload is nested deeper than ${LIMITS.payloadDepth} levels`, 'custom_payload');
  }
  let text: CanonicalText;
  try {
    text = canonicalJson(value);
  } catch (err) {
    if (err instanceof CanonicalizationError)
      throw new PayloadError(`custom_payload has no canonical JSON form: ${err.message}`, 'custom_payload');
    throw err;
  }
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > LIMITS.payloadBytes) {
    throw new PayloadError(`custom_payload is ${bytes} bytes as canonical JSON; the limit is ${LIMITS.payloadBytes}`, 'custom_payload');
  }
  return text;
}

/** A string field must be storable: no U+0000, no lone surrogates (@arbiter/input's stringProblem). */
export function assertStorable(value: string, field: string): void {
  const reason = stringProblem(value);
  if (reason) throw new PayloadError(describeUnstorable({ path: [field], reason, inName: false }, field), field);
}

/** Depth of nested arrays/objects, stopping as soon as it exceeds `limit`. */
function maxDepth(root: object, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}
