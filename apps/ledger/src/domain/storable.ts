// Strings PostgreSQL cannot store (docs/ledger-formats.md "Limits and
// validation"): U+0000, which `text` refuses outright and `json`/`jsonb` cannot turn back into text,
// and lone UTF-16 surrogates, which have no UTF-8 form (RFC 3629 section 3) and no RFC 8785 form
// (section 3.2.2.2). Pure functions; the HTTP doors (http/unstorable.ts, the seal lane) and
// FactsService call them before anything reaches the database or the seal queue.

/** What is wrong with a string, and where it is. */
export interface Unstorable {
  /** Dot path of the value (`custom_payload.lines.0.sku`), or of the member whose name is at fault. */
  field: string;
  reason: 'nul' | 'lone_surrogate';
  /** true when the member name, not its value, holds the character. */
  inName: boolean;
}

// In a /u regex a surrogate pair is one code point, so this matches only unpaired halves.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Why `s` cannot be stored, or null when it can. */
export function stringProblem(s: string): Unstorable['reason'] | null {
  if (s.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(s)) return 'lone_surrogate';
  return null;
}

/**
 * The first string (a value or a member name, at any depth) that cannot be stored, walking
 * iteratively so a hostile nesting depth cannot exhaust the stack. Non-string leaves are ignored.
 */
export function findUnstorable(value: unknown, root: string): Unstorable | null {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      const reason = stringProblem(v);
      if (reason) return { field: path, reason, inName: false };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], join(path, String(i))]);
      continue;
    }
    const names = Object.keys(v);
    for (const name of names) {
      const reason = stringProblem(name);
      if (reason) return { field: join(path, name), reason, inName: true };
    }
    for (let i = names.length - 1; i >= 0; i--) stack.push([(v as Record<string, unknown>)[names[i]], join(path, names[i])]);
  }
  return null;
}

/**
 * Whether an RFC 8785 / JSON.stringify text may hold U+0000: both write it as the escape `\u0000`
 * (lowercase, RFC 8785 section 3.2.2.2). One native scan of text the seal makes anyway; a hit may be
 * an escaped backslash followed by `u0000`, so callers confirm with findUnstorable.
 */
export function jsonTextMayHoldNul(text: string): boolean {
  return text.includes('\\u0000');
}

/** The sentence of a validation error, e.g. `actor contains U+0000 (NUL), which cannot be stored`. */
export function describeUnstorable(u: Unstorable): string {
  const what = u.reason === 'nul' ? 'U+0000 (NUL)' : 'a lone UTF-16 surrogate';
  const shown = printable(u.field);
  return u.inName ? `The member name ${shown} contains ${what}, which cannot be stored` : `${shown} contains ${what}, which cannot be stored`;
}

function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

/** The field as it may appear in a message: JSON-escaped when it holds control or surrogate characters. */
function printable(field: string): string {
  return /[\u0000-\u001f\uD800-\uDFFF]/.test(field) ? JSON.stringify(field) : field;
}
