// How an error names a field of a JSON value. Each service's documents fix their own spelling (the
// verdict gateway and the registry `a.b[2]["x.y"]`, the ledger `a.b.2.x.y`); both are written here.
import type { JsonPath } from './storable';

export interface BracketStyle {
  /** Written before the first step (`body`, `query`); none by default. */
  root?: string;
  /** Names with `-` are plain too (`a.b-c` rather than `a["b-c"]`). */
  dashes?: boolean;
  /** Names longer than this are cut, with `…`, inside their brackets. */
  maxName?: number;
}

const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLAIN_WITH_DASHES = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `a.b[2]["x.y"]`: plain names after dots, positions in brackets, other names JSON-quoted in brackets (so U+0000 reads `\u0000`). */
export function bracketPath(steps: JsonPath, style: BracketStyle = {}): string {
  const plain = style.dashes ? PLAIN_WITH_DASHES : PLAIN;
  const max = style.maxName ?? Infinity;
  let out = style.root ?? '';
  for (const step of steps) {
    if (typeof step === 'number') out += `[${step}]`;
    else if (step.length <= max && plain.test(step)) out += out ? `.${step}` : step;
    else out += `[${JSON.stringify(step.length > max ? `${step.slice(0, max)}…` : step)}]`;
  }
  return out;
}

/** `custom_payload.lines.0.sku`: every step after a dot, as sent. */
export function dottedPath(steps: JsonPath, root = ''): string {
  return [...(root ? [root] : []), ...steps].join('.');
}
