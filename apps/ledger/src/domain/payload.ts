import { canonicalJson, CanonicalizationError } from '@arbiter/canonical';

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
 * Rejects what has no RFC 8785 form (lone surrogates, non-finite numbers), non-objects, payloads
 * nested deeper than LIMITS.payloadDepth (checked iteratively first, so a hostile body cannot
 * exhaust the stack) and payloads larger than LIMITS.payloadBytes.
 */
export function canonicalPayload(value: unknown): string {
  if (!isPlainObject(value)) throw new PayloadError('custom_payload must be a JSON object', 'custom_payload');
  const depth = maxDepth(value, LIMITS.payloadDepth);
  if (depth > LIMITS.payloadDepth) {
    throw new PayloadError(`custom_payload is nested deeper than ${LIMITS.payloadDepth} levels`, 'custom_payload');
  }
  let text: string;
  try {
    text = canonicalJson(value);
  } catch (err) {
    if (err instanceof CanonicalizationError) {
      throw new PayloadError(`custom_payload has no canonical JSON form: ${err.message}`, 'custom_payload');
    }
    throw err;
  }
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > LIMITS.payloadBytes) {
    throw new PayloadError(`custom_payload is ${bytes} bytes as canonical JSON; the limit is ${LIMITS.payloadBytes}`, 'custom_payload');
  }
  return text;
}

/** A string field must have a UTF-8 form (no lone surrogates: RFC 8785 section 3.2.2.2). */
export function assertWellFormed(value: string, field: string): void {
  if (LONE_SURROGATE.test(value)) throw new PayloadError(`${field} contains a lone surrogate`, field);
}

// In a /u regex a surrogate pair is one code point, so this matches only unpaired halves.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
