// A JSON input from outside (a request body, a file the CLI reads) read so that what cannot be stored
// exactly is refused, never repaired (docs/development.md "Storable JSON"). The HTTP body readers of
// @arbiter/http and the CLI call these; each service answers UnstorableJsonError in its own format.
import { isUtf8 } from 'node:buffer';
import { findInexactNumber, findInvalidUtf8 } from './json-text';
import { describeUnstorable, inspectJson, MAX_JSON_DEPTH, type JsonPath, type Unstorable } from './storable';

/**
 * A JSON input that cannot be stored as it was sent. `status`, `expose` and `type` are those of
 * body-parser's errors, so that a reader throwing it from body-parser's `verify` keeps it whole.
 */
export class UnstorableJsonError extends Error {
  readonly status = 400;
  readonly expose = true;
  readonly type = 'entity.unstorable';
  constructor(
    readonly unstorable: Unstorable,
    readonly maxDepth = MAX_JSON_DEPTH,
  ) {
    super(describeUnstorable(unstorable, jsonPointer(unstorable.path) || '(the document)', maxDepth));
    this.name = 'UnstorableJsonError';
  }
}

/** RFC 6901 JSON Pointer of a path: `/custom_payload/lines/0/sku` (`~` and `/` escaped); `` for the root. */
export function jsonPointer(path: JsonPath): string {
  return path.map((step) => `/${String(step).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** The text of a JSON input's bytes; bytes that are not UTF-8 (RFC 8259 section 8.1) are refused, naming where they are. */
export function decodeJsonBytes(bytes: Buffer): string {
  if (!isUtf8(bytes)) throw new UnstorableJsonError(findInvalidUtf8(bytes) ?? { path: [], reason: 'invalid_utf8', inName: false });
  return bytes.toString('utf8');
}

/** Refuses the first number of a JSON text that would not be stored as written (json-text.ts isInexactNumber). */
export function assertExactNumbers(text: string): void {
  const found = findInexactNumber(text);
  if (found) throw new UnstorableJsonError(found);
}

/**
 * Parses a JSON input (bytes, or text already decoded) and refuses what cannot be stored exactly:
 * bytes that are not UTF-8, inexact numbers, U+0000 and lone surrogates in names and strings, nesting
 * past `maxDepth`. A text that is not JSON throws JSON.parse's SyntaxError.
 */
export function parseStorableJson(input: Buffer | string, maxDepth = MAX_JSON_DEPTH): unknown {
  const text = typeof input === 'string' ? input : decodeJsonBytes(input);
  const value: unknown = JSON.parse(text);
  assertExactNumbers(text);
  const found = inspectJson(value, maxDepth);
  const first = found.depth ?? found.string;
  if (first) throw new UnstorableJsonError(first, maxDepth);
  return value;
}
