// Templates over a tool call's arguments: `acct:${args.account}`, `${args.transfer.currency}`. A
// template that names an argument the call lacks cannot be rendered, and the call is refused (never
// forwarded with a guessed resource). Nor can one whose argument is an object or an array: a resource
// names one thing, and an upstream may read `["vip-1"]` as the account `vip-1` (String(["vip-1"]))
// while the rules would judge the text `["vip-1"]`.

const PLACEHOLDER = /\$\{([^}]*)\}/g;
const ARG_PATH = /^args(\.[A-Za-z0-9_-]+)+$/;

/** Why a template is not valid, or null. */
export function templateProblem(template: string): string | null {
  for (const m of template.matchAll(PLACEHOLDER)) {
    if (!ARG_PATH.test(m[1].trim())) return `"\${${m[1]}}" is not a placeholder: write \${args.<argument>} or \${args.<argument>.<member>}`;
  }
  if (/\$\{(?![^}]*\})/.test(template)) return 'a placeholder is not closed: write ${args.<argument>}';
  return null;
}

/** The argument paths a template reads (`account`, `transfer.currency`). */
export const templateFields = (template: string): string[] =>
  [...template.matchAll(PLACEHOLDER)].map((m) => m[1].trim().slice('args.'.length));

function valueAt(args: Record<string, unknown>, field: string): unknown {
  let value: unknown = args;
  for (const key of field.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, key))
      return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export type Rendered = { ok: true; text: string } | { ok: false; missing: string[]; notScalar: string[] };

/**
 * The template with each placeholder replaced: strings as they are, numbers and booleans as text. An
 * absent or null argument is missing; an object or an array is not a value a placeholder takes.
 */
export function renderTemplate(template: string, args: Record<string, unknown>): Rendered {
  const missing: string[] = [];
  const notScalar: string[] = [];
  const text = template.replace(PLACEHOLDER, (_, inner: string) => {
    const field = inner.trim().slice('args.'.length);
    const value = valueAt(args, field);
    if (value === undefined || value === null) {
      if (!missing.includes(field)) missing.push(field);
      return '';
    }
    if (typeof value === 'object') {
      if (!notScalar.includes(field)) notScalar.push(field);
      return '';
    }
    return String(value);
  });
  return missing.length || notScalar.length ? { ok: false, missing, notScalar } : { ok: true, text };
}
